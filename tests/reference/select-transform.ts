// Reference for spec §5's choice of transform, written from the spec, issue 2 and the decisions
// in docs/transform.md, on top of the reference solvers (projective basis, least squares by QR,
// Cramer's rule). The order of checks follows docs/transform.md so rejection reasons compare.
import type {
  Calibration,
  ImageSize,
  RejectReason,
  TransformResult,
  XY,
} from '../../workers/path-types.ts';
import { affineFromThreePoints, triangleDeterminant } from './affine.ts';
import { homographyFromFourPoints, homographyLeastSquares, mapPoint } from './homography.ts';
import { DENOMINATOR_MIN } from './mapping.ts';

export const COLLINEAR_DET = 1e-10;
export const AFFINE_TOLERANCE = 0.05;
export const PERSPECTIVE_TOLERANCE = 0.1;
/** docs/transform.md: affine subset totals this close (relative) are a tie. */
const AFFINE_TIE = 1e-9;
const SCALE_RATIO_MIN = 0.001;
const SCALE_RATIO_MAX = 1000;
const DEFAULT_PIXELS_PER_METER = 50;
/** The quality check maps a 5×5 grid spanning the source points' bounding box. */
const QUALITY_GRID = 5;

type Attempt = { matrix: number[] } | { reason: RejectReason };

function isCollinearTriple(points: readonly XY[], i: number, j: number, k: number): boolean {
  const det = triangleDeterminant([points[i]!, points[j]!, points[k]!]);
  return !(Math.abs(det) >= COLLINEAR_DET);
}

function triples(n: number): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) for (let k = j + 1; k < n; k++) out.push([i, j, k]);
  }
  return out;
}

/** 4 points: collinear when any three are; more points: only when all lie on one line. */
function isDegenerate(points: readonly XY[]): boolean {
  const all = triples(points.length);
  return points.length === 4
    ? all.some(([i, j, k]) => isCollinearTriple(points, i, j, k))
    : all.every(([i, j, k]) => isCollinearTriple(points, i, j, k));
}

function boundingBox(points: readonly XY[]): {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
} {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return {
    minX: Math.min(...xs),
    minY: Math.min(...ys),
    maxX: Math.max(...xs),
    maxY: Math.max(...ys),
  };
}

function diagonal(points: readonly XY[]): number {
  const b = boundingBox(points);
  return Math.hypot(b.maxX - b.minX, b.maxY - b.minY);
}

/** The largest per-coordinate relative error |mapped − target| / max(|target|, 1); NaN → ∞. */
function worstRelativeError(
  matrix: readonly number[],
  src: readonly XY[],
  dst: readonly XY[],
): number {
  let worst = 0;
  src.forEach((p, i) => {
    const m = mapPoint(matrix, p[0], p[1]);
    const [u, v] = dst[i]!;
    const error = Math.max(
      Math.abs(m.x - u) / Math.max(Math.abs(u), 1),
      Math.abs(m.y - v) / Math.max(Math.abs(v), 1),
    );
    worst = Number.isNaN(error) ? Number.POSITIVE_INFINITY : Math.max(worst, error);
  });
  return worst;
}

function passesQualityCheck(
  matrix: readonly number[],
  src: readonly XY[],
  image: ImageSize,
): boolean {
  const b = boundingBox(src);
  const limit = 2 * Math.max(image.width, image.height);
  for (let i = 0; i < QUALITY_GRID; i++) {
    for (let j = 0; j < QUALITY_GRID; j++) {
      const tx = i / (QUALITY_GRID - 1);
      const ty = j / (QUALITY_GRID - 1);
      const m = mapPoint(matrix, b.minX * (1 - tx) + b.maxX * tx, b.minY * (1 - ty) + b.maxY * ty);
      const dx = m.x - image.width / 2;
      const dy = m.y - image.height / 2;
      if (!(Math.sqrt(dx * dx + dy * dy) <= limit)) return false;
    }
  }
  return true;
}

function perspective(src: readonly XY[], dst: readonly XY[], image: ImageSize): Attempt {
  if (isDegenerate(src) || isDegenerate(dst)) return { reason: 'collinear' };
  const ratio = diagonal(dst) / diagonal(src);
  if (!(ratio >= SCALE_RATIO_MIN && ratio <= SCALE_RATIO_MAX)) return { reason: 'scale-ratio' };
  const matrix =
    src.length === 4 ? homographyFromFourPoints(src, dst) : homographyLeastSquares(src, dst);
  if (!matrix?.every(Number.isFinite)) return { reason: 'singular' };
  if (src.some((p) => !(Math.abs(mapPoint(matrix, p[0], p[1]).w) > DENOMINATOR_MIN))) {
    return { reason: 'denominator' };
  }
  if (!(worstRelativeError(matrix, src, dst) <= PERSPECTIVE_TOLERANCE)) {
    return { reason: 'calibration-error' };
  }
  return passesQualityCheck(matrix, src, image) ? { matrix } : { reason: 'quality' };
}

function totalError(matrix: readonly number[], src: readonly XY[], dst: readonly XY[]): number {
  const total = src.reduce((sum, p, i) => {
    const m = mapPoint(matrix, p[0], p[1]);
    return sum + Math.hypot(m.x - dst[i]![0], m.y - dst[i]![1]);
  }, 0);
  return Number.isNaN(total) ? Number.POSITIVE_INFINITY : total;
}

/**
 * 3 points: that triangle; more: the best of the four triangles of the first four points, by
 * lowest total pixel error over all pairs. docs/transform.md: totals within 1e-9 (relative) of
 * the best so far tie, and a tie goes to the lower worst relative error, then to the earlier
 * subset; worst errors within the same 1e-9 count as equal, so subset order decides them.
 */
function affine(src: readonly XY[], dst: readonly XY[]): Attempt {
  const subsets =
    src.length === 3
      ? [[0, 1, 2]]
      : [
          [0, 1, 2],
          [0, 1, 3],
          [0, 2, 3],
          [1, 2, 3],
        ];
  let best: { matrix: number[]; total: number; worst: number } | null = null;
  for (const subset of subsets) {
    const [i, j, k] = subset as [number, number, number];
    if (isCollinearTriple(src, i, j, k) || isCollinearTriple(dst, i, j, k)) continue;
    const matrix = affineFromThreePoints([src[i]!, src[j]!, src[k]!], [dst[i]!, dst[j]!, dst[k]!]);
    if (!matrix) continue;
    const total = totalError(matrix, src, dst);
    const worst = worstRelativeError(matrix, src, dst);
    if (best === null) {
      best = { matrix, total, worst };
      continue;
    }
    // Totals, then worst errors, within the tie window count as equal: rounding never decides.
    const within = (a: number, b: number) => a <= b * (1 + AFFINE_TIE) && a >= b * (1 - AFFINE_TIE);
    const better = within(total, best.total)
      ? worst < best.worst && !within(worst, best.worst)
      : total < best.total;
    if (better) {
      best = { matrix, total, worst };
    }
  }
  if (best === null) return { reason: 'collinear' };
  return best.worst <= AFFINE_TOLERANCE ? { matrix: best.matrix } : { reason: 'calibration-error' };
}

/** Spec §5 and docs/transform.md: the transform from map units to image pixels, and why. */
export function selectTransformReference(
  calibration: Calibration | null,
  image: ImageSize,
): TransformResult {
  const slam = calibration?.slamPoints ?? [];
  const plan = calibration?.floorplanPoints ?? [];
  const pairs = Math.min(slam.length, plan.length);
  const src = slam.slice(0, pairs);
  const dst = plan.slice(0, pairs);
  const rejected: TransformResult['rejected'] = [];
  let chosen: { kind: TransformResult['kind']; matrix: number[] } | null = null;

  let attempt: Attempt;
  if (pairs < 4) attempt = { reason: 'too-few-points' };
  else if (calibration?.forceAffine) attempt = { reason: 'forced-affine' };
  else attempt = perspective(src, dst, image);
  if ('matrix' in attempt) chosen = { kind: 'perspective', matrix: attempt.matrix };
  else rejected.push({ kind: 'perspective', reason: attempt.reason });

  if (!chosen) {
    attempt = pairs < 3 ? { reason: 'too-few-points' } : affine(src, dst);
    if ('matrix' in attempt) chosen = { kind: 'affine', matrix: attempt.matrix };
    else rejected.push({ kind: 'affine', reason: attempt.reason });
  }

  if (!chosen) {
    const system = calibration?.coordinateSystem ?? {};
    if (system.useSimpleMapping ?? true) {
      const ppm = system.pixelsPerMeter ?? DEFAULT_PIXELS_PER_METER;
      const ratio = (size: number, source: number | undefined) =>
        source !== undefined && Number.isFinite(source) && source > 0 ? size / source : 1;
      const sx = ppm * ratio(image.width, system.sourceImageWidth);
      const sy = ppm * ratio(image.height, system.sourceImageHeight);
      chosen = { kind: 'simple', matrix: [sx, 0, 0, 0, sy, 0, 0, 0, 1] };
    } else {
      chosen = { kind: 'none', matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1] };
    }
  }

  const matrix = chosen.matrix;
  return {
    kind: chosen.kind,
    matrix,
    rejected,
    pointErrorsPx: src.map((p, i) => {
      const m = mapPoint(matrix, p[0], p[1]);
      return Math.hypot(m.x - dst[i]![0], m.y - dst[i]![1]);
    }),
    yAxisFlip: calibration?.yAxisFlip ?? false,
  };
}
