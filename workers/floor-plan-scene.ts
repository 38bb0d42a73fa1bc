// The floor-plan configuration in the spaces the path needs (workers/path-types.ts): hot zones,
// tags and cameras are stored in the calibrator's layout pixels (`displaySize`), calibration points
// in floor-plan image pixels, and the canvas draws in display pixels. Platform-neutral: the path
// player and the server's inspection reports (server/reports/path-checklist.ts) both map with it.

import type { FloorplanConfiguration, Tag } from '../server/schemas/floorplan-configs.ts';
import { knownImage } from './path-engine.ts';
import type { Calibration, DisplayGeometry, ImageSize, XY } from './path-types.ts';

/** Spec §3: a tag in the path view. */
export type PathTag = Tag;

/** Spec §5: with fewer calibration pairs than this there is no point transform. */
export const MIN_CALIBRATION_PAIRS = 3;

/** A factor per axis from one pixel space to another. */
export interface AxisScale {
  x: number;
  y: number;
}

const points = (value: unknown): XY[] =>
  Array.isArray(value) ? (value.filter((p) => Array.isArray(p) && p.length >= 2) as XY[]) : [];

/** The calibration the path worker solves (spec §5); a missing list counts as no points. */
export function calibrationOf(configuration: FloorplanConfiguration): Calibration {
  return {
    slamPoints: points(configuration.slamPoints),
    floorplanPoints: points(configuration.floorplanPoints),
    forceAffine: configuration.forceAffine === true,
    yAxisFlip: configuration.yAxisFlip === true,
    coordinateSystem: configuration.coordinateSystem ?? {},
  };
}

/** Complete slam/floor-plan point pairs (the longer list's extra points pair with nothing). */
export function calibrationPairs(calibration: Calibration): number {
  return Math.min(calibration.slamPoints.length, calibration.floorplanPoints.length);
}

const positive = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;

/**
 * The floor-plan image's size in image pixels: the decoded image, else the source size the
 * calibrator recorded; null when neither is known (the worker then assumes 800×600, spec §9).
 */
export function imageSizeOf(
  image: { width: number; height: number } | null,
  configuration: FloorplanConfiguration | null,
): ImageSize | null {
  if (image && positive(image.width) && positive(image.height)) {
    return { width: image.width, height: image.height };
  }
  const source = configuration?.coordinateSystem;
  if (source && positive(source.sourceImageWidth) && positive(source.sourceImageHeight)) {
    return { width: source.sourceImageWidth, height: source.sourceImageHeight };
  }
  return null;
}

/**
 * Layout pixels (where the calibrator placed hot zones, tags and cameras) to image pixels:
 * the calibrator showed the image scaled to `displaySize`. Without a usable displaySize the
 * positions are taken as image pixels.
 */
export function layoutToImage(
  configuration: FloorplanConfiguration,
  image: ImageSize | null,
): AxisScale {
  const { width, height } = knownImage(image);
  const layout = configuration.displaySize;
  if (!layout || !positive(layout.width) || !positive(layout.height)) return { x: 1, y: 1 };
  return { x: width / layout.width, y: height / layout.height };
}

/** Layout pixels to the path player's display pixels. */
export function layoutToDisplay(
  configuration: FloorplanConfiguration,
  image: ImageSize | null,
  display: DisplayGeometry,
): AxisScale {
  const toImage = layoutToImage(configuration, image);
  return { x: toImage.x * display.scale, y: toImage.y * display.scale };
}

/** Tag positions in image pixels, for spec §4 tag scanning in the worker. */
export function tagsInImagePixels(
  configuration: FloorplanConfiguration,
  image: ImageSize | null,
): XY[] {
  const scale = layoutToImage(configuration, image);
  return tagsOf(configuration).map((tag) => [tag.x * scale.x, tag.y * scale.y]);
}

/** The configuration's tags with finite positions (the only ones that can be drawn or scanned). */
export function tagsOf(configuration: FloorplanConfiguration | null): PathTag[] {
  const tags = configuration?.tags;
  if (!Array.isArray(tags)) return [];
  return tags.filter((tag) => Number.isFinite(tag?.x) && Number.isFinite(tag?.y));
}
