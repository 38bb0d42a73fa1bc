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
 * CV_64FC2 Mat on the Emscripten heap, transform, then copy the result back out into columns.
 */
export function mapWithOpenCv(
  cv: OpenCv,
  matrix: readonly number[],
  x: Float64Array,
  y: Float64Array,
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
    const out = dst.data64F;
    const outX = new Float64Array(n);
    const outY = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      outX[i] = out[2 * i]!;
      outY[i] = out[2 * i + 1]!;
    }
    return { x: outX, y: outY };
  } finally {
    src.delete();
    dst.delete();
    m.delete();
  }
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
  const { width, height } = image;
  const cx = width / 2;
  const cy = height / 2;
  const limit = 2 * Math.max(width, height);
  let clamped = 0;
  for (let i = 0; i < x.length; i++) {
    const dx = x[i]! - cx;
    const dy = y[i]! - cy;
    if (dx * dx + dy * dy <= limit * limit) continue;
    clamped++;
    const finite = Number.isFinite(x[i]) && Number.isFinite(y[i]);
    x[i] = finite ? Math.min(Math.max(x[i]!, -width), 2 * width) : cx;
    y[i] = finite ? Math.min(Math.max(y[i]!, -height), 2 * height) : cy;
  }
  return clamped;
}
