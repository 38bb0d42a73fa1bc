// Reference homographies (float64, plain TypeScript). The engine solves the 8×8 system by
// Gaussian elimination; the reference reaches the same matrices by other routes so that a shared
// mistake is unlikely: the projective basis for 4 points and Householder QR for more.
import type { XY } from '../../workers/path-types.ts';
import {
  adjugate3,
  invert3,
  leastSquaresQr,
  type Mat3,
  multiply3,
  normaliseH33,
} from './linear-algebra.ts';

/** Maps (x, y) through a row-major 3×3 matrix; w is the projective denominator. */
export function mapPoint(h: Mat3, x: number, y: number): { x: number; y: number; w: number } {
  const w = h[6]! * x + h[7]! * y + h[8]!;
  return { x: (h[0]! * x + h[1]! * y + h[2]!) / w, y: (h[3]! * x + h[4]! * y + h[5]!) / w, w };
}

/**
 * The matrix taking the projective basis e1, e2, e3, (1,1,1) to four points: the columns are the
 * first three points (homogeneous) each scaled by λ, where λ solves [p0 p1 p2] λ = p3.
 * Null when three of the points are collinear (some λ is zero or the columns are dependent).
 */
function basisToPoints(p: readonly XY[]): number[] | null {
  const [p0, p1, p2, p3] = p as [XY, XY, XY, XY];
  const columns = [p0[0], p1[0], p2[0], p0[1], p1[1], p2[1], 1, 1, 1];
  const adj = adjugate3(columns);
  // λ up to the common factor 1/det, which a homography does not care about.
  const lambda = [0, 1, 2].map(
    (r) => adj[r * 3]! * p3[0] + adj[r * 3 + 1]! * p3[1] + adj[r * 3 + 2]!,
  );
  if (lambda.some((l) => l === 0 || !Number.isFinite(l))) return null;
  return columns.map((v, i) => v * lambda[i % 3]!);
}

/** Exact homography through 4 point pairs; null when either quadruple is degenerate. */
export function homographyFromFourPoints(src: readonly XY[], dst: readonly XY[]): number[] | null {
  if (src.length !== 4 || dst.length !== 4) {
    throw new Error(
      `homographyFromFourPoints: needs exactly 4 point pairs, got ${src.length}/${dst.length}`,
    );
  }
  const a = basisToPoints(src);
  const b = basisToPoints(dst);
  if (!a || !b) return null;
  // adj(A) stands in for A⁻¹: the missing 1/det factor is removed by the h33 normalisation.
  const h = multiply3(b, adjugate3(a));
  return normaliseH33(h);
}

/**
 * Hartley's conditioning: move the centroid to the origin and scale so the mean distance from it
 * is √2. Returns the 3×3 similarity; null when all points coincide.
 */
export function hartleyNormalisation(points: readonly XY[]): number[] | null {
  const n = points.length;
  const cx = points.reduce((s, p) => s + p[0], 0) / n;
  const cy = points.reduce((s, p) => s + p[1], 0) / n;
  const meanDistance = points.reduce((s, p) => s + Math.hypot(p[0] - cx, p[1] - cy), 0) / n;
  if (!(meanDistance > 0)) return null;
  const s = Math.SQRT2 / meanDistance;
  return [s, 0, -s * cx, 0, s, -s * cy, 0, 0, 1];
}

/**
 * The least-squares homography in the original frame, before scaling to h33 = 1: the DLT
 * equations of the pairs in Hartley-conditioned coordinates with h33 = 1,
 * [x y 1 0 0 0 −ux −uy] h = u and [0 0 0 x y 1 −vx −vy] h = v, solved by Householder QR, then
 * T_dst⁻¹ · H · T_src. rcond is the QR's reciprocal condition estimate.
 */
function conditionedSolve(src: readonly XY[], dst: readonly XY[]) {
  if (src.length !== dst.length || src.length < 4) {
    throw new Error(`homography: needs ≥ 4 point pairs, got ${src.length}/${dst.length}`);
  }
  const ts = hartleyNormalisation(src);
  const td = hartleyNormalisation(dst);
  const tdInverse = td && invert3(td);
  if (!ts || !td || !tdInverse) return null;
  const rows: number[] = [];
  const rhs: number[] = [];
  src.forEach((p, i) => {
    const s = mapPoint(ts, p[0], p[1]);
    const d = mapPoint(td, dst[i]![0], dst[i]![1]);
    rows.push(s.x, s.y, 1, 0, 0, 0, -d.x * s.x, -d.x * s.y);
    rows.push(0, 0, 0, s.x, s.y, 1, -d.y * s.x, -d.y * s.y);
    rhs.push(d.x, d.y);
  });
  const { x, rcond } = leastSquaresQr(rows, rhs, rhs.length, 8);
  return { raw: x && multiply3(multiply3(tdInverse, [...x, 1]), ts), rcond };
}

/**
 * Normalised least-squares homography through n ≥ 4 point pairs: minimise the algebraic error
 * with h33 = 1 in the conditioned frame, then undo the conditioning and rescale to h33 = 1.
 */
export function homographyLeastSquares(src: readonly XY[], dst: readonly XY[]): number[] | null {
  const raw = conditionedSolve(src, dst)?.raw;
  return raw ? normaliseH33(raw) : null;
}

/**
 * How well the h33 = 1 homography is determined (0 … 1): the smaller of the conditioned system's
 * reciprocal condition estimate and |h33| relative to the largest entry before the final scaling.
 * Near 0 a solver's "singular" verdict (pivot threshold, h33 exactly 0) depends on its rounding.
 */
export function homographyConditioning(src: readonly XY[], dst: readonly XY[]): number {
  const solved = conditionedSolve(src, dst);
  if (!solved?.raw) return 0;
  const largest = Math.max(...solved.raw.map(Math.abs));
  return Math.min(solved.rcond, Math.abs(solved.raw[8]!) / largest);
}
