// The calibrator's rules as pure functions over an immutable state: default names, palette
// colours, hot-zone size, proximity warnings, moves, and the configuration it becomes.
import { isBlank } from '../../../../server/schemas/blank.ts';
import { nextColor } from '../../../lib/palette.ts';
import { unstorableProblem } from '../../../lib/text-rules.ts';
import type { Camera, FloorplanConfiguration, HotZone, Tag } from '../../../types/api.ts';
import { codeOf, proposeTagCode } from '../labels/tag-codes.ts';
import { calibratorStrings as s } from '../strings.ts';
import {
  type DisplayPoint,
  isHotZoneLargeEnough,
  moveWithin,
  nearestWithin,
  type Rect,
  rescalePoint,
  rescaleRect,
  type Size,
  sameSize,
} from './geometry.ts';

export type PointKind = 'tag' | 'camera';
export type ItemKind = PointKind | 'hotZone';

export interface ItemTypes {
  tag: Tag;
  hotZone: HotZone;
  camera: Camera;
}

/** An item with a key of its own for lists, focus and selection; the key is never saved. */
export interface Keyed<T> {
  readonly key: string;
  readonly value: T;
}

export interface Calibration {
  readonly tags: readonly Keyed<Tag>[];
  readonly hotZones: readonly Keyed<HotZone>[];
  readonly cameras: readonly Keyed<Camera>[];
  readonly pixelsPerMeter: number;
}

/** Spec §5/§9: pixels per meter. The maximum is the server's. */
export const pixelsPerMeterRule = { default: 50, min: 0.1, step: 0.1, max: 1e6 } as const;

/** The longest texts the server stores (server/schemas/floorplan-configs.ts). */
export const textLimits = { name: 200, description: 2000, qrCode: 1000 } as const;

/** Spec §3 value sets and defaults. */
export const hotZoneImportances = ['low', 'medium', 'high', 'critical'] as const;
export type HotZoneImportance = (typeof hotZoneImportances)[number];
export const defaultImportance: HotZoneImportance = 'medium';
export const cameraTypes = [
  'thermal',
  'panoramic',
  'ptz',
  'dome',
  'bullet',
  'wireless',
  'standard',
] as const satisfies readonly NonNullable<Camera['type']>[];
export type CameraType = (typeof cameraTypes)[number];
export const defaultCameraType: CameraType = 'standard';

const listOf = { tag: 'tags', hotZone: 'hotZones', camera: 'cameras' } as const;

/** What a new item of each kind is called: 'Tag N', 'Hot Zone N', 'Camera N'. */
export const namePrefix: Record<ItemKind, string> = {
  tag: 'Tag',
  hotZone: 'Hot Zone',
  camera: 'Camera',
};

let lastKey = 0;
const keyed = <T>(value: T): Keyed<T> => ({ key: `item-${++lastKey}`, value });

const isHotZone = (item: Tag | HotZone | Camera): item is HotZone =>
  'width' in item && 'height' in item;

/** The area an item covers on the plan: a hot zone's rectangle, or a tag's or camera's point. */
export function footprint(item: Tag | HotZone | Camera): Rect {
  return isHotZone(item)
    ? { x: item.x, y: item.y, width: item.width, height: item.height }
    : { x: item.x, y: item.y, width: 0, height: 0 };
}

export function itemsOf<K extends ItemKind>(
  calibration: Calibration,
  kind: K,
): readonly Keyed<ItemTypes[K]>[] {
  return calibration[listOf[kind]] as readonly Keyed<ItemTypes[K]>[];
}

function withItems<K extends ItemKind>(
  calibration: Calibration,
  kind: K,
  items: readonly Keyed<ItemTypes[K]>[],
): Calibration {
  return { ...calibration, [listOf[kind]]: items };
}

export const emptyCalibration = (): Calibration => ({
  tags: [],
  hotZones: [],
  cameras: [],
  pixelsPerMeter: pixelsPerMeterRule.default,
});

/**
 * The state to edit a configuration in the frame `display`. Positions saved in another frame
 * (the floor plan was replaced by an image of other proportions) are carried over proportionally.
 */
export function calibrationFrom(
  configuration: FloorplanConfiguration | null,
  display: Size,
): Calibration {
  if (!configuration) return emptyCalibration();
  const from = configuration.displaySize;
  const same = sameSize(from, display);
  const point = <T extends Tag | Camera>(item: T) =>
    same ? item : rescalePoint(item, from, display);
  return {
    tags: configuration.tags.map((tag) => keyed(point(tag))),
    cameras: configuration.cameras.map((camera) => keyed(point(camera))),
    hotZones: configuration.hotZones.map((zone) =>
      keyed(same ? zone : rescaleRect(zone, from, display)),
    ),
    pixelsPerMeter: configuration.coordinateSystem.pixelsPerMeter ?? pixelsPerMeterRule.default,
  };
}

/**
 * 'Tag N' with N one more than the count, or the next number after it that no item of the kind
 * is called yet (after removing Tag 1 of two, the next is Tag 3, not a second Tag 2).
 */
export function defaultName(kind: ItemKind, existingNames: readonly string[]): string {
  return `${namePrefix[kind]} ${defaultNumber(kind, existingNames)}`;
}

/** The N of defaultName. */
function defaultNumber(kind: ItemKind, existingNames: readonly string[]): number {
  const taken = new Set(existingNames);
  let number = existingNames.length + 1;
  while (taken.has(`${namePrefix[kind]} ${number}`)) number += 1;
  return number;
}

/** Spec §3/§9: the first palette colour the kind's items do not use yet, cycling when all are. */
function colorFor(items: readonly Keyed<{ color?: string }>[]): string {
  return nextColor(items.map((item) => item.value.color ?? ''));
}

function names(items: readonly Keyed<{ name: string }>[]): string[] {
  return items.map((item) => item.value.name);
}

export interface Nearby {
  name: string;
  distance: number;
}

/** Spec §4: the nearest other tag or camera within 30 px of `point`; a warning, never a block. */
export function nearbyPoint(
  calibration: Calibration,
  point: { x: number; y: number },
  exceptKey?: string,
): Nearby | null {
  const others = [...calibration.tags, ...calibration.cameras]
    .filter((item) => item.key !== exceptKey)
    .map((item) => ({ x: item.value.x, y: item.value.y, name: item.value.name }));
  const nearest = nearestWithin(point, others);
  return nearest && { name: nearest.item.name, distance: nearest.distance };
}

export interface Placed {
  calibration: Calibration;
  key: string;
  name: string;
  nearby: Nearby | null;
}

/**
 * Places a tag or a camera at `point` (display pixels, already on the plan). A tag gets a QR code
 * of the line `lineName` at once (labels/tag-codes.ts): without one it could never be scanned.
 */
export function placePoint(
  calibration: Calibration,
  kind: PointKind,
  point: DisplayPoint,
  lineName: string,
): Placed {
  const items = itemsOf(calibration, kind);
  const number = defaultNumber(kind, names(items));
  const name = `${namePrefix[kind]} ${number}`;
  const base = { x: point.x, y: point.y, name, color: colorFor(items) };
  const taken = calibration.tags.flatMap((tag) => codeOf(tag.value) ?? []);
  const item = keyed<Tag | Camera>(
    kind === 'camera'
      ? { ...base, type: defaultCameraType }
      : { ...base, qrCode: proposeTagCode(lineName, number, taken) },
  );
  return {
    calibration: withItems(calibration, kind, [...items, item]),
    key: item.key,
    name,
    nearby: nearbyPoint(calibration, point),
  };
}

/** Spec §4: a dragged rectangle becomes a hot zone only when larger than 20 both ways. */
export function addHotZone(
  calibration: Calibration,
  rect: Rect,
): { calibration: Calibration; key: string; name: string } | null {
  if (!isHotZoneLargeEnough(rect)) return null;
  const zones = calibration.hotZones;
  const name = defaultName('hotZone', names(zones));
  const zone = keyed<HotZone>({
    ...rect,
    name,
    color: colorFor(zones),
    importance: defaultImportance,
  });
  return { calibration: { ...calibration, hotZones: [...zones, zone] }, key: zone.key, name };
}

export function findItem<K extends ItemKind>(
  calibration: Calibration,
  kind: K,
  key: string,
): ItemTypes[K] | null {
  return itemsOf(calibration, kind).find((item) => item.key === key)?.value ?? null;
}

export function updateItem<K extends ItemKind>(
  calibration: Calibration,
  kind: K,
  key: string,
  value: ItemTypes[K],
): Calibration {
  const items = itemsOf(calibration, kind).map((item) =>
    item.key === key ? { key, value } : item,
  );
  return withItems(calibration, kind, items);
}

export function removeItem(calibration: Calibration, kind: ItemKind, key: string): Calibration {
  return withItems(
    calibration,
    kind,
    itemsOf(calibration, kind).filter((item) => item.key !== key),
  );
}

/**
 * Moves an item by a delta in display pixels from `origin` (a drag's starting position; by
 * default where it is now). It stays whole on the plan.
 */
export function moveItem(
  calibration: Calibration,
  kind: ItemKind,
  key: string,
  delta: { dx: number; dy: number },
  display: Size,
  origin?: { x: number; y: number },
): Calibration {
  const current = findItem(calibration, kind, key);
  if (!current) return calibration;
  const { width, height } = footprint(current);
  const from = origin ?? current;
  const { x, y } = moveWithin({ x: from.x, y: from.y, width, height }, delta, display);
  return updateItem(calibration, kind, key, { ...current, x, y });
}

/** Clear All: every tag, hot zone and camera goes; the coordinate system stays. */
export const clearItems = (calibration: Calibration): Calibration => ({
  ...calibration,
  tags: [],
  hotZones: [],
  cameras: [],
});

/** A typed pixels-per-meter value, or null when it breaks spec §5 (a number of at least 0.1). */
export function parsePixelsPerMeter(text: string): number | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) &&
    value >= pixelsPerMeterRule.min &&
    value <= pixelsPerMeterRule.max
    ? value
    : null;
}

/** Where the configuration is drawn and what it keeps from the loaded one. */
export interface ConfigurationFrame {
  /** The configuration being edited: fields the calibrator does not edit are kept as they are. */
  base: FloorplanConfiguration | null;
  floorplanImage: string;
  displaySize: Size;
  /** The image's own size in pixels (auto-detected). */
  sourceImage: Size;
}

/**
 * The spec §3 configuration. Everything of `base` the calibrator does not edit (slamPoints,
 * floorplanPoints, forceAffine, yAxisFlip, useSimpleMapping, extra tag fields) is kept, so the
 * path player's calibration is never dropped by a save.
 */
export function toConfiguration(
  calibration: Calibration,
  frame: ConfigurationFrame,
): FloorplanConfiguration {
  const base = frame.base;
  return {
    ...base,
    floorplanImage: frame.floorplanImage,
    displaySize: { width: frame.displaySize.width, height: frame.displaySize.height },
    hotZones: calibration.hotZones.map((item) => item.value),
    tags: calibration.tags.map((item) => item.value),
    cameras: calibration.cameras.map((item) => item.value),
    coordinateSystem: {
      ...base?.coordinateSystem,
      useSimpleMapping: base?.coordinateSystem.useSimpleMapping ?? true,
      sourceImageWidth: frame.sourceImage.width,
      sourceImageHeight: frame.sourceImage.height,
      pixelsPerMeter: calibration.pixelsPerMeter,
    },
  };
}

/** Why an edited item cannot be kept (the first problem), or null when it is fine. */
export function itemProblem(
  kind: ItemKind,
  item: Tag | HotZone | Camera,
  display: Size,
): string | null {
  if (isBlank(item.name)) return s.nameRequired(namePrefix[kind].toLowerCase());
  const texts: [string, string | undefined, number][] = [
    [s.name, item.name, textLimits.name],
    [s.description, item.description, textLimits.description],
    [s.qrCode, 'qrCode' in item ? item.qrCode : undefined, textLimits.qrCode],
  ];
  const long = texts.find(([, text, limit]) => text !== undefined && text.length > limit);
  if (long) return s.tooLong(long[0], long[2]);
  for (const [label, text] of texts) {
    const problem = text === undefined ? null : unstorableProblem(label, text);
    if (problem) return problem;
  }
  const rect = footprint(item);
  const numbers: [string, number][] = [
    ['X', rect.x],
    ['Y', rect.y],
    ['Width', rect.width],
    ['Height', rect.height],
  ];
  const bad = numbers.find(([, value]) => !Number.isFinite(value));
  if (bad) return s.numberRequired(bad[0]);
  if (kind === 'hotZone' && !isHotZoneLargeEnough(rect)) return s.hotZoneTooSmall;
  const outside =
    rect.x < 0 ||
    rect.y < 0 ||
    rect.x + rect.width > display.width ||
    rect.y + rect.height > display.height;
  return outside ? s.outsidePlan(display) : null;
}
