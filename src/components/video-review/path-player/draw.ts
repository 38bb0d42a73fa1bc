// The path player's renderers: plain draw(ctx, state) functions over display pixels (the caller
// scales the context for the device pixel ratio) for the floor (image, hot zones, cameras) and
// the tags, drawn once per load. The path layer between them is painted by the path worker
// (workers/path-raster.ts); the current keyframe and highlight markers on top are elements moved
// by a transform each frame (markerTransform), which costs the page no repaint.

import type { AxisScale, PathTag } from '../../../../workers/floor-plan-scene.ts';
import { PATH_STYLE } from '../../../../workers/path-raster.ts';
import type { DisplayGeometry } from '../../../../workers/path-types.ts';
import { drawLabel } from '../../../lib/canvas-label.ts';
import type { Camera, HotZone } from '../../../types/api.ts';
import { type LabelLayout, type LabelSpot, layoutLabels } from './label-layout.ts';

/** Spec §9 marker radii (display pixels). */
export const CURRENT_MARKER_RADIUS = 13;
export const POINT_MARKER_RADIUS = PATH_STYLE.dotRadius;
export const HIGHLIGHT_RADIUS = 18;
/** Tags are drawn (and clicked) within this radius. */
export const TAG_RADIUS = 9;

const HALO = '#ffffff';
const EMPTY_FLOOR = '#f1f5f9';
const GRID = '#cbd5e1';
const LABEL_TEXT = '#0f172a';
const DEFAULT_ZONE = '#b45309';
const DEFAULT_TAG = '#15803d';
const DEFAULT_CAMERA = '#334155';
const LABEL_FONT = '600 11px system-ui, sans-serif';
/** A label's height in that font, its halo included. */
const LABEL_HEIGHT = 14;

export interface Point {
  x: number;
  y: number;
}

export interface FloorState {
  display: DisplayGeometry;
  /** The floor-plan image, drawn scaled to the display; null draws a plain grid. */
  image: CanvasImageSource | null;
  hotZones: readonly HotZone[];
  cameras: readonly Camera[];
  /** Layout pixels (where the calibrator placed things) to display pixels. */
  layout: AxisScale;
  /** Each hot zone's label (planLabels). */
  labels: readonly LabelSpot[];
}

export interface TagsState {
  /** The plan's size on screen (a label near its right edge goes left of its tag). */
  display: { width: number; height: number };
  tags: readonly PathTag[];
  /** Indices into tags of the scanned ones (spec §4). */
  scanned: ReadonlySet<number>;
  layout: AxisScale;
  /** Each tag's label (planLabels). */
  labels: readonly LabelSpot[];
}

/** A 2D context on the page or off it: the layers are drawn off the page (paintStatic). */
export type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/**
 * Draws a layer that stays as it is for the whole load (the floor, the tags) at a pixel ratio and
 * shows it as a fixed bitmap. A page canvas with a 2D context had its bitmap produced again at
 * every compositor commit (traced: several times per scrub step, about 2 ms of the page's thread
 * at 4× throttling); a bitmap renderer's image is handed over once.
 */
export function paintStatic(
  canvas: HTMLCanvasElement,
  size: { width: number; height: number },
  pixelRatio: number,
  draw: (ctx: Context2D) => void,
): void {
  const scratch = new OffscreenCanvas(size.width, size.height);
  const ctx = scratch.getContext('2d');
  const renderer = canvas.getContext('bitmaprenderer');
  if (!ctx || !renderer) throw new Error('The browser gave no 2D or bitmap canvas context');
  ctx.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
  draw(ctx);
  [canvas.width, canvas.height] = [size.width, size.height];
  renderer.transferFromImageBitmap(scratch.transferToImageBitmap());
}

const labelStyle = { font: LABEL_FONT, ink: LABEL_TEXT, halo: HALO };

/**
 * Where the tags' and hot zones' names go on this plan (label-layout.ts): worked out once for both
 * layers, which are drawn apart, so that a tag's name never covers a zone's.
 */
export function planLabels(
  display: { width: number; height: number },
  hotZones: readonly HotZone[],
  tags: readonly PathTag[],
  layout: AxisScale,
): LabelLayout {
  const ctx = new OffscreenCanvas(1, 1).getContext('2d');
  if (!ctx) throw new Error('The browser gave no 2D canvas context');
  ctx.font = LABEL_FONT;
  const { x: sx, y: sy } = layout;
  return layoutLabels({
    plan: display,
    tags: tags.map((tag) => ({ x: tag.x * sx, y: tag.y * sy, name: tag.name })),
    tagRadius: TAG_RADIUS,
    zones: hotZones.map((zone) => ({
      x: zone.x * sx,
      y: zone.y * sy,
      width: zone.width * sx,
      height: zone.height * sy,
      name: zone.name,
    })),
    measure: (text) => ctx.measureText(text).width,
    lineHeight: LABEL_HEIGHT,
  });
}

/** A name at its spot; one that found no room on the plan still never runs past its right edge. */
function drawLabelAt(ctx: Context2D, text: string, spot: LabelSpot | undefined, planWidth: number) {
  if (!spot) return;
  drawLabel(ctx, labelStyle, text, {
    x: spot.left,
    y: spot.middle,
    leftEdge: spot.left,
    planWidth,
  });
}

/** The floor: the image (or a plain 1 m-ish grid without one), hot zones and cameras. */
export function drawFloor(ctx: Context2D, state: FloorState): void {
  const { width, height } = state.display;
  ctx.clearRect(0, 0, width, height);
  if (state.image) {
    ctx.drawImage(state.image, 0, 0, width, height);
  } else {
    ctx.fillStyle = EMPTY_FLOOR;
    ctx.fillRect(0, 0, width, height);
    ctx.strokeStyle = GRID;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let x = 50; x < width; x += 50) ctx.rect(x, 0, 0, height);
    for (let y = 50; y < height; y += 50) ctx.rect(0, y, width, 0);
    ctx.stroke();
  }
  const { x: sx, y: sy } = state.layout;
  state.hotZones.forEach((zone, i) => {
    const colour = zone.color || DEFAULT_ZONE;
    const [x, y, w, h] = [zone.x * sx, zone.y * sy, zone.width * sx, zone.height * sy];
    ctx.globalAlpha = 0.18;
    ctx.fillStyle = colour;
    ctx.fillRect(x, y, w, h);
    ctx.globalAlpha = 1;
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    ctx.setLineDash([6, 3]);
    ctx.strokeRect(x, y, w, h);
    ctx.setLineDash([]);
    drawLabelAt(ctx, zone.name, state.labels[i], width);
  });
  for (const camera of state.cameras) {
    drawCamera(ctx, camera.x * sx, camera.y * sy, camera.color || DEFAULT_CAMERA);
  }
}

/** A camera: a small body with a lens cone, pointing right. */
function drawCamera(ctx: Context2D, x: number, y: number, colour: string): void {
  ctx.fillStyle = colour;
  ctx.strokeStyle = HALO;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.rect(x - 8, y - 5, 11, 10);
  ctx.moveTo(x + 3, y - 2);
  ctx.lineTo(x + 8, y - 5);
  ctx.lineTo(x + 8, y + 5);
  ctx.lineTo(x + 3, y + 2);
  ctx.closePath();
  ctx.stroke();
  ctx.fill();
}

/**
 * Tags: a scanned tag is a filled disc with a check mark, a tag not scanned a hollow dashed ring
 * with a cross, so the two differ by shape as well as colour; each with its name.
 */
export function drawTags(ctx: Context2D, state: TagsState): void {
  const { x: sx, y: sy } = state.layout;
  const planWidth = state.display.width;
  state.tags.forEach((tag, i) => {
    const x = tag.x * sx;
    const y = tag.y * sy;
    const colour = tag.color || DEFAULT_TAG;
    const scanned = state.scanned.has(i);
    ctx.beginPath();
    ctx.arc(x, y, TAG_RADIUS, 0, 2 * Math.PI);
    ctx.fillStyle = scanned ? colour : HALO;
    ctx.fill();
    ctx.lineWidth = 2.5;
    ctx.strokeStyle = scanned ? HALO : colour;
    ctx.setLineDash(scanned ? [] : [3, 2]);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.beginPath();
    if (scanned) {
      ctx.moveTo(x - 4, y);
      ctx.lineTo(x - 1, y + 3);
      ctx.lineTo(x + 4, y - 3);
      ctx.strokeStyle = HALO;
    } else {
      ctx.moveTo(x - 3, y - 3);
      ctx.lineTo(x + 3, y + 3);
      ctx.moveTo(x + 3, y - 3);
      ctx.lineTo(x - 3, y + 3);
      ctx.strokeStyle = colour;
    }
    ctx.lineWidth = 2;
    ctx.stroke();
    drawLabelAt(ctx, tag.name, state.labels[i], planWidth);
  });
}

/**
 * The transform that puts a marker layer's centre dot on a display-pixel point. The layer is as
 * large as the stage, so translate percentages are fractions of the stage: the marker follows
 * the stage when it is shown smaller, and moving it needs neither layout nor paint.
 */
export function markerTransform(point: Point, display: DisplayGeometry): string {
  const x = (100 * point.x) / display.width;
  const y = (100 * point.y) / display.height;
  return `translate(${x.toFixed(4)}%, ${y.toFixed(4)}%)`;
}

/** The tag whose disc contains the point (display pixels), the last drawn (topmost) first. */
export function tagAt(tags: readonly PathTag[], layout: AxisScale, point: Point): number {
  for (let i = tags.length - 1; i >= 0; i--) {
    const tag = tags[i]!;
    if (Math.hypot(tag.x * layout.x - point.x, tag.y * layout.y - point.y) <= TAG_RADIUS) return i;
  }
  return -1;
}
