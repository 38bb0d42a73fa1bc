// opencv.js (@techstark/opencv-js 4.5, OpenCV compiled by Emscripten) as the bench's library
// baseline. Only the few functions the bench calls are typed here.
import { createRequire } from 'node:module';

export interface CvMat {
  data64F: Float64Array;
  rows: number;
  cols: number;
  delete(): void;
}

export interface OpenCv {
  Mat: new (rows?: number, cols?: number, type?: number) => CvMat;
  CV_32FC2: number;
  CV_64FC2: number;
  CV_64F: number;
  matFromArray(rows: number, cols: number, type: number, values: ArrayLike<number>): CvMat;
  getPerspectiveTransform(src: CvMat, dst: CvMat): CvMat;
  getAffineTransform(src: CvMat, dst: CvMat): CvMat;
  perspectiveTransform(src: CvMat, dst: CvMat, m: CvMat): void;
}

interface EmscriptenModule {
  calledRun?: boolean;
  onRuntimeInitialized?: () => void;
}

/**
 * Loads opencv.js and waits for its WASM runtime. The module object is a thenable that resolves
 * to itself, so awaiting it directly never settles; wait for onRuntimeInitialized instead.
 */
export async function loadOpenCv(): Promise<{ cv: OpenCv; loadMs: number }> {
  const started = performance.now();
  const cv = createRequire(import.meta.url)('@techstark/opencv-js') as OpenCv & EmscriptenModule;
  if (!cv.calledRun) {
    await new Promise<void>((resolve) => {
      cv.onRuntimeInitialized = resolve;
    });
  }
  return { cv, loadMs: performance.now() - started };
}

/** Row-major 3×3 as OpenCV returns it (CV_64F). */
function readMatrix(m: CvMat): number[] {
  const values = Array.from(m.data64F);
  m.delete();
  return values;
}

/** getPerspectiveTransform for 4 pairs or getAffineTransform for 3, with OpenCV's float32 inputs. */
export function solveWithOpenCv(
  cv: OpenCv,
  src: readonly (readonly [number, number])[],
  dst: readonly (readonly [number, number])[],
): number[] {
  const a = cv.matFromArray(src.length, 1, cv.CV_32FC2, src.flat());
  const b = cv.matFromArray(dst.length, 1, cv.CV_32FC2, dst.flat());
  try {
    if (src.length === 4) return readMatrix(cv.getPerspectiveTransform(a, b));
    if (src.length === 3) return [...readMatrix(cv.getAffineTransform(a, b)), 0, 0, 1];
    throw new Error(`solveWithOpenCv: needs 3 or 4 point pairs, got ${src.length}`);
  } finally {
    a.delete();
    b.delete();
  }
}

/**
 * cv.perspectiveTransform over separate x/y columns, with its marshalling: interleave into a
 * CV_64FC2 Mat on the Emscripten heap, transform, then copy the result back out into columns (new
 * ones, or `out`'s).
 */
export function mapWithOpenCv(
  cv: OpenCv,
  matrix: readonly number[],
  x: Float64Array,
  y: Float64Array,
  out?: { x: Float64Array; y: Float64Array },
): { x: Float64Array; y: Float64Array } {
  const n = x.length;
  const src = new cv.Mat(n, 1, cv.CV_64FC2);
  const dst = new cv.Mat();
  const m = cv.matFromArray(3, 3, cv.CV_64F, matrix);
  try {
    const packed = src.data64F;
    for (let i = 0; i < n; i++) {
      packed[2 * i] = x[i]!;
      packed[2 * i + 1] = y[i]!;
    }
    cv.perspectiveTransform(src, dst, m);
    const result = dst.data64F;
    const outX = out?.x ?? new Float64Array(n);
    const outY = out?.y ?? new Float64Array(n);
    for (let i = 0; i < n; i++) {
      outX[i] = result[2 * i]!;
      outY[i] = result[2 * i + 1]!;
    }
    return { x: outX, y: outY };
  } finally {
    src.delete();
    dst.delete();
    m.delete();
  }
}

/**
 * Points kept in OpenCV's own layout between calls, as the resident kernel keeps its points in
 * linear memory: an interleaved CV_64FC2 Mat, transformed into a second Mat that is reused, then
 * clamped there. Call delete() when done.
 */
export function residentOpenCv(
  cv: OpenCv,
  matrix: readonly number[],
  x: Float64Array,
  y: Float64Array,
): {
  mapAndClamp(image: { width: number; height: number }): number;
  /** Packs the points in again (what a caller does to map fresh points). */
  restore(x: Float64Array, y: Float64Array): void;
  read(): { x: Float64Array; y: Float64Array };
  delete(): void;
} {
  const n = x.length;
  const src = new cv.Mat(n, 1, cv.CV_64FC2);
  const dst = new cv.Mat(n, 1, cv.CV_64FC2);
  const m = cv.matFromArray(3, 3, cv.CV_64F, matrix);
  const restore = (xs: Float64Array, ys: Float64Array) => {
    const packed = src.data64F;
    for (let i = 0; i < n; i++) {
      packed[2 * i] = xs[i]!;
      packed[2 * i + 1] = ys[i]!;
    }
  };
  restore(x, y);
  return {
    restore,
    mapAndClamp: (image) => {
      cv.perspectiveTransform(src, dst, m);
      return clampInterleaved(dst.data64F, image);
    },
    read: () => {
      const result = dst.data64F;
      return {
        x: Float64Array.from({ length: n }, (_, i) => result[2 * i]!),
        y: Float64Array.from({ length: n }, (_, i) => result[2 * i + 1]!),
      };
    },
    delete: () => {
      src.delete();
      dst.delete();
      m.delete();
    },
  };
}

/**
 * The spec §5 clamp as an OpenCV user adds it after cv.perspectiveTransform (which has no clamp):
 * a point farther than twice the larger image dimension from the centre is clamped per axis to
 * [−dimension, 2·dimension], a non-finite one goes to the centre. In place; returns the count.
 */
export function clampAfterOpenCv(
  x: Float64Array,
  y: Float64Array,
  image: { width: number; height: number },
): number {
  let clamped = 0;
  for (let i = 0; i < x.length; i++) {
    const point = clampPoint(x[i]!, y[i]!, image);
    if (point === null) continue;
    clamped++;
    x[i] = point[0];
    y[i] = point[1];
  }
  return clamped;
}

/** clampAfterOpenCv over OpenCV's interleaved x, y pairs (a CV_64FC2 Mat's data). */
function clampInterleaved(xy: Float64Array, image: { width: number; height: number }): number {
  let clamped = 0;
  for (let i = 0; i < xy.length; i += 2) {
    const point = clampPoint(xy[i]!, xy[i + 1]!, image);
    if (point === null) continue;
    clamped++;
    xy[i] = point[0];
    xy[i + 1] = point[1];
  }
  return clamped;
}

/** The clamped point, or null when (x, y) is close enough to the image to stay as it is. */
function clampPoint(
  x: number,
  y: number,
  { width, height }: { width: number; height: number },
): [number, number] | null {
  const dx = x - width / 2;
  const dy = y - height / 2;
  const limit = 2 * Math.max(width, height);
  if (dx * dx + dy * dy <= limit * limit) return null;
  if (!(Number.isFinite(x) && Number.isFinite(y))) return [width / 2, height / 2];
  return [Math.min(Math.max(x, -width), 2 * width), Math.min(Math.max(y, -height), 2 * height)];
}
