// What the path worker keeps for the path player after a load: the path's coverage raster (a
// frame at any time is one pass over the pixels; it is stamped in slices after the load, and a
// frame stamps whatever it needs that is still missing) and a grid of its points (a click looks at
// a few cells). Both are built from the thinned points in display pixels. No DOM.

import { PATH_STYLE, PathRaster } from './path-raster.ts';
import type { LoadedPath } from './path-types.ts';
import { PointGrid } from './point-grid.ts';

export interface PathViewSize {
  /** Device pixels per display (CSS) pixel: the page's devicePixelRatio. */
  pixelRatio: number;
}

/** A canvas's backing size (device pixels, at least 1×1) for a display size at a pixel ratio. */
export function canvasSize(display: { width: number; height: number }, pixelRatio: number) {
  if (!(Number.isFinite(pixelRatio) && pixelRatio > 0 && pixelRatio <= 8)) {
    throw new RangeError(`canvasSize: pixelRatio must be in (0, 8], got ${pixelRatio}`);
  }
  return {
    width: Math.max(1, Math.round(display.width * pixelRatio)),
    height: Math.max(1, Math.round(display.height * pixelRatio)),
    pixelRatio,
  };
}

export class PathView {
  readonly raster: PathRaster;
  private readonly grid: PointGrid;

  constructor(path: LoadedPath, { pixelRatio }: PathViewSize) {
    // Copies: the worker transfers the path's own arrays to the page after this.
    const x = path.kept.x.slice();
    const y = path.kept.y.slice();
    this.raster = new PathRaster(x, y, canvasSize(path.display, pixelRatio), PATH_STYLE);
    // Cells as wide as a dot: a click within a dot's radius looks at no more than 3 × 3 cells.
    this.grid = new PointGrid(x, y, 2 * PATH_STYLE.dotRadius);
  }

  /**
   * Stamps the next `points` points into the raster, for building it in slices between frames;
   * false once every point is stamped.
   */
  stampMore(points: number): boolean {
    this.raster.stampTo(this.raster.stampedCount + points);
    return !this.raster.complete;
  }

  /** Index of the kept point below `drawCount` nearest (x, y) within `radius` display px, or −1. */
  hitTest(x: number, y: number, radius: number, drawCount: number): number {
    return this.grid.nearest(x, y, radius, drawCount);
  }
}
