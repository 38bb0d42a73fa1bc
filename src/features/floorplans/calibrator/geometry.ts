// Pure geometry of the calibrator. Two coordinate spaces meet here and must not mix silently:
//   client pixels  — CSS pixels from the top-left corner of the drawn floor plan, as the browser
//                    reports pointer positions (the drawing may be narrower than 800 on a phone)
//   display pixels — the calibrator's own frame: the image scaled to fit 800 on its longer side
//                    (spec §9). Every saved position and size of a configuration is in this frame.

declare const space: unique symbol;

/** A point in display pixels (what a configuration stores). */
export type DisplayPoint = { readonly x: number; readonly y: number; readonly [space]: 'display' };
/** A point in CSS pixels relative to the drawn floor plan's top-left corner. */
export type ClientPoint = { readonly x: number; readonly y: number; readonly [space]: 'client' };

export interface Size {
  width: number;
  height: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Spec §9: the calibrator's display is 800 by 800 until the image tells its proportions. */
export const calibratorDisplayLength = 800;
export const defaultDisplaySize: Size = {
  width: calibratorDisplayLength,
  height: calibratorDisplayLength,
};
/** Spec §4/§9: a dragged hot zone must be larger than this in both directions. */
export const hotZoneMinSize = 20;
/** Spec §4/§9: placing a tag or camera this close to another one warns. */
export const proximityWarningDistance = 30;
/** Display pixels an arrow key moves an item or the placing cross; with Shift, the bigger step. */
export const keyboardStep = 1;
export const keyboardBigStep = 10;

export const displayPoint = (x: number, y: number) => ({ x, y }) as DisplayPoint;
export const clientPoint = (x: number, y: number) => ({ x, y }) as ClientPoint;

/** Stored coordinates keep two decimals, as the demo data does; finer is pointer noise. */
export const roundCoordinate = (value: number) => Math.round(value * 100) / 100;

/**
 * The display frame of an image: scaled so its longer side is 800 (small images are scaled up,
 * so every configuration shares one frame). The shorter side keeps the exact proportion (two
 * decimals), so image pixels = display pixels × image width / display width on both axes.
 */
export function fitDisplaySize(image: Size, longest = calibratorDisplayLength): Size {
  const { width, height } = image;
  if (!(width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height))) {
    throw new RangeError(`An image needs a positive size, not ${width}×${height}`);
  }
  const scale = longest / Math.max(width, height);
  return { width: roundCoordinate(width * scale), height: roundCoordinate(height * scale) };
}

/** A pointer position on the drawn plan (`drawn` is its CSS size) in display pixels. */
export function toDisplayPoint(point: ClientPoint, drawn: Size, display: Size): DisplayPoint {
  if (!(drawn.width > 0 && drawn.height > 0)) throw new RangeError('The plan is not drawn yet');
  return displayPoint(
    (point.x * display.width) / drawn.width,
    (point.y * display.height) / drawn.height,
  );
}

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

/** Keeps a point on the plan, rounded to stored precision. */
export function clampToDisplay(point: DisplayPoint, display: Size): DisplayPoint {
  return displayPoint(
    roundCoordinate(clamp(point.x, 0, display.width)),
    roundCoordinate(clamp(point.y, 0, display.height)),
  );
}

/** The middle of the plan, where the keyboard's cross starts in a placing mode. */
export function centreOf(display: Size): DisplayPoint {
  return clampToDisplay(displayPoint(display.width / 2, display.height / 2), display);
}

/** The rectangle between two corners of a drag, in any direction, cut to the plan. */
export function rectFromCorners(a: DisplayPoint, b: DisplayPoint, display: Size): Rect {
  const first = clampToDisplay(a, display);
  const second = clampToDisplay(b, display);
  const x = Math.min(first.x, second.x);
  const y = Math.min(first.y, second.y);
  return {
    x,
    y,
    width: roundCoordinate(Math.max(first.x, second.x) - x),
    height: roundCoordinate(Math.max(first.y, second.y) - y),
  };
}

/** Spec §4: a hot zone is created only when the rectangle is greater than 20 both ways. */
export const isHotZoneLargeEnough = (rect: Size) =>
  rect.width > hotZoneMinSize && rect.height > hotZoneMinSize;

export const distance = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.hypot(a.x - b.x, a.y - b.y);

/** The nearest of `others` at most `limit` display pixels from `point`, or null. */
export function nearestWithin<T extends { x: number; y: number }>(
  point: { x: number; y: number },
  others: readonly T[],
  limit = proximityWarningDistance,
): { item: T; distance: number } | null {
  let nearest: { item: T; distance: number } | null = null;
  for (const item of others) {
    const gap = distance(point, item);
    if (gap <= limit && (nearest === null || gap < nearest.distance)) {
      nearest = { item, distance: gap };
    }
  }
  return nearest;
}

/**
 * Moves a rectangle (a point is a rectangle of size 0) by a delta, keeping it whole on the plan.
 * Answers the new top-left corner.
 */
export function moveWithin(
  rect: Rect,
  delta: { dx: number; dy: number },
  display: Size,
): DisplayPoint {
  return displayPoint(
    roundCoordinate(clamp(rect.x + delta.dx, 0, Math.max(display.width - rect.width, 0))),
    roundCoordinate(clamp(rect.y + delta.dy, 0, Math.max(display.height - rect.height, 0))),
  );
}

/** Carries a rectangle from one display frame to another (a replaced image of other proportions). */
export function rescaleRect<T extends Rect>(rect: T, from: Size, to: Size): T {
  const sx = to.width / from.width;
  const sy = to.height / from.height;
  return {
    ...rect,
    x: roundCoordinate(rect.x * sx),
    y: roundCoordinate(rect.y * sy),
    width: roundCoordinate(rect.width * sx),
    height: roundCoordinate(rect.height * sy),
  };
}

export function rescalePoint<T extends { x: number; y: number }>(
  point: T,
  from: Size,
  to: Size,
): T {
  return {
    ...point,
    x: roundCoordinate((point.x * to.width) / from.width),
    y: roundCoordinate((point.y * to.height) / from.height),
  };
}

export const sameSize = (a: Size, b: Size) =>
  Math.abs(a.width - b.width) < 0.01 && Math.abs(a.height - b.height) < 0.01;

/** The floor area the source image covers at `pixelsPerMeter` image pixels per metre. */
export function coverageMeters(source: Size, pixelsPerMeter: number): Size {
  if (!(pixelsPerMeter > 0)) throw new RangeError('Pixels per meter must be positive');
  return { width: source.width / pixelsPerMeter, height: source.height / pixelsPerMeter };
}

/** The move an arrow key asks for (`step` display pixels), or null for any other key. */
export function arrowDelta(key: string, step: number): { dx: number; dy: number } | null {
  switch (key) {
    case 'ArrowLeft':
      return { dx: -step, dy: 0 };
    case 'ArrowRight':
      return { dx: step, dy: 0 };
    case 'ArrowUp':
      return { dx: 0, dy: -step };
    case 'ArrowDown':
      return { dx: 0, dy: step };
    default:
      return null;
  }
}
