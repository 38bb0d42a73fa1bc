// Reference affine transform from exactly 3 point pairs by Cramer's rule (float64).
import type { XY } from '../../workers/path-types.ts';
import { determinant3 } from './linear-algebra.ts';

/** det [x_i y_i 1]: twice the signed area of the source triangle (the collinearity measure). */
export function triangleDeterminant(src: readonly XY[]): number {
  const [p0, p1, p2] = src as [XY, XY, XY];
  return determinant3([p0[0], p0[1], 1, p1[0], p1[1], 1, p2[0], p2[1], 1]);
}

/**
 * Row-major 3×3 affine (last row 0 0 1) with A·(x_i, y_i, 1) = (u_i, v_i, 1). Each of the six
 * unknowns is a ratio of determinants: Cramer's rule replaces one column of [x y 1] by u or v.
 * Null when the determinant is exactly 0 (the collinearity threshold is the caller's rule).
 */
export function affineFromThreePoints(src: readonly XY[], dst: readonly XY[]): number[] | null {
  if (src.length !== 3 || dst.length !== 3) {
    throw new Error(
      `affineFromThreePoints: needs exactly 3 point pairs, got ${src.length}/${dst.length}`,
    );
  }
  const det = triangleDeterminant(src);
  if (det === 0 || !Number.isFinite(det)) return null;
  const solveRow = (target: readonly number[]): number[] =>
    [0, 1, 2].map((column) => {
      const m = src.flatMap((p, i) => {
        const row = [p[0], p[1], 1];
        row[column] = target[i]!;
        return row;
      });
      return determinant3(m) / det;
    });
  return [...solveRow(dst.map((p) => p[0])), ...solveRow(dst.map((p) => p[1])), 0, 0, 1];
}
