// Small dense float64 linear algebra for the independent reference. Deliberately different
// methods from the engine's Gaussian elimination: adjugate inverses and Householder QR.

/** Row-major 3×3 matrix. */
export type Mat3 = readonly number[];

export function multiply3(a: Mat3, b: Mat3): number[] {
  const out = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      let sum = 0;
      for (let k = 0; k < 3; k++) sum += a[r * 3 + k]! * b[k * 3 + c]!;
      out[r * 3 + c] = sum;
    }
  }
  return out;
}

/** The nine entries as plain numbers (indexing is checked once here, not at every use). */
export function entries3(
  m: Mat3,
): [number, number, number, number, number, number, number, number, number] {
  if (m.length !== 9) throw new Error(`expected a 3×3 matrix (9 entries), got ${m.length}`);
  return [m[0]!, m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!, m[7]!, m[8]!];
}

export function determinant3(m: Mat3): number {
  const [a, b, c, d, e, f, g, h, i] = entries3(m);
  return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
}

/** Adjugate (transpose of the cofactor matrix): the inverse up to the factor 1/det. */
export function adjugate3(m: Mat3): number[] {
  const [a, b, c, d, e, f, g, h, i] = entries3(m);
  return [
    e * i - f * h,
    c * h - b * i,
    b * f - c * e,
    f * g - d * i,
    a * i - c * g,
    c * d - a * f,
    d * h - e * g,
    b * g - a * h,
    a * e - b * d,
  ];
}

/** Inverse by the adjugate; null when the determinant is zero or not finite. */
export function invert3(m: Mat3): number[] | null {
  const det = determinant3(m);
  if (det === 0 || !Number.isFinite(det)) return null;
  return adjugate3(m).map((v) => v / det);
}

/** Scales a homography so that its bottom-right entry is 1; null when that entry is 0. */
export function normaliseH33(m: Mat3): number[] | null {
  const h33 = m[8]!;
  if (h33 === 0 || !Number.isFinite(h33)) return null;
  return m.map((v) => v / h33);
}

/**
 * Least-squares solution of the overdetermined system A x = b (rows × cols, row-major, rows ≥ cols)
 * by Householder QR, which avoids squaring the condition number as the normal equations would.
 * rcond = min |R_kk| / max |R_kk|, a cheap estimate of the reciprocal condition number; x is null
 * when A is rank deficient (rcond ≤ 1e-13).
 */
export function leastSquaresQr(
  matrix: readonly number[],
  rhs: readonly number[],
  rows: number,
  cols: number,
): { x: number[] | null; rcond: number } {
  if (rows < cols) throw new Error(`leastSquaresQr: needs rows ≥ cols, got ${rows}×${cols}`);
  if (matrix.length !== rows * cols || rhs.length !== rows) {
    throw new Error('leastSquaresQr: matrix or right-hand side has the wrong length');
  }
  // Augmented [A | b]: each reflection applied to every column k…cols also transforms b.
  const width = cols + 1;
  const a: number[] = [];
  for (let r = 0; r < rows; r++) a.push(...matrix.slice(r * cols, (r + 1) * cols), rhs[r]!);
  const diagonal: number[] = [];
  for (let k = 0; k < cols; k++) {
    let norm = 0;
    for (let r = k; r < rows; r++) norm += a[r * width + k]! ** 2;
    norm = Math.sqrt(norm);
    diagonal.push(norm);
    if (norm === 0) return { x: null, rcond: 0 };
    // Reflect onto −sign(a_kk)·‖x‖ e_k so that v = x − alpha e_k never cancels.
    const alpha = a[k * width + k]! > 0 ? -norm : norm;
    const v: number[] = [];
    for (let r = k; r < rows; r++) v.push(a[r * width + k]!);
    v[0] = v[0]! - alpha;
    const vv = v.reduce((sum, e) => sum + e * e, 0);
    for (let c = k; c < width; c++) {
      let dot = 0;
      for (let r = k; r < rows; r++) dot += v[r - k]! * a[r * width + c]!;
      const f = (2 * dot) / vv;
      for (let r = k; r < rows; r++) a[r * width + c] = a[r * width + c]! - f * v[r - k]!;
    }
  }
  const rcond = Math.min(...diagonal) / Math.max(...diagonal);
  if (!(rcond > 1e-13)) return { x: null, rcond };
  const x = new Array<number>(cols).fill(0);
  for (let k = cols - 1; k >= 0; k--) {
    let sum = a[k * width + cols]!;
    for (let c = k + 1; c < cols; c++) sum -= a[k * width + c]! * x[c]!;
    x[k] = sum / a[k * width + k]!;
  }
  return { x, rcond };
}
