// Floor-plan transform kernels (spec §5): choosing and solving the perspective, affine, simple or
// identity transform from calibration point pairs, and mapping path points with the clamp.
// Rules and decisions: docs/transform.md. JS side: workers/transform-codec.ts.
//
// Nothing here allocates: the solver works in static scratch memory, so a solve never grows
// memory and JS views stay valid. Input never traps: bad arguments come back as a negative status.

import { touchAhead } from './memory';

// Result codes. The codec decodes them by position, so keep the order in step with
// TRANSFORM_KINDS and REJECT_REASONS in workers/transform-codec.ts.
const KIND_PERSPECTIVE: i32 = 1;
const KIND_AFFINE: i32 = 2;
const KIND_SIMPLE: i32 = 3;
const KIND_NONE: i32 = 4;

const REASON_TOO_FEW_POINTS: i32 = 1;
const REASON_FORCED_AFFINE: i32 = 2;
const REASON_COLLINEAR: i32 = 3;
const REASON_SCALE_RATIO: i32 = 4;
const REASON_SINGULAR: i32 = 5;
const REASON_CALIBRATION_ERROR: i32 = 6;
const REASON_DENOMINATOR: i32 = 7;
const REASON_QUALITY: i32 = 8;

const STATUS_BAD_COUNT: i32 = -1;
const STATUS_NON_FINITE_POINT: i32 = -2;
const STATUS_BAD_IMAGE: i32 = -3;
const STATUS_BAD_PIXELS_PER_METER: i32 = -4;
const STATUS_BAD_SIMPLE_SCALE: i32 = -5;
const STATUS_BAD_MATRIX: i32 = -6;
const STATUS_OUT_OF_MEMORY_BOUNDS: i32 = -7;

const FLAG_FORCE_AFFINE: i32 = 1;
const FLAG_USE_SIMPLE_MAPPING: i32 = 2;

// Spec §5 / §9 constants.
const COLLINEAR_DET: f64 = 1e-10;
const PIVOT_MIN: f64 = 1e-12;
const DENOMINATOR_MIN: f64 = 1e-10;
const AFFINE_TOLERANCE: f64 = 0.05;
/** Relative difference under which two affine subsets' total errors count as a tie (rounding). */
const AFFINE_TIE: f64 = 1e-9;
const PERSPECTIVE_TOLERANCE: f64 = 0.1;
const SCALE_RATIO_MIN: f64 = 0.001;
const SCALE_RATIO_MAX: f64 = 1000;
const QUALITY_GRID: i32 = 5;

// The three-point subsets of the first four points an affine fit tries, in this order.
const AFFINE_SUBSETS = memory.data<u8>([0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3]);

/** Row-major 3×3: the solver's result, and the slot JS writes a matrix to before mapping. */
const MATRIX = memory.data(9 * 8, 16);
/** The affine fit being tried while the best one so far sits in MATRIX. */
const CANDIDATE = memory.data(9 * 8, 16);
/** The 8×9 augmented system of a homography (coefficients | right-hand side). */
const SYSTEM = memory.data(8 * 9 * 8, 16);
/** One pair's two equations of the homography fit: 8 coefficients and a right-hand side each. */
const EQUATIONS = memory.data(2 * 9 * 8, 16);

// Hartley normalisation of the source and destination point sets: centroid and scale.
let sourceCx: f64 = 0;
let sourceCy: f64 = 0;
let sourceScale: f64 = 0;
let targetCx: f64 = 0;
let targetCy: f64 = 0;
let targetScale: f64 = 0;

// Bounding box of the last point set measured by boxDiagonal (the source one when checked).
let boxMinX: f64 = 0;
let boxMinY: f64 = 0;
let boxMaxX: f64 = 0;
let boxMaxY: f64 = 0;

// Output of project(): the mapped point.
let projectedX: f64 = 0;
let projectedY: f64 = 0;

/** Static 9-f64 slot: a solve leaves its matrix here; JS writes one here before mapping. */
export function transformMatrix(): usize {
  return MATRIX;
}

/**
 * Solves the calibration in `points`: 2n f64 slam x,y pairs, then 2n f64 floor-plan x,y pairs,
 * then n f64 this fills with each pair's error in image pixels under the chosen transform; the
 * matrix goes to transformMatrix(). Returns kind | perspective reason << 4 | affine reason << 8
 * (0 = not rejected), or a negative status for bad arguments. Source sizes ≤ 0 or non-finite
 * mean "unknown" (ratio 1). Flags: 1 force affine, 2 use simple mapping.
 */
export function transformSolve(
  points: usize,
  pairs: i32,
  flags: i32,
  width: f64,
  height: f64,
  sourceWidth: f64,
  sourceHeight: f64,
  pixelsPerMeter: f64,
): i32 {
  if (pairs < 0) return STATUS_BAD_COUNT;
  if (!inMemory(points, <u64>pairs * 40)) return STATUS_OUT_OF_MEMORY_BOUNDS;
  if (!isPositive(width) || !isPositive(height)) return STATUS_BAD_IMAGE;
  if (!isPositive(pixelsPerMeter)) return STATUS_BAD_PIXELS_PER_METER;
  const source = points;
  const target = points + ((<usize>pairs) << 4);
  const errors = target + ((<usize>pairs) << 4);
  for (let i: usize = 0; i < (<usize>pairs) << 2; i++) {
    if (!isFinite(load<f64>(points + (i << 3)))) return STATUS_NON_FINITE_POINT;
  }

  let perspectiveReason = REASON_TOO_FEW_POINTS;
  if (pairs >= 4) {
    perspectiveReason =
      flags & FLAG_FORCE_AFFINE
        ? REASON_FORCED_AFFINE
        : solvePerspective(source, target, pairs, width, height);
  }
  let kind = KIND_PERSPECTIVE;
  let affineReason = 0;
  if (perspectiveReason != 0) {
    kind = KIND_AFFINE;
    affineReason = pairs >= 3 ? solveAffine(source, target, pairs) : REASON_TOO_FEW_POINTS;
  }
  if (affineReason != 0) {
    if (flags & FLAG_USE_SIMPLE_MAPPING) {
      kind = KIND_SIMPLE;
      const scaleX = pixelsPerMeter * (isPositive(sourceWidth) ? width / sourceWidth : 1);
      const scaleY = pixelsPerMeter * (isPositive(sourceHeight) ? height / sourceHeight : 1);
      // A huge or tiny pixelsPerMeter × ratio can overflow or underflow: no usable scale.
      if (!isPositive(scaleX) || !isPositive(scaleY)) return STATUS_BAD_SIMPLE_SCALE;
      writeScaling(MATRIX, scaleX, scaleY);
    } else {
      kind = KIND_NONE;
      writeScaling(MATRIX, 1, 1);
    }
  }
  for (let i = 0; i < pairs; i++) {
    project(MATRIX, pointX(source, i), pointY(source, i));
    const dx = projectedX - pointX(target, i);
    const dy = projectedY - pointY(target, i);
    store<f64>(errors + ((<usize>i) << 3), Math.sqrt(dx * dx + dy * dy));
  }
  return kind | (perspectiveReason << 4) | (affineReason << 8);
}

/**
 * Maps `count` points in place (f64 arrays at xs and ys, map units in, image pixels out) through
 * the row-major 3×3 at `matrix`, negating y first when flipY is set, and clamps them (spec §5).
 * Returns how many points were clamped, or a negative status for bad arguments.
 */
export function transformMapClamp(
  xs: usize,
  ys: usize,
  count: i32,
  matrix: usize,
  flipY: i32,
  width: f64,
  height: f64,
): i32 {
  if (count < 0) return STATUS_BAD_COUNT;
  const bytes = <u64>count << 3;
  if (!inMemory(xs, bytes) || !inMemory(ys, bytes) || !inMemory(matrix, 9 * 8)) {
    return STATUS_OUT_OF_MEMORY_BOUNDS;
  }
  if (!isPositive(width) || !isPositive(height)) return STATUS_BAD_IMAGE;
  for (let i: usize = 0; i < 9; i++) {
    if (!isFinite(load<f64>(matrix + (i << 3)))) return STATUS_BAD_MATRIX;
  }
  setUpMapping(matrix, flipY != 0, width, height);
  const end = (<usize>count) << 3;
  let offset: usize = 0;
  let clamped = 0;
  if (ASC_FEATURE_SIMD) {
    while (true) {
      offset = mapAffine
        ? mapRunAffine(xs, ys, offset, end)
        : mapDenominatorsImplied
          ? mapRunPerspective(xs, ys, offset, end)
          : mapRunPerspectiveTested(xs, ys, offset, end);
      if (offset + 32 > end) break;
      // A step the vector path left (a point to clamp, or one near the clamp distance): the
      // per-point path, which performs the same IEEE operations in the same order.
      for (let lane: usize = 0; lane < 32; lane += 8) {
        clamped += mapOne(xs + offset + lane, ys + offset + lane);
      }
      offset += 32;
    }
  }
  for (; offset < end; offset += 8) clamped += mapOne(xs + offset, ys + offset);
  return clamped;
}

// Vector mapping runs: loops without calls, so V8 keeps their values in registers.
function mapRunAffine(xs: usize, ys: usize, offset: usize, end: usize): usize {
  return mapRun(xs, ys, offset, end, false, false);
}

function mapRunPerspective(xs: usize, ys: usize, offset: usize, end: usize): usize {
  return mapRun(xs, ys, offset, end, true, false);
}

function mapRunPerspectiveTested(xs: usize, ys: usize, offset: usize, end: usize): usize {
  return mapRun(xs, ys, offset, end, true, true);
}

/**
 * Maps four points per step (two f64x2 pairs, so their divisions overlap) from `offset` until
 * the end or a step with a point that may need clamping, where it stops and returns that step's
 * offset. Two steps per loop turn: one loop check (and V8's stack check) per eight points, while
 * each step keeps only its own values live. The test is conservative and cheap: every mapped
 * coordinate in [0, box), a square within 0.99 × the clamp distance of the centre
 * (setUpMapping), and, with `testDenominators`, w > 1e-10. A point it refuses may still be fine
 * (a negative coordinate, or w < 0 beyond the horizon, included): the per-point path decides
 * exactly. Without `testDenominators` the box alone implies |w| > 1e-10 (boxImpliesDenominators),
 * which saves four of the step's forty-odd vector operations, about 10 % of its time.
 *
 * Both tests look at the high 32-bit word of each f64 with integer lane operations (fewer than the
 * float compares they replace, in the floating-point ports this loop is bound by): for doubles
 * with the sign bit clear that word orders like the value, while a negative number (sign bit
 * set, so ≥ 0x80000000 unsigned and < 0 signed), +∞ and NaN (≥ 0x7ff00000) all fail.
 */
// @ts-ignore: decorator
@inline
function mapRun(
  xs: usize,
  ys: usize,
  offset: usize,
  end: usize,
  perspective: bool,
  testDenominators: bool,
): usize {
  const m0 = f64x2.splat(mapM0);
  const m1 = f64x2.splat(mapM1);
  const m2 = f64x2.splat(mapM2);
  const m3 = f64x2.splat(mapM3);
  const m4 = f64x2.splat(mapM4);
  const m5 = f64x2.splat(mapM5);
  const m6 = f64x2.splat(mapM6);
  const m7 = f64x2.splat(mapM7);
  const m8 = f64x2.splat(mapM8);
  const one = v128.load64_splat(MAP_CONSTANTS);
  const boxWords = v128.load(MAP_WORDS);
  const denominatorWords = v128.load(MAP_WORDS, 16);
  // The constants stay locals of this loop, passed to each (inlined) step.
  for (; offset + 64 <= end; offset += 64) {
    touchAhead(xs, ys, offset, end);
    const second = offset + 32;
    const first = mapStep(xs + offset, ys + offset, perspective, testDenominators,
      m0, m1, m2, m3, m4, m5, m6, m7, m8, one, boxWords, denominatorWords);
    if (!first) return offset;
    const next = mapStep(xs + second, ys + second, perspective, testDenominators,
      m0, m1, m2, m3, m4, m5, m6, m7, m8, one, boxWords, denominatorWords);
    if (!next) return second;
  }
  if (offset + 32 > end) return offset;
  const last = mapStep(xs + offset, ys + offset, perspective, testDenominators,
    m0, m1, m2, m3, m4, m5, m6, m7, m8, one, boxWords, denominatorWords);
  return last ? offset + 32 : offset;
}

/** One step of mapRun: maps and stores the four points at x and y, or returns false untouched. */
// @ts-ignore: decorator
@inline
function mapStep(
  x: usize,
  y: usize,
  perspective: bool,
  testDenominators: bool,
  m0: v128,
  m1: v128,
  m2: v128,
  m3: v128,
  m4: v128,
  m5: v128,
  m6: v128,
  m7: v128,
  m8: v128,
  one: v128,
  boxWords: v128,
  denominatorWords: v128,
): bool {
  const xa = v128.load(x);
  const ya = v128.load(y);
  const xb = v128.load(x, 16);
  const yb = v128.load(y, 16);
  let ua = lanesRow(m0, m1, m2, xa, ya);
  let va = lanesRow(m3, m4, m5, xa, ya);
  let ub = lanesRow(m0, m1, m2, xb, yb);
  let vb = lanesRow(m3, m4, m5, xb, yb);
  let denominatorsFit = i64x2.splat(-1);
  if (perspective) {
    const wa = lanesRow(m6, m7, m8, xa, ya);
    const wb = lanesRow(m6, m7, m8, xb, yb);
    const ra = f64x2.div(one, wa);
    const rb = f64x2.div(one, wb);
    ua = f64x2.mul(ua, ra);
    va = f64x2.mul(va, ra);
    ub = f64x2.mul(ub, rb);
    vb = f64x2.mul(vb, rb);
    // A NaN w makes u NaN too, which the box test catches; +∞ gives u = v = 0 in both paths.
    if (testDenominators) denominatorsFit = i32x4.ge_s(i32x4.min_s(wa, wb), denominatorWords);
  }
  // The largest high word of the eight coordinates (low words compare against 0xffffffff).
  const inBox = i32x4.le_u(i32x4.max_u(i32x4.max_u(ua, ub), i32x4.max_u(va, vb)), boxWords);
  // Affine steps have no w to test, nor steps whose w the box implies.
  const fits = testDenominators ? v128.and(inBox, denominatorsFit) : inBox;
  if (i32x4.bitmask(fits) != 15) return false;
  v128.store(x, ua);
  v128.store(y, va);
  v128.store(x, ub, 16);
  v128.store(y, vb, 16);
  return true;
}

// The mapping of the current transformMapClamp call, shared by its vector and per-point paths.
let mapM0: f64 = 0;
let mapM1: f64 = 0;
let mapM2: f64 = 0;
let mapM3: f64 = 0;
let mapM4: f64 = 0;
let mapM5: f64 = 0;
let mapM6: f64 = 0;
let mapM7: f64 = 0;
let mapM8: f64 = 0;
let mapAffine = false;
// Whether a mapped point in the box implies |w| > 1e-10, so the vector path can skip testing w.
let mapDenominatorsImplied = false;
let mapWidth: f64 = 0;
let mapHeight: f64 = 0;
let mapCx: f64 = 0;
let mapCy: f64 = 0;
let mapLimitSquared: f64 = 0;
// Constants the vector path loads (V8 rebuilds a v128.const at every use): 1 for the division;
// then, as i32x4 lanes over the f64 lanes' (low, high) words, the largest high word of a
// coordinate in [0, box) and the smallest of a w > 1e-10 (low words always pass).
const MAP_CONSTANTS = memory.data<f64>([1]);
const MAP_WORDS = memory.data(32, 16);

function setUpMapping(matrix: usize, flipY: bool, width: f64, height: f64): void {
  // Negating the y column is exact, so folding the flip in equals negating every y.
  const flip: f64 = flipY ? -1 : 1;
  mapM0 = load<f64>(matrix);
  mapM1 = load<f64>(matrix, 8) * flip;
  mapM2 = load<f64>(matrix, 16);
  mapM3 = load<f64>(matrix, 24);
  mapM4 = load<f64>(matrix, 32) * flip;
  mapM5 = load<f64>(matrix, 40);
  mapM6 = load<f64>(matrix, 48);
  mapM7 = load<f64>(matrix, 56) * flip;
  mapM8 = load<f64>(matrix, 64);
  // Affine and simple transforms skip the division (w = 1 would not change a bit).
  mapAffine = mapM6 == 0 && mapM7 == 0 && mapM8 == 1;
  mapWidth = width;
  mapHeight = height;
  mapCx = width * 0.5;
  mapCy = height * 0.5;
  const limit = 2 * Math.max(width, height);
  mapLimitSquared = limit * limit;
  // The vector path's square [0, box)²: every point in it lies within 0.99 × the limit of the
  // centre. Its farthest corner from the centre is (box, box), since box > width and height:
  // box is the larger root of (box − cx)² + (box − cy)² = (0.99 · limit)².
  const reach = 0.99 * limit;
  const sum = mapCx + mapCy;
  const box = (sum + Math.sqrt(sum * sum - 2 * (mapCx * mapCx + mapCy * mapCy - reach * reach))) * 0.5;
  // Any non-negative double whose high word is at most highWord(box) − 1 is below box. An image
  // so large that box overflows leaves only words of 0 (tiny numbers, inside any such image).
  const boxWord = isFinite(box) ? <i32>(reinterpret<u64>(box) >> 32) - 1 : 0;
  // Any double whose high word is at least highWord(1e-10) + 1 (signed) is above 1e-10.
  const denominatorWord = <i32>(reinterpret<u64>(DENOMINATOR_MIN) >> 32) + 1;
  mapDenominatorsImplied = !mapAffine && boxImpliesDenominators(box);
  v128.store(MAP_WORDS, i64x2.splat(laneWords(-1, boxWord)));
  v128.store(MAP_WORDS, i64x2.splat(laneWords(i32.MIN_VALUE, denominatorWord)), 16);
}

/**
 * Whether, for the mapping set up now, every point the vector path maps into [0, box)² has
 * |w| > 1e-10, so it need not test w. Suppose such a point p = (x, y, 1) had |w| ≤ 1e-10: then
 * u and v are at most box · 1e-10 too, so ‖(u, v, w)‖ ≤ s = √(2 box² + 1) · 1e-10, and since
 * p = H⁻¹ (u, v, w), 1 ≤ ‖p‖ ≤ ‖H⁻¹‖ · s. So when ‖H⁻¹‖ · s is well below 1 no such point exists.
 * The rounding of u, v and w adds at most about 3ε · ‖H‖ · ‖p‖ to them, which the bound on the
 * condition number ‖H‖ · ‖H⁻¹‖ keeps below 1e-3 of ‖p‖; the factor 4 covers that and the
 * rounding of the inverse's norm. Frobenius norms bound the spectral ones.
 */
function boxImpliesDenominators(box: f64): bool {
  // The matrix scaled by its largest entry, so its minors neither underflow nor overflow (a matrix
  // of 1e-100 entries had an adjugate of 0 and passed); ‖H⁻¹‖ scales back by 1 / that entry.
  const scale = Math.max(
    Math.max(Math.max(Math.abs(mapM0), Math.abs(mapM1)), Math.max(Math.abs(mapM2), Math.abs(mapM3))),
    Math.max(
      Math.max(Math.abs(mapM4), Math.abs(mapM5)),
      Math.max(Math.max(Math.abs(mapM6), Math.abs(mapM7)), Math.abs(mapM8)),
    ),
  );
  // Written so that a zero, NaN or infinite scale fails.
  if (!(scale > 0 && isFinite(scale))) return false;
  const m0 = mapM0 / scale;
  const m1 = mapM1 / scale;
  const m2 = mapM2 / scale;
  const m3 = mapM3 / scale;
  const m4 = mapM4 / scale;
  const m5 = mapM5 / scale;
  const m6 = mapM6 / scale;
  const m7 = mapM7 / scale;
  const m8 = mapM8 / scale;
  // The adjugate's entries (the inverse times the determinant), row by row.
  const c0 = minor(m4, m5, m7, m8);
  const c1 = minor(m2, m1, m8, m7);
  const c2 = minor(m1, m2, m4, m5);
  const c3 = minor(m5, m3, m8, m6);
  const c4 = minor(m0, m2, m6, m8);
  const c5 = minor(m2, m0, m5, m3);
  const c6 = minor(m3, m4, m6, m7);
  const c7 = minor(m1, m0, m7, m6);
  const c8 = minor(m0, m1, m3, m4);
  const det = m0 * c0 + m1 * c3 + m2 * c6;
  const adjugateNorm = Math.sqrt(
    c0 * c0 + c1 * c1 + c2 * c2 + c3 * c3 + c4 * c4 + c5 * c5 + c6 * c6 + c7 * c7 + c8 * c8,
  );
  const norm = Math.sqrt(
    m0 * m0 + m1 * m1 + m2 * m2 + m3 * m3 + m4 * m4 + m5 * m5 + m6 * m6 + m7 * m7 + m8 * m8,
  );
  const scaledInverseNorm = adjugateNorm / Math.abs(det);
  const inverseNorm = scaledInverseNorm / scale;
  const reach = Math.sqrt(2 * box * box + 1) * DENOMINATOR_MIN;
  // Written so that NaN or infinite norms fail.
  return inverseNorm * reach <= 0.25 && norm * scaledInverseNorm <= 1e12;
}

/** a·d − b·c, a 2×2 minor of the mapping matrix. */
function minor(a: f64, b: f64, c: f64, d: f64): f64 {
  return a * d - b * c;
}

/** An f64 lane's two i32x4 words: `low` at the lower address, `high` at the higher one. */
function laneWords(low: i32, high: i32): i64 {
  return (<i64>high << 32) | <i64>(<u32>low);
}

/** a·x + b·y + c in both lanes (one row of the matrix applied to two points). */
@inline
function lanesRow(a: v128, b: v128, c: v128, x: v128, y: v128): v128 {
  return f64x2.add(f64x2.add(f64x2.mul(a, x), f64x2.mul(b, y)), c);
}

/** Maps and clamps the point at (xAt, yAt) in place; returns 1 when it was clamped. */
function mapOne(xAt: usize, yAt: usize): i32 {
  const x = load<f64>(xAt);
  const y = load<f64>(yAt);
  let u = mapM0 * x + mapM1 * y + mapM2;
  let v = mapM3 * x + mapM4 * y + mapM5;
  let inside = true;
  if (!mapAffine) {
    const w = mapM6 * x + mapM7 * y + mapM8;
    // One division for both coordinates, as in the vector path.
    const r = 1 / w;
    u *= r;
    v *= r;
    inside = Math.abs(w) > DENOMINATOR_MIN;
  }
  const dx = u - mapCx;
  const dy = v - mapCy;
  let clamped = 0;
  // Written so that a NaN distance fails the test and lands in the clamp branch.
  if (!(dx * dx + dy * dy <= mapLimitSquared && inside)) {
    clamped = 1;
    if (isFinite(u) && isFinite(v)) {
      u = Math.min(Math.max(u, -mapWidth), 2 * mapWidth);
      v = Math.min(Math.max(v, -mapHeight), 2 * mapHeight);
    } else {
      u = mapCx;
      v = mapCy;
    }
  }
  store<f64>(xAt, u);
  store<f64>(yAt, v);
  return clamped;
}

// ---- perspective ------------------------------------------------------------------------------

/** Tries the perspective transform (pairs ≥ 4) into MATRIX; returns 0 or the reject reason. */
function solvePerspective(
  source: usize,
  target: usize,
  pairs: i32,
  width: f64,
  height: f64,
): i32 {
  if (pairs == 4) {
    if (anyTripleCollinear(source) || anyTripleCollinear(target)) return REASON_COLLINEAR;
  } else if (allCollinear(source, pairs) || allCollinear(target, pairs)) {
    return REASON_COLLINEAR;
  }
  const targetDiagonal = boxDiagonal(target, pairs);
  // Measured last so the box globals hold the source box for the quality check.
  const ratio = targetDiagonal / boxDiagonal(source, pairs);
  if (!(ratio >= SCALE_RATIO_MIN && ratio <= SCALE_RATIO_MAX)) return REASON_SCALE_RATIO;

  if (!normalise(source, pairs, true) || !normalise(target, pairs, false)) return REASON_SINGULAR;
  if (pairs == 4) {
    // Exactly determined: pair i's equations are rows 2i and 2i + 1 of the system.
    for (let i = 0; i < 4; i++) {
      normalisedEquations(source, target, i);
      memory.copy(SYSTEM + <usize>(i * 2 * 9 * 8), EQUATIONS, 2 * 9 * 8);
    }
  } else {
    buildNormalEquations(source, target, pairs);
  }
  if (!eliminate() || !denormalise()) return REASON_SINGULAR;

  for (let i = 0; i < pairs; i++) {
    const w = project(MATRIX, pointX(source, i), pointY(source, i));
    if (!(Math.abs(w) > DENOMINATOR_MIN)) return REASON_DENOMINATOR;
  }
  if (!(worstRelativeError(MATRIX, source, target, pairs) <= PERSPECTIVE_TOLERANCE)) {
    return REASON_CALIBRATION_ERROR;
  }
  return passesQualityCheck(width, height) ? 0 : REASON_QUALITY;
}

/** Whether any three of the four points are collinear (|det| < 1e-10). */
function anyTripleCollinear(points: usize): bool {
  for (let skip = 0; skip < 4; skip++) {
    const i = skip == 0 ? 1 : 0;
    const j = skip <= 1 ? 2 : 1;
    const k = skip <= 2 ? 3 : 2;
    if (isCollinear(triangleDeterminant(points, i, j, k))) return true;
  }
  return false;
}

/**
 * Whether all points lie on one line: every det(p0, pFar, pk) is below 1e-10, where pFar is the
 * point farthest from p0 (a thin strip through p0 and pFar holds every point).
 */
function allCollinear(points: usize, count: i32): bool {
  let far = 0;
  let farthest: f64 = 0;
  for (let i = 1; i < count; i++) {
    const dx = pointX(points, i) - pointX(points, 0);
    const dy = pointY(points, i) - pointY(points, 0);
    const distance = dx * dx + dy * dy;
    if (distance > farthest) {
      farthest = distance;
      far = i;
    }
  }
  for (let k = 1; k < count; k++) {
    if (!isCollinear(triangleDeterminant(points, 0, far, k))) return false;
  }
  return true;
}

/** Diagonal of the points' bounding box; leaves the box in the box globals. */
function boxDiagonal(points: usize, count: i32): f64 {
  boxMinX = Infinity;
  boxMinY = Infinity;
  boxMaxX = -Infinity;
  boxMaxY = -Infinity;
  for (let i = 0; i < count; i++) {
    const x = pointX(points, i);
    const y = pointY(points, i);
    boxMinX = Math.min(boxMinX, x);
    boxMaxX = Math.max(boxMaxX, x);
    boxMinY = Math.min(boxMinY, y);
    boxMaxY = Math.max(boxMaxY, y);
  }
  const dx = boxMaxX - boxMinX;
  const dy = boxMaxY - boxMinY;
  return Math.sqrt(dx * dx + dy * dy);
}

/**
 * Hartley normalisation: centroid to the origin, mean distance √2. Fails when the points all
 * coincide or the sums overflow.
 */
function normalise(points: usize, count: i32, isSource: bool): bool {
  let sumX: f64 = 0;
  let sumY: f64 = 0;
  for (let i = 0; i < count; i++) {
    sumX += pointX(points, i);
    sumY += pointY(points, i);
  }
  const cx = sumX / count;
  const cy = sumY / count;
  let sumDistance: f64 = 0;
  for (let i = 0; i < count; i++) {
    const dx = pointX(points, i) - cx;
    const dy = pointY(points, i) - cy;
    sumDistance += Math.sqrt(dx * dx + dy * dy);
  }
  const scale = Math.SQRT2 / (sumDistance / count);
  if (!isPositive(scale) || !isFinite(cx) || !isFinite(cy)) return false;
  if (isSource) {
    sourceCx = cx;
    sourceCy = cy;
    sourceScale = scale;
  } else {
    targetCx = cx;
    targetCy = cy;
    targetScale = scale;
  }
  return true;
}

/**
 * Writes pair i's two DLT equations (h33 = 1) in the normalised frame to EQUATIONS:
 * [x y 1 0 0 0 −ux −uy | u] and [0 0 0 x y 1 −vx −vy | v].
 */
function normalisedEquations(source: usize, target: usize, i: i32): void {
  const x = (pointX(source, i) - sourceCx) * sourceScale;
  const y = (pointY(source, i) - sourceCy) * sourceScale;
  const u = (pointX(target, i) - targetCx) * targetScale;
  const v = (pointY(target, i) - targetCy) * targetScale;
  writeRow(EQUATIONS, x, y, 1, 0, 0, 0, -u * x, -u * y, u);
  writeRow(EQUATIONS + 9 * 8, 0, 0, 0, x, y, 1, -v * x, -v * y, v);
}

/** The least-squares normal equations (AᵀA | Aᵀb) of all pairs' DLT equations, into SYSTEM. */
function buildNormalEquations(source: usize, target: usize, pairs: i32): void {
  memory.fill(SYSTEM, 0, 8 * 9 * 8);
  for (let i = 0; i < pairs; i++) {
    normalisedEquations(source, target, i);
    accumulate(EQUATIONS);
    accumulate(EQUATIONS + 9 * 8);
  }
}

/** Adds one equation's outer product to SYSTEM: a·[a | b] (coefficients a, right-hand side b). */
function accumulate(equation: usize): void {
  for (let r: usize = 0; r < 8; r++) {
    const a = load<f64>(equation + (r << 3));
    if (a == 0) continue;
    const row = SYSTEM + r * 9 * 8;
    for (let c: usize = 0; c < 9; c++) {
      const at = row + (c << 3);
      store<f64>(at, load<f64>(at) + a * load<f64>(equation + (c << 3)));
    }
  }
}

/**
 * Solves SYSTEM by Gaussian elimination with partial pivoting, leaving the solution in its last
 * column. Fails (singular) when a pivot's magnitude is below 1e-12 or not a number.
 */
function eliminate(): bool {
  for (let k: usize = 0; k < 8; k++) {
    let pivotRow = k;
    let pivotSize = Math.abs(systemAt(k, k));
    for (let r = k + 1; r < 8; r++) {
      const size = Math.abs(systemAt(r, k));
      if (size > pivotSize) {
        pivotSize = size;
        pivotRow = r;
      }
    }
    if (!(pivotSize >= PIVOT_MIN)) return false;
    if (pivotRow != k) {
      for (let c: usize = k; c < 9; c++) {
        const swap = systemAt(k, c);
        setSystem(k, c, systemAt(pivotRow, c));
        setSystem(pivotRow, c, swap);
      }
    }
    const pivot = systemAt(k, k);
    for (let r = k + 1; r < 8; r++) {
      const factor = systemAt(r, k) / pivot;
      if (factor == 0) continue;
      for (let c = k; c < 9; c++) setSystem(r, c, systemAt(r, c) - factor * systemAt(k, c));
    }
  }
  for (let k = 7; k >= 0; k--) {
    let sum = systemAt(<usize>k, 8);
    for (let c = k + 1; c < 8; c++) sum -= systemAt(<usize>k, <usize>c) * systemAt(<usize>c, 8);
    setSystem(<usize>k, 8, sum / systemAt(<usize>k, <usize>k));
  }
  return true;
}

/**
 * MATRIX = T_target⁻¹ · H_normalised · T_source, scaled so h33 = 1. Fails (singular) when h33
 * is 0 or the result is not finite.
 */
function denormalise(): bool {
  const s = sourceScale;
  for (let r: usize = 0; r < 3; r++) {
    // Row r of H_normalised · T_source; the normalised h33 is 1.
    const h0 = r < 2 ? systemAt(r * 3, 8) : systemAt(6, 8);
    const h1 = r < 2 ? systemAt(r * 3 + 1, 8) : systemAt(7, 8);
    const h2 = r < 2 ? systemAt(r * 3 + 2, 8) : 1;
    store<f64>(MATRIX + r * 24, h0 * s);
    store<f64>(MATRIX + r * 24, h1 * s, 8);
    store<f64>(MATRIX + r * 24, h2 - s * (h0 * sourceCx + h1 * sourceCy), 16);
  }
  const inverseScale = 1 / targetScale;
  for (let c: usize = 0; c < 3; c++) {
    const bottom = load<f64>(MATRIX + c * 8, 48);
    const top = MATRIX + c * 8;
    store<f64>(top, load<f64>(top) * inverseScale + targetCx * bottom);
    store<f64>(top, load<f64>(top, 24) * inverseScale + targetCy * bottom, 24);
  }
  const h33 = load<f64>(MATRIX, 64);
  if (h33 == 0) return false;
  for (let i: usize = 0; i < 9; i++) {
    const at = MATRIX + (i << 3);
    const value = load<f64>(at) / h33;
    if (!isFinite(value)) return false;
    store<f64>(at, value);
  }
  return true;
}

/**
 * Maps the 5×5 grid over the source bounding box (which holds its corners and centre): every
 * result must be finite and within twice the larger image dimension of the image centre.
 */
function passesQualityCheck(width: f64, height: f64): bool {
  const cx = width * 0.5;
  const cy = height * 0.5;
  const limit = 2 * Math.max(width, height);
  for (let i = 0; i < QUALITY_GRID; i++) {
    const tx = <f64>i / <f64>(QUALITY_GRID - 1);
    // Interpolated so the ends are exactly the box edges and the middle its centre.
    const x = boxMinX * (1 - tx) + boxMaxX * tx;
    for (let j = 0; j < QUALITY_GRID; j++) {
      const ty = <f64>j / <f64>(QUALITY_GRID - 1);
      project(MATRIX, x, boxMinY * (1 - ty) + boxMaxY * ty);
      const dx = projectedX - cx;
      const dy = projectedY - cy;
      if (!(Math.sqrt(dx * dx + dy * dy) <= limit)) return false;
    }
  }
  return true;
}

// ---- affine -----------------------------------------------------------------------------------

/**
 * Tries the affine transform (pairs ≥ 3) into MATRIX; returns 0 or the reject reason. With 4 or
 * more pairs the best of the four three-point subsets of the first four points is taken (lowest
 * summed pixel error over all pairs), and the 5% check then covers every pair. Totals equal to
 * within rounding (1e-9 relative; symmetric layouts tie exactly) go to the subset with the lower
 * worst relative error, so a coin flip of rounding never decides between pass and reject.
 */
function solveAffine(source: usize, target: usize, pairs: i32): i32 {
  let chosen = false;
  let best: f64 = Infinity;
  let bestWorst: f64 = Infinity;
  const subsets = pairs == 3 ? 1 : 4;
  for (let s = 0; s < subsets; s++) {
    const subset = AFFINE_SUBSETS + <usize>(s * 3);
    const i = <i32>load<u8>(subset);
    const j = <i32>load<u8>(subset, 1);
    const k = <i32>load<u8>(subset, 2);
    if (!affineThroughThree(source, target, i, j, k)) continue;
    let total: f64 = 0;
    for (let p = 0; p < pairs; p++) {
      project(CANDIDATE, pointX(source, p), pointY(source, p));
      const dx = projectedX - pointX(target, p);
      const dy = projectedY - pointY(target, p);
      total += Math.sqrt(dx * dx + dy * dy);
    }
    // An overflowed (NaN) total ranks last rather than never comparing.
    if (isNaN(total)) total = Infinity;
    const worst = worstRelativeError(CANDIDATE, source, target, pairs);
    const tied = total <= best * (1 + AFFINE_TIE) && total >= best * (1 - AFFINE_TIE);
    if (!chosen || (tied ? worst < bestWorst * (1 - AFFINE_TIE) : total < best)) {
      chosen = true;
      best = total;
      bestWorst = worst;
      memory.copy(MATRIX, CANDIDATE, 9 * 8);
    }
  }
  if (!chosen) return REASON_COLLINEAR;
  return bestWorst <= AFFINE_TOLERANCE ? 0 : REASON_CALIBRATION_ERROR;
}

/**
 * The affine map through pairs i, j, k into CANDIDATE; false when the source or the target
 * triangle is nearly collinear (|det| < 1e-10).
 */
function affineThroughThree(source: usize, target: usize, i: i32, j: i32, k: i32): bool {
  const det = triangleDeterminant(source, i, j, k);
  if (isCollinear(det) || isCollinear(triangleDeterminant(target, i, j, k))) return false;
  // Edge vectors from point i keep the arithmetic relative to the triangle, not the origin.
  const ax = pointX(source, j) - pointX(source, i);
  const ay = pointY(source, j) - pointY(source, i);
  const bx = pointX(source, k) - pointX(source, i);
  const by = pointY(source, k) - pointY(source, i);
  const du1 = pointX(target, j) - pointX(target, i);
  const du2 = pointX(target, k) - pointX(target, i);
  const dv1 = pointY(target, j) - pointY(target, i);
  const dv2 = pointY(target, k) - pointY(target, i);
  const a = (du1 * by - du2 * ay) / det;
  const b = (du2 * ax - du1 * bx) / det;
  const d = (dv1 * by - dv2 * ay) / det;
  const e = (dv2 * ax - dv1 * bx) / det;
  const x = pointX(source, i);
  const y = pointY(source, i);
  const c = pointX(target, i) - a * x - b * y;
  const f = pointY(target, i) - d * x - e * y;
  writeRow(CANDIDATE, a, b, c, d, e, f, 0, 0, 1);
  return true;
}

// ---- shared -----------------------------------------------------------------------------------

/**
 * The largest relative error of any pair, per coordinate: |mapped − target| / max(|target|, 1).
 * Infinity when a mapped point is not a number, so the tolerance checks reject it.
 */
function worstRelativeError(matrix: usize, source: usize, target: usize, pairs: i32): f64 {
  let worst: f64 = 0;
  for (let i = 0; i < pairs; i++) {
    project(matrix, pointX(source, i), pointY(source, i));
    const u = pointX(target, i);
    const v = pointY(target, i);
    const errorX = Math.abs(projectedX - u) / Math.max(Math.abs(u), 1);
    const errorY = Math.abs(projectedY - v) / Math.max(Math.abs(v), 1);
    if (isNaN(errorX) || isNaN(errorY)) return Infinity;
    worst = Math.max(worst, Math.max(errorX, errorY));
  }
  return worst;
}

/** Maps (x, y) through the row-major 3×3 at m into projectedX/Y; returns the denominator w. */
function project(m: usize, x: f64, y: f64): f64 {
  const w = load<f64>(m, 48) * x + load<f64>(m, 56) * y + load<f64>(m, 64);
  projectedX = (load<f64>(m) * x + load<f64>(m, 8) * y + load<f64>(m, 16)) / w;
  projectedY = (load<f64>(m, 24) * x + load<f64>(m, 32) * y + load<f64>(m, 40)) / w;
  return w;
}

/** Twice the signed area of triangle (i, j, k): the collinearity measure of spec §5. */
function triangleDeterminant(points: usize, i: i32, j: i32, k: i32): f64 {
  const x = pointX(points, i);
  const y = pointY(points, i);
  return (
    (pointX(points, j) - x) * (pointY(points, k) - y) -
    (pointX(points, k) - x) * (pointY(points, j) - y)
  );
}

/** |det| below 1e-10, or not a number (overflowed input), counts as collinear. */
@inline
function isCollinear(det: f64): bool {
  return !(Math.abs(det) >= COLLINEAR_DET);
}

/** Whether [at, at + bytes) lies inside linear memory, so loads and stores there cannot trap. */
function inMemory(at: usize, bytes: u64): bool {
  return <u64>at + bytes <= (<u64>memory.size()) << 16;
}

@inline
function isPositive(value: f64): bool {
  return isFinite(value) && value > 0;
}

@inline
function pointX(points: usize, i: i32): f64 {
  return load<f64>(points + ((<usize>i) << 4));
}

@inline
function pointY(points: usize, i: i32): f64 {
  return load<f64>(points + ((<usize>i) << 4), 8);
}

@inline
function systemAt(row: usize, column: usize): f64 {
  return load<f64>(SYSTEM + ((row * 9 + column) << 3));
}

@inline
function setSystem(row: usize, column: usize, value: f64): void {
  store<f64>(SYSTEM + ((row * 9 + column) << 3), value);
}

function writeScaling(m: usize, scaleX: f64, scaleY: f64): void {
  writeRow(m, scaleX, 0, 0, 0, scaleY, 0, 0, 0, 1);
}

/** Stores nine f64 values from `at` on. */
function writeRow(
  at: usize,
  a: f64,
  b: f64,
  c: f64,
  d: f64,
  e: f64,
  f: f64,
  g: f64,
  h: f64,
  i: f64,
): void {
  store<f64>(at, a);
  store<f64>(at, b, 8);
  store<f64>(at, c, 16);
  store<f64>(at, d, 24);
  store<f64>(at, e, 32);
  store<f64>(at, f, 40);
  store<f64>(at, g, 48);
  store<f64>(at, h, 56);
  store<f64>(at, i, 64);
}
