// JS side of the transform kernels in assembly/transform.ts (rules: docs/transform.md).
//
// What the path engine (workers/path-engine.ts) calls, each with the instantiated core first:
//   solveTransform(core, calibration, image)  → TransformResult: which transform, why stronger
//       ones were rejected, each calibration point's error in image pixels
//   mapToImageInPlace(core, result, xPtr, yPtr, count, image) → maps `count` f64 points already
//       in linear memory from map units to image pixels with the clamp; returns how many clamped
//   imageMapping(core, result, image) → the same checked once, for the chunks of a stream
//   POINT_ERROR_WARN_PX → the UI warns in the console when a calibration error exceeds it
//
// Bad input throws an Error naming the field; the core itself never traps.

import type {
  Calibration,
  ImageSize,
  RejectReason,
  TransformKind,
  TransformResult,
  XY,
} from './path-types.ts';

/** Calibration errors above this many image pixels are worth a console warning (spec §8). */
export const POINT_ERROR_WARN_PX = 10;

/** Spec §3 / §9: pixels per meter when the coordinate system does not give one. */
const DEFAULT_PIXELS_PER_METER = 50;

// Positions match the codes in assembly/transform.ts (kind 1..4, reason 1..8).
const TRANSFORM_KINDS: readonly TransformKind[] = ['perspective', 'affine', 'simple', 'none'];
const REJECT_REASONS: readonly RejectReason[] = [
  'too-few-points',
  'forced-affine',
  'collinear',
  'scale-ratio',
  'singular',
  'calibration-error',
  'denominator',
  'quality',
];

const FLAG_FORCE_AFFINE = 1;
const FLAG_USE_SIMPLE_MAPPING = 2;

/**
 * Negative statuses of the kernels. The codec checks its input first, so only −5 (a product of
 * valid values) can come from input; the others would mean a codec bug.
 */
const STATUS_MESSAGES: Record<number, string> = {
  [-1]: 'negative point count',
  [-2]: 'a calibration point is not finite',
  [-3]: 'image size is not positive and finite',
  [-4]: 'pixelsPerMeter is not positive and finite',
  [-5]:
    'calibration.coordinateSystem: pixelsPerMeter × image size ÷ sourceImageWidth/Height ' +
    'is not a usable scale (it overflows or underflows)',
  [-6]: 'transform matrix is not finite',
  [-7]: 'a buffer lies outside the core memory',
};

/** The exports of the instantiated core (build/path-core.wasm) the codec uses. */
export interface TransformExports {
  readonly memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  free(ptr: number): void;
  transformMatrix(): number;
  transformSolve(
    points: number,
    pairs: number,
    flags: number,
    width: number,
    height: number,
    sourceWidth: number,
    sourceHeight: number,
    pixelsPerMeter: number,
  ): number;
  transformMapClamp(
    xs: number,
    ys: number,
    count: number,
    matrix: number,
    flipY: number,
    width: number,
    height: number,
  ): number;
}

/**
 * Spec §5: chooses and solves the transform from map units (after yAxisFlip) to image pixels.
 * A null calibration (none configured) has no point pairs: the simple or identity fallback.
 */
export function solveTransform(
  core: TransformExports,
  calibration: Calibration | null,
  image: ImageSize,
): TransformResult {
  checkImage(image);
  const given = calibration ?? { slamPoints: [], floorplanPoints: [] };
  if (typeof given !== 'object') {
    throw new Error(`calibration must be an object or null, got ${describe(given)}`);
  }
  const slam = checkPoints(given.slamPoints, 'calibration.slamPoints');
  const floorplan = checkPoints(given.floorplanPoints, 'calibration.floorplanPoints');
  const forceAffine = optionalBoolean(given.forceAffine, 'calibration.forceAffine', false);
  const yAxisFlip = optionalBoolean(given.yAxisFlip, 'calibration.yAxisFlip', false);
  const system = given.coordinateSystem ?? {};
  if (typeof system !== 'object') {
    throw new Error(`calibration.coordinateSystem must be an object, got ${describe(system)}`);
  }
  const useSimpleMapping = optionalBoolean(
    system.useSimpleMapping,
    'calibration.coordinateSystem.useSimpleMapping',
    true,
  );
  const pixelsPerMeter = system.pixelsPerMeter ?? DEFAULT_PIXELS_PER_METER;
  if (!isPositiveNumber(pixelsPerMeter)) {
    throw new Error(
      'calibration.coordinateSystem.pixelsPerMeter must be a positive finite number, got ' +
        describe(pixelsPerMeter),
    );
  }

  // Points pair up by index; extra points on the longer list have no partner and are ignored.
  const pairs = Math.min(slam.length, floorplan.length);
  const values = 5 * pairs;
  const ptr = core.alloc(values * Float64Array.BYTES_PER_ELEMENT) >>> 0;
  try {
    // View made after alloc: allocating may have grown (and detached) the memory.
    const buffer = new Float64Array(core.memory.buffer, ptr, values);
    for (let i = 0; i < pairs; i++) {
      const s = slam[i] as XY;
      const f = floorplan[i] as XY;
      buffer[2 * i] = s[0];
      buffer[2 * i + 1] = s[1];
      buffer[2 * (pairs + i)] = f[0];
      buffer[2 * (pairs + i) + 1] = f[1];
    }
    const flags =
      (forceAffine ? FLAG_FORCE_AFFINE : 0) | (useSimpleMapping ? FLAG_USE_SIMPLE_MAPPING : 0);
    const code = core.transformSolve(
      ptr,
      pairs,
      flags,
      image.width,
      image.height,
      sourceSize(system.sourceImageWidth),
      sourceSize(system.sourceImageHeight),
      pixelsPerMeter,
    );
    checkStatus(code, 'solveTransform');
    const rejected: TransformResult['rejected'] = [];
    const perspectiveReason = (code >> 4) & 15;
    const affineReason = (code >> 8) & 15;
    if (perspectiveReason)
      rejected.push({ kind: 'perspective', reason: reason(perspectiveReason) });
    if (affineReason) rejected.push({ kind: 'affine', reason: reason(affineReason) });
    return {
      kind: TRANSFORM_KINDS[(code & 15) - 1] as TransformKind,
      matrix: Array.from(new Float64Array(core.memory.buffer, core.transformMatrix() >>> 0, 9)),
      rejected,
      pointErrorsPx: Array.from(buffer.subarray(4 * pairs, 5 * pairs)),
      yAxisFlip,
    };
  } finally {
    core.free(ptr);
  }
}

/**
 * Spec §5 mapping: `count` points at xPtr/yPtr (f64 in linear memory, map units) become image
 * pixels in place, y negated first when result.yAxisFlip, with the clamp. Returns how many points
 * were clamped. Allocates nothing, so the caller's views stay valid.
 */
export function mapToImageInPlace(
  core: TransformExports,
  result: TransformResult,
  xPtr: number,
  yPtr: number,
  count: number,
  image: ImageSize,
): number {
  return imageMapping(core, result, image)(xPtr, yPtr, count);
}

/**
 * mapToImageInPlace checked once for many runs of points (a stream's chunks): returns the mapping
 * of `count` points at xPtr/yPtr, which checks only its pointers and count.
 */
export function imageMapping(
  core: TransformExports,
  result: TransformResult,
  image: ImageSize,
): (xPtr: number, yPtr: number, count: number) => number {
  checkImage(image);
  if (typeof result !== 'object' || result === null) {
    throw new Error(`mapToImage: result must be a TransformResult, got ${describe(result)}`);
  }
  const matrix = result.matrix;
  if (!Array.isArray(matrix) || matrix.length !== 9 || !matrix.every(Number.isFinite)) {
    throw new Error(`mapToImage: result.matrix must be 9 finite numbers, got ${describe(matrix)}`);
  }
  const flipY = result.yAxisFlip ? 1 : 0;
  const { width, height } = image;
  return (xPtr, yPtr, count) => {
    if (!Number.isSafeInteger(count) || count < 0) {
      throw new Error(`mapToImage: count must be a whole number ≥ 0, got ${describe(count)}`);
    }
    checkRun(core, 'xPtr', xPtr, count);
    checkRun(core, 'yPtr', yPtr, count);
    // The matrix slot is shared with the solver, so it is written for every run.
    const matrixPtr = core.transformMatrix() >>> 0;
    new Float64Array(core.memory.buffer, matrixPtr, 9).set(matrix);
    const clamped = core.transformMapClamp(xPtr, yPtr, count, matrixPtr, flipY, width, height);
    checkStatus(clamped, 'mapToImage');
    return clamped;
  };
}

function checkRun(core: TransformExports, name: string, ptr: number, count: number): void {
  if (!Number.isSafeInteger(ptr) || ptr < 0 || ptr + 8 * count > core.memory.buffer.byteLength) {
    throw new Error(
      `mapToImage: ${name} ${describe(ptr)} with ${count} points lies outside the core memory`,
    );
  }
}

function checkImage(image: ImageSize): void {
  if (typeof image !== 'object' || image === null) {
    throw new Error(`image must be an object with width and height, got ${describe(image)}`);
  }
  for (const field of ['width', 'height'] as const) {
    if (!isPositiveNumber(image[field])) {
      throw new Error(
        `image.${field} must be a positive finite number of pixels, got ${describe(image[field])}`,
      );
    }
  }
}

function checkPoints(points: readonly XY[], field: string): readonly XY[] {
  if (!Array.isArray(points)) {
    throw new Error(`${field} must be a list of [x, y] pairs, got ${describe(points)}`);
  }
  points.forEach((point, i) => {
    if (
      !Array.isArray(point) ||
      point.length !== 2 ||
      !Number.isFinite(point[0]) ||
      !Number.isFinite(point[1])
    ) {
      throw new Error(`${field}[${i}] must be two finite numbers [x, y], got ${describe(point)}`);
    }
  });
  return points;
}

function optionalBoolean(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') {
    throw new Error(`${field} must be true or false, got ${describe(value)}`);
  }
  return value;
}

/** A source image size the rule can use; anything else means "unknown" (ratio 1) to the core. */
function sourceSize(value: unknown): number {
  return isPositiveNumber(value) ? value : Number.NaN;
}

function isPositiveNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function checkStatus(code: number, operation: string): void {
  if (code < 0) {
    throw new Error(`${operation}: ${STATUS_MESSAGES[code] ?? `core status ${code}`}`);
  }
}

function reason(code: number): RejectReason {
  const found = REJECT_REASONS[code - 1];
  if (!found) throw new Error(`solveTransform: unknown reject reason code ${code}`);
  return found;
}

function describe(value: unknown): string {
  let text: string;
  if (Array.isArray(value)) text = `[${value.map(describe).join(', ')}]`;
  else if (typeof value === 'object' && value !== null) text = safeJson(value);
  else text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  // Long lists would drown the message; the start shows what kind of garbage it is.
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function safeJson(value: object): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
