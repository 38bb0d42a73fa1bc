// Plane transforms for the demo calibration: the generator fits the image-to-map direction to lay
// the path in map units; tests fit map-to-image from the saved points to check the alignment.
export type Point = readonly [x: number, y: number];
/** Row-major 3×3. */
export type Matrix3 = readonly number[];

/** Solves a·x = b by Gaussian elimination with partial pivoting. */
function solveLinear(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) {
      if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    }
    if (Math.abs(m[pivot]![col]!) < 1e-12) throw new Error('Transform: the points are degenerate');
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / m[col]![col]!;
      for (let c = col; c <= n; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

function checkPairs(src: readonly Point[], dst: readonly Point[], min: number): void {
  if (src.length !== dst.length) {
    throw new Error(`Transform: ${src.length} source points but ${dst.length} target points`);
  }
  if (src.length < min) throw new Error(`Transform: needs ${min} point pairs, got ${src.length}`);
}

/** Least-squares affine map src → dst (3 or more pairs, not collinear). */
export function fitAffine(src: readonly Point[], dst: readonly Point[]): Matrix3 {
  checkPairs(src, dst, 3);
  // Normal equations: the x and y rows share the same 3×3 system in (a, b, c).
  const ata = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const atx = [0, 0, 0];
  const aty = [0, 0, 0];
  src.forEach(([x, y], i) => {
    const row = [x, y, 1];
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) ata[r]![c]! += row[r]! * row[c]!;
      atx[r]! += row[r]! * dst[i]![0];
      aty[r]! += row[r]! * dst[i]![1];
    }
  });
  return [...solveLinear(ata, atx), ...solveLinear(ata, aty), 0, 0, 1];
}

/** The perspective map taking exactly 4 src points onto 4 dst points (h33 = 1). */
export function fitHomography(src: readonly Point[], dst: readonly Point[]): Matrix3 {
  checkPairs(src, dst, 4);
  if (src.length !== 4)
    throw new Error(`Transform: a homography takes exactly 4 pairs, got ${src.length}`);
  const a: number[][] = [];
  const b: number[] = [];
  src.forEach(([x, y], i) => {
    const [u, v] = dst[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  });
  return [...solveLinear(a, b), 1];
}

export function applyTransform(m: Matrix3, [x, y]: Point): Point {
  const w = m[6]! * x + m[7]! * y + m[8]!;
  if (Math.abs(w) < 1e-12) throw new Error(`Transform: point (${x}, ${y}) maps to infinity`);
  return [(m[0]! * x + m[1]! * y + m[2]!) / w, (m[3]! * x + m[4]! * y + m[5]!) / w];
}
