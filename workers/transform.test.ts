// Spec §5 transform rules at their boundaries, through the Node path engine (and, for the
// kernels' own argument checks, the raw core). Needs `npm run build:wasm` first.
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { createNodePathEngine } from './path-engine.node.ts';
import type { PathEngine } from './path-engine.ts';
import type { Calibration, ImageSize, TransformResult, XY } from './path-types.ts';
import {
  mapToImageInPlace,
  POINT_ERROR_WARN_PX,
  solveTransform,
  type TransformExports,
} from './transform-codec.ts';

let engine: PathEngine;
beforeAll(async () => {
  engine = await createNodePathEngine();
});

const IMAGE: ImageSize = { width: 1000, height: 1000 };

function solve(calibration: Calibration | null, image: ImageSize = IMAGE): TransformResult {
  return engine.solveTransform(calibration, image);
}

function pairs(slamPoints: XY[], floorplanPoints: XY[], extra: Partial<Calibration> = {}) {
  return { slamPoints, floorplanPoints, ...extra };
}

/** Maps one point through a row-major 3×3 the way the spec describes (no clamp). */
function apply(m: readonly number[], [x, y]: XY): XY {
  const at = (i: number) => m[i] as number;
  const w = at(6) * x + at(7) * y + at(8);
  return [(at(0) * x + at(1) * y + at(2)) / w, (at(3) * x + at(4) * y + at(5)) / w];
}

function mapPoints(result: TransformResult, points: XY[], image: ImageSize = IMAGE) {
  const mapped = engine.mapToImage(
    result,
    Float64Array.from(points, (p) => p[0]),
    Float64Array.from(points, (p) => p[1]),
    image,
  );
  return { points: Array.from(mapped.x, (x, i): XY => [x, mapped.y[i] as number]), mapped };
}

function expectClose(actual: readonly number[], expected: readonly number[], relative = 1e-9) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((value, i) => {
    const want = expected[i] as number;
    expect(Math.abs(value - want)).toBeLessThanOrEqual(relative * Math.max(Math.abs(want), 1));
  });
}

// A genuine perspective (h31, h32 ≠ 0) used to make exact calibrations.
const PERSPECTIVE = [2, 0.3, 100, 0.1, 1.5, 50, 0.001, 0.002, 1];
const SQUARE: XY[] = [
  [0, 0],
  [100, 0],
  [100, 100],
  [0, 100],
];
const through = (m: readonly number[], points: XY[]) => points.map((p) => apply(m, p));
const scaled = (points: XY[], k: number, dx = 0, dy = 0): XY[] =>
  points.map(([x, y]) => [k * x + dx, k * y + dy]);

describe('choice of transform by point count', () => {
  it('uses no point transform below 3 pairs: simple mapping at 50 px/m by default', () => {
    for (const n of [0, 1, 2]) {
      const result = solve(pairs(SQUARE.slice(0, n), scaled(SQUARE, 2).slice(0, n)));
      expect(result.kind).toBe('simple');
      expect(result.matrix).toEqual([50, 0, 0, 0, 50, 0, 0, 0, 1]);
      expect(result.rejected).toEqual([
        { kind: 'perspective', reason: 'too-few-points' },
        { kind: 'affine', reason: 'too-few-points' },
      ]);
      expect(result.pointErrorsPx).toHaveLength(n);
    }
  });

  it('treats a null calibration as no points', () => {
    expect(solve(null).kind).toBe('simple');
  });

  it('fits exactly 3 pairs with the affine transform', () => {
    const dst = through(PERSPECTIVE, SQUARE.slice(0, 3));
    const result = solve(pairs(SQUARE.slice(0, 3), dst));
    expect(result.kind).toBe('affine');
    expect(result.rejected).toEqual([{ kind: 'perspective', reason: 'too-few-points' }]);
    expect(result.matrix.slice(6)).toEqual([0, 0, 1]);
    expectClose(through(result.matrix, SQUARE.slice(0, 3)).flat(), dst.flat());
    for (const error of result.pointErrorsPx) expect(error).toBeLessThan(1e-9);
  });

  it('fits exactly 4 pairs with the perspective transform', () => {
    const result = solve(pairs(SQUARE, through(PERSPECTIVE, SQUARE)));
    expect(result.kind).toBe('perspective');
    expect(result.rejected).toEqual([]);
    expectClose(result.matrix, PERSPECTIVE);
    for (const error of result.pointErrorsPx) expect(error).toBeLessThan(1e-9);
  });

  it('fits exactly 5 pairs by least squares, exact for a consistent calibration', () => {
    const src: XY[] = [...SQUARE, [30, 70]];
    const result = solve(pairs(src, through(PERSPECTIVE, src)));
    expect(result.kind).toBe('perspective');
    expectClose(result.matrix, PERSPECTIVE);
    expect(result.pointErrorsPx).toHaveLength(5);
  });

  it('pairs points by index and ignores the unpaired rest (4 slam, 3 floor-plan → affine)', () => {
    const result = solve(pairs(SQUARE, scaled(SQUARE, 3).slice(0, 3)));
    expect(result.kind).toBe('affine');
    expect(result.pointErrorsPx).toHaveLength(3);
  });

  it('skips the perspective when forceAffine is on', () => {
    const result = solve(pairs(SQUARE, scaled(SQUARE, 2, 10, 20), { forceAffine: true }));
    expect(result.kind).toBe('affine');
    expect(result.rejected).toEqual([{ kind: 'perspective', reason: 'forced-affine' }]);
    expectClose(result.matrix, [2, 0, 10, 0, 2, 20, 0, 0, 1]);
    // The same points without the flag take the (here equally exact) perspective.
    expect(solve(pairs(SQUARE, scaled(SQUARE, 2, 10, 20))).kind).toBe('perspective');
  });
});

describe('collinearity (|det| < 1e-10)', () => {
  // Triangle (0,0), (1,0), (0,d): det = d.
  const triangle = (d: number): XY[] => [
    [0, 0],
    [1, 0],
    [0, d],
  ];
  const good: XY[] = [
    [100, 100],
    [200, 100],
    [100, 200],
  ];

  it('rejects a 3-point affine whose source det is just below 1e-10, keeps one just above', () => {
    const below = solve(pairs(triangle(0.99e-10), good));
    expect(below.kind).toBe('simple');
    expect(below.rejected.at(-1)).toEqual({ kind: 'affine', reason: 'collinear' });
    const above = solve(pairs(triangle(1.01e-10), good));
    expect(above.kind).toBe('affine');
  });

  it('applies the same threshold to the floor-plan triangle', () => {
    const src: XY[] = [
      [0, 0],
      [1, 0],
      [0, 1],
    ];
    expect(solve(pairs(src, triangle(0.99e-10))).rejected.at(-1)?.reason).toBe('collinear');
    expect(solve(pairs(src, triangle(1.01e-10))).kind).toBe('affine');
  });

  it('rejects a 4-point perspective with three points just inside the threshold', () => {
    // A, B, C = (0,0), (1,0), (2,d) have det d; the fourth point (0,1) is clear of them.
    const quad = (d: number): XY[] => [
      [0, 0],
      [1, 0],
      [2, d],
      [0, 1],
    ];
    const below = solve(pairs(quad(0.99e-10), scaled(quad(0.99e-10), 100, 300, 300)));
    expect(below.rejected[0]).toEqual({ kind: 'perspective', reason: 'collinear' });
    // The affine fallback skips the collinear subset {0,1,2} and fits exactly with another.
    expect(below.kind).toBe('affine');
    const above = solve(pairs(quad(1.01e-10), scaled(quad(1.01e-10), 100, 300, 300)));
    expect(above.kind).toBe('perspective');

    // The same threshold on the floor-plan side (the source is the same shape, 100× larger).
    const flatTarget = solve(pairs(scaled(quad(0.99e-10), 100), quad(0.99e-10)));
    expect(flatTarget.rejected[0]).toEqual({ kind: 'perspective', reason: 'collinear' });
    expect(solve(pairs(scaled(quad(1.01e-10), 100), quad(1.01e-10))).kind).toBe('perspective');
  });

  it('rejects more than 4 pairs only when they all lie on one line', () => {
    const line: XY[] = [0, 1, 2, 3, 4].map((i) => [i, 2 * i]);
    const result = solve(pairs(line, scaled(line, 10, 100, 100)));
    expect(result.rejected).toEqual([
      { kind: 'perspective', reason: 'collinear' },
      { kind: 'affine', reason: 'collinear' },
    ]);
    expect(result.kind).toBe('simple');
  });

  it('treats all-equal points as collinear, never as a transform', () => {
    const same = Array.from({ length: 4 }, (): XY => [5, 5]);
    const result = solve(pairs(same, same));
    expect(result.kind).toBe('simple');
    expect(result.rejected.map((r) => r.reason)).toEqual(['collinear', 'collinear']);
  });
});

describe('affine 5% tolerance with 4 or more pairs', () => {
  // p3 = −3·p0 + 2·p1 + 2·p2, so fitting the subset that leaves p0 out moves a residual R in p3
  // to p0 as R/3, the smallest of the four subsets (R/2 at p1 or p2, R at p3): subset {1,2,3}
  // wins, and p0's floor-plan x of 1000 makes its relative error Δ/3000.
  const src: XY[] = [
    [0, 0],
    [10, 0],
    [0, 10],
    [20, 20],
  ];
  const withShift = (delta: number) => {
    const dst = scaled(src, 10, 1000, 1000);
    dst[3] = [1200 + delta, 1200];
    return pairs(src, dst, { forceAffine: true });
  };

  it('accepts a relative error of 0.0499 and rejects 0.0501', () => {
    const inside = solve(withShift(3000 * 0.0499));
    expect(inside.kind).toBe('affine');
    expectClose(inside.pointErrorsPx, [149.7 / 3, 0, 0, 0], 1e-9);

    const outside = solve(withShift(3000 * 0.0501));
    expect(outside.kind).toBe('simple');
    expect(outside.rejected).toEqual([
      { kind: 'perspective', reason: 'forced-affine' },
      { kind: 'affine', reason: 'calibration-error' },
    ]);
  });

  it('breaks a tie of total errors by the lower worst relative error', () => {
    // A parallelogram (p0 − p1 − p2 + p3 = 0): each subset leaves the same 7 px error at the point
    // it leaves out. Left out, p3 (target x 107) is 6.5% off; p1 (target x 200) only 3.5%.
    const src: XY[] = [
      [10, 0],
      [10, 10],
      [0, 0],
      [0, 10],
    ];
    const dst = scaled(src, 10, 100, 100);
    dst[3] = [107, 200];
    const result = solve(pairs(src, dst, { forceAffine: true }));
    expect(result.kind).toBe('affine');
    expectClose(result.pointErrorsPx, [0, 7, 0, 0]);
  });

  it('checks every pair, not only the first four', () => {
    const calibration = withShift(0);
    const fifthSrc: XY = [40, 0];
    // A fifth pair 6% off in x (target 1400 → 1484) fails the check though the first four fit.
    const result = solve(
      pairs([...src, fifthSrc], [...calibration.floorplanPoints, [1484, 1000]], {
        forceAffine: true,
      }),
    );
    expect(result.rejected.at(-1)).toEqual({ kind: 'affine', reason: 'calibration-error' });
  });
});

describe('perspective checks', () => {
  it('accepts a relative error of 0.0999 and rejects 0.1001 (least squares, 6 pairs)', () => {
    // Corners of a square around the origin fit an exact scaling; its centre, which is the
    // centroid, appears twice with floor-plan x 1000 ± d. At the centroid the normalised
    // denominator is 1 whatever the fit, so least squares maps it to the midpoint 1000 and
    // the worst relative error is d / (1000 − d).
    const corners: XY[] = scaled(SQUARE, 1, -50, -50);
    const withSpread = (relative: number) => {
      const d = (1000 * relative) / (1 + relative);
      return pairs(
        [...corners, [0, 0], [0, 0]],
        [...scaled(corners, 10, 1000, 1000), [1000 + d, 1000], [1000 - d, 1000]],
      );
    };
    const image = { width: 3000, height: 3000 };
    const inside = solve(withSpread(0.0999), image);
    expect(inside.kind).toBe('perspective');
    expectClose(apply(inside.matrix, [0, 0]), [1000, 1000]);
    const outside = solve(withSpread(0.1001), image);
    expect(outside.rejected[0]).toEqual({ kind: 'perspective', reason: 'calibration-error' });
  });

  it('accepts a scale ratio just inside 0.001 and 1000, rejects one just outside', () => {
    const unit: XY[] = scaled(SQUARE, 0.01); // 1 × 1
    const big = { width: 1000, height: 1000 };
    expect(solve(pairs(unit, scaled(unit, 999.999)), big).kind).toBe('perspective');
    const over = solve(pairs(unit, scaled(unit, 1000.001)), big);
    expect(over.rejected[0]).toEqual({ kind: 'perspective', reason: 'scale-ratio' });

    const wide: XY[] = scaled(SQUARE, 10); // 1000 × 1000
    expect(solve(pairs(wide, scaled(wide, 0.001001)), big).kind).toBe('perspective');
    const under = solve(pairs(wide, scaled(wide, 0.000999)), big);
    expect(under.rejected[0]).toEqual({ kind: 'perspective', reason: 'scale-ratio' });
  });

  it('rejects a singular system (4 of 5 source points on a line)', () => {
    const src: XY[] = [
      [0, 0],
      [1, 0],
      [2, 0],
      [3, 0],
      [0, 1],
    ];
    const result = solve(pairs(src, scaled(src, 10, 100, 100)));
    expect(result.rejected[0]).toEqual({ kind: 'perspective', reason: 'singular' });
  });

  it('rejects a calibration point whose denominator is 1e-10 or less', () => {
    // Local map G: (ξ, η) → ((ξ + 200, η + 100) / w), w = −ξ/100, over ξ ∈ [−100, −60]; the
    // source sits at x = X0 + ξ. With h33 = 1 the denominator becomes −ξ / X0, smallest at
    // ξ = −60: 60 / X0, so X0 = 6e11 puts it at exactly 1e-10.
    const calibrationAt = (x0: number) => {
      const local: XY[] = [
        [-100, 0],
        [-60, 0],
        [-60, 40],
        [-100, 40],
      ];
      const dst = local.map(
        ([xi, eta]): XY => [(xi + 200) / (-xi / 100), (eta + 100) / (-xi / 100)],
      );
      return pairs(
        local.map(([xi, eta]): XY => [x0 + xi, eta]),
        dst,
      );
    };
    const image = { width: 400, height: 400 };
    const inside = solve(calibrationAt(6e11 * 0.999), image);
    expect(inside.kind).toBe('perspective');
    const outside = solve(calibrationAt(6e11 * 1.001), image);
    expect(outside.rejected[0]).toEqual({ kind: 'perspective', reason: 'denominator' });
  });

  it('rejects by the quality check a grid point just beyond 2·max(W, H) from the centre', () => {
    // Square 0..100 → 0..Q (an exact scaling); image 100 × 100, centre (50, 50), limit 200:
    // the corner (Q, Q) is √2·(Q − 50) from the centre.
    const edge = 50 + 200 / Math.SQRT2;
    const image = { width: 100, height: 100 };
    const at = (q: number) => solve(pairs(SQUARE, scaled(SQUARE, q / 100)), image);
    expect(at(edge - 1e-7).kind).toBe('perspective');
    const outside = at(edge + 1e-7);
    expect(outside.rejected[0]).toEqual({ kind: 'perspective', reason: 'quality' });
    // The affine fallback has no quality check and fits exactly.
    expect(outside.kind).toBe('affine');
  });

  it('rejects folded (bow-tie) calibrations', () => {
    // Mirror-symmetric: the source centroid maps to infinity, which h33 = 1 cannot express.
    const symmetric: XY[] = [
      [0, 0],
      [100, 0],
      [0, 100],
      [100, 100],
    ];
    expect(solve(pairs(SQUARE, symmetric)).rejected[0]).toEqual({
      kind: 'perspective',
      reason: 'singular',
    });
    // Skewed: the horizon crosses the sample grid, which then maps far outside the image.
    const skewed: XY[] = [...symmetric.slice(0, 3), [120, 90]];
    expect(solve(pairs(SQUARE, skewed)).rejected[0]).toEqual({
      kind: 'perspective',
      reason: 'quality',
    });
  });
});

describe('yAxisFlip', () => {
  it('solves with the slam points as given and negates path y before mapping', () => {
    const dst = through(PERSPECTIVE, SQUARE);
    const plain = solve(pairs(SQUARE, dst));
    const flipped = solve(pairs(SQUARE, dst, { yAxisFlip: true }));
    expect(flipped.yAxisFlip).toBe(true);
    expect(flipped.matrix).toEqual(plain.matrix);
    const { points } = mapPoints(flipped, [[30, -40]]);
    expectClose(points.flat(), apply(plain.matrix, [30, 40]));
  });
});

describe('simple and identity fallbacks', () => {
  const twoPoints = pairs([[0, 0]], [[0, 0]]);
  const image = { width: 800, height: 600 };

  it('scales by pixelsPerMeter and the image / source size ratio', () => {
    const result = solve(
      {
        ...twoPoints,
        coordinateSystem: { pixelsPerMeter: 20, sourceImageWidth: 400, sourceImageHeight: 200 },
      },
      image,
    );
    expect(result.kind).toBe('simple');
    expect(result.matrix).toEqual([40, 0, 0, 0, 60, 0, 0, 0, 1]);
    expectClose(mapPoints(result, [[2, 3]], image).points.flat(), [80, 180]);
  });

  it('takes ratio 1 when the source size is missing or unusable', () => {
    for (const sourceImageWidth of [undefined, 0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const result = solve(
        { ...twoPoints, coordinateSystem: { pixelsPerMeter: 20, sourceImageWidth } },
        image,
      );
      expect(result.matrix).toEqual([20, 0, 0, 0, 20, 0, 0, 0, 1]);
    }
  });

  it('uses the identity (map units as pixels) when useSimpleMapping is off', () => {
    const result = solve({ ...twoPoints, coordinateSystem: { useSimpleMapping: false } }, image);
    expect(result.kind).toBe('none');
    expect(result.matrix).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });
});

describe('mapping with the clamp', () => {
  // Image 100 × 50: D = 100, centre (50, 25), limit 200.
  const image = { width: 100, height: 50 };
  /** Maps the points through `matrix` (the identity by default) onto the 100 × 50 image. */
  // Points well inside the image, which every vector step can take.
  const plain: XY[] = [
    [10, 10],
    [20, 30],
    [90, 45],
    [1, 1],
  ];
  const mapOn = (points: XY[], matrix = [1, 0, 0, 0, 1, 0, 0, 0, 1]) => {
    const result: TransformResult = {
      kind: 'perspective',
      matrix,
      rejected: [],
      pointErrorsPx: [],
      yAxisFlip: false,
    };
    const { points: mapped, mapped: raw } = mapPoints(result, points, image);
    return { points: mapped, clamped: raw.clamped };
  };

  it('keeps a point exactly 2·D from the centre and clamps one just beyond', () => {
    const inside: XY[] = [
      [250, 25],
      [-150, 25],
      [50, 225],
    ];
    const beyond: XY[] = [
      [250.000001, 25],
      [-150.000001, 25],
      [50, 225.000001],
      [50, -175.000001],
    ];
    expect(mapOn([...inside, ...beyond])).toEqual({
      points: [...inside, [200, 25], [-100, 25], [50, 100], [50, -50]],
      clamped: 4,
    });
  });

  it('places non-finite results at the image centre and counts them', () => {
    const points: XY[] = [
      [Number.NaN, 0],
      [0, Number.POSITIVE_INFINITY],
      [10, 10],
    ];
    expect(mapOn(points)).toEqual({
      points: [
        [50, 25],
        [50, 25],
        [10, 10],
      ],
      clamped: 2,
    });
  });

  it('counts a perspective denominator |w| ≤ 1e-10 as clamped', () => {
    // w = x + 1: x = −1 gives w = 0 (non-finite → centre); x = −1 + 2⁻⁴⁰ a huge finite point.
    const points: XY[] = [
      [-1, 0],
      [-1 + 2 ** -40, 0],
      [0, 10],
    ];
    expect(mapOn(points, [1, 0, 0, 0, 1, 0, 1, 0, 1])).toEqual({
      points: [
        [50, 25],
        [-100, 0],
        [0, 10],
      ],
      clamped: 2,
    });
    // u = (x + 1) / (x + 1) = 1 everywhere, so x = −1 + 2⁻⁴⁰ lands inside the image at (1, 0),
    // and still counts: its w is 2⁻⁴⁰. Four points, so the vector path sees them together.
    const cancelling = mapOn(
      [
        [0, 10],
        [1, 1],
        [-1 + 2 ** -40, 0],
        [2, 2],
      ],
      [1, 0, 1, 0, 1, 0, 1, 0, 1],
    );
    expectClose(cancelling.points.flat(), [1, 10, 1, 0.5, 1, 0, 1, 2 / 3]);
    expect(cancelling.clamped).toBe(1);
  });

  it('counts |w| ≤ 1e-10 under a matrix so small that mapped points in the image can have it', () => {
    // Every w is 2⁻³⁷ ≈ 7e-12 while u / w = x and v / w = y stay inside the image: the vector path may
    // skip testing w only when the matrix rules this out (‖H⁻¹‖ small), which it does not here.
    const points: XY[] = [...plain, [5, 6], [7, 8], [30, 20], [40, 2]];
    const tiny = 2 ** -37;
    expect(mapOn(points, [tiny, 0, 0, 0, tiny, 0, 0, 0, tiny])).toEqual({ points, clamped: 8 });
    // Scaled up to 2⁻³⁰ ≈ 9e-10 the same points map the same way and none counts.
    const small = 2 ** -30;
    expect(mapOn(points, [small, 0, 0, 0, small, 0, 0, 0, small])).toEqual({ points, clamped: 0 });
    // So tiny that the inverse's norm, computed unscaled, underflows to 0 (fast-check found it):
    // every w is 1e-100, so every point counts.
    const tinier = 1e-100;
    expect(mapOn(points, [tinier, 0, 0, 0, tinier, 0, 0, 0, tinier]).clamped).toBe(8);
  });

  it('keeps points the vector path leaves to the per-point path: w < 0, < 0, or near the limit', () => {
    // Within 2·D = 200 of the centre but outside the vector path's box: [0, 176.95)², whose
    // corner (176.95, 176.95) lies 0.99 · 200 from the centre; or with a negative coordinate.
    const nearLimit: XY[] = [
      [50 + 160, 25],
      [50, 25 - 190],
      [50 - 120, 25 + 120],
      [50 + 199, 25],
      [-30, 10],
      [10, -20],
      [-1e-300, 5],
      [176.9, 176.9],
    ];
    const points = [...plain, ...nearLimit, ...plain];
    expect(mapOn(points)).toEqual({ points, clamped: 0 });
    // The negated identity maps every point to itself with w = −1 (u = (−x) · (1 / −1) = x).
    expect(mapOn(points, [-1, 0, 0, 0, -1, 0, 0, 0, -1])).toEqual({ points, clamped: 0 });
  });

  it('maps on an image so large that its clamp distance overflows', () => {
    const points: XY[] = [
      [10, 10],
      [20, 30],
      [-5, 7],
      [1e300, 2],
      [3, 4],
    ];
    const huge = { width: 1.5e308, height: 1 };
    const result: TransformResult = {
      kind: 'perspective',
      matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1],
      rejected: [],
      pointErrorsPx: [],
      yAxisFlip: false,
    };
    const { points: mapped, mapped: raw } = mapPoints(result, points, huge);
    expect({ points: mapped, clamped: raw.clamped }).toEqual({ points, clamped: 0 });
  });
});

describe('mapping many points', () => {
  it('maps each point as if alone (vector and per-point paths agree)', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    // Spread so that some points land beyond the clamp distance or near the horizon.
    const src: XY[] = Array.from({ length: 1003 }, () => [
      random() * 4000 - 2000,
      random() * 4000 - 2000,
    ]);
    src[500] = [Number.NaN, 1];
    const result = solve(pairs(SQUARE, through(PERSPECTIVE, SQUARE)));
    const together = mapPoints(result, src);
    expect(together.mapped.clamped).toBeGreaterThan(0);
    expect(together.mapped.clamped).toBeLessThan(src.length);
    let clamped = 0;
    src.forEach((point, i) => {
      const alone = mapPoints(result, [point]);
      clamped += alone.mapped.clamped;
      expect(together.points[i]).toEqual(alone.points[0]);
    });
    expect(together.mapped.clamped).toBe(clamped);
  });
});

describe('garbage in', () => {
  const square = pairs(SQUARE, SQUARE);

  it('names the bad field in a clear Error', () => {
    const cases: [Calibration, ImageSize, RegExp][] = [
      [pairs([[Number.NaN, 1]], [[0, 0]]), IMAGE, /calibration\.slamPoints\[0\].*NaN/],
      [pairs([[0, 0]], [[0, Number.POSITIVE_INFINITY]]), IMAGE, /floorplanPoints\[0\]/],
      [pairs([[0, 0, 0] as unknown as XY], [[0, 0]]), IMAGE, /slamPoints\[0\]/],
      [{ floorplanPoints: [] } as unknown as Calibration, IMAGE, /calibration\.slamPoints/],
      [square, { width: 0, height: 0 }, /image\.width/],
      [square, { width: 10, height: Number.NaN }, /image\.height/],
      [{ ...square, forceAffine: 'yes' as unknown as boolean }, IMAGE, /forceAffine/],
      [{ ...square, coordinateSystem: { pixelsPerMeter: 0 } }, IMAGE, /pixelsPerMeter/],
      [
        pairs([], [], { coordinateSystem: { pixelsPerMeter: 1e300, sourceImageWidth: 1e-300 } }),
        IMAGE,
        /usable scale/,
      ],
    ];
    for (const [calibration, image, message] of cases) {
      expect(() => solve(calibration, image)).toThrow(message);
    }
  });

  it('never traps on huge or degenerate values and keeps working afterwards', () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const values = [0, 1, -1, 1e-300, 1e300, -1e300, 1.7976931348623157e308, 5e-324];
    const pick = () =>
      random() < 0.5 ? (values[Math.floor(random() * values.length)] as number) : random() * 1e6;
    for (let round = 0; round < 300; round++) {
      const n = Math.floor(random() * 7);
      const point = (): XY => [pick(), pick()];
      const result = solve(
        pairs(Array.from({ length: n }, point), Array.from({ length: n }, point), {
          forceAffine: random() < 0.2,
        }),
      );
      expect(['perspective', 'affine', 'simple']).toContain(result.kind);
      expect(result.matrix.every(Number.isFinite)).toBe(true);
      const { mapped } = mapPoints(result, [point(), point()]);
      expect(mapped.x.every(Number.isFinite) && mapped.y.every(Number.isFinite)).toBe(true);
    }
    expect(solve(pairs(SQUARE, through(PERSPECTIVE, SQUARE))).kind).toBe('perspective');
  });

  it('warns in the UI above 10 px of calibration error', () => {
    expect(POINT_ERROR_WARN_PX).toBe(10);
  });
});

describe('codec over the raw core', () => {
  let core: TransformExports;
  beforeAll(async () => {
    const bytes = await readFile(new URL('../build/path-core.wasm', import.meta.url));
    const { instance } = await WebAssembly.instantiate(bytes, {});
    core = instance.exports as unknown as TransformExports;
  });

  it('refuses pointers outside memory and bad counts instead of trapping', () => {
    const result = solveTransform(core, pairs(SQUARE, SQUARE), IMAGE);
    const end = core.memory.buffer.byteLength;
    expect(() => mapToImageInPlace(core, result, end - 8, 0, 2, IMAGE)).toThrow(/xPtr/);
    expect(() => mapToImageInPlace(core, result, 0, -8, 1, IMAGE)).toThrow(/yPtr/);
    expect(() => mapToImageInPlace(core, result, 0, 0, 1.5, IMAGE)).toThrow(/count/);
    const bad = { ...result, matrix: [1, 0, 0, 0, 1, 0, 0, 0, Number.NaN] };
    expect(() => mapToImageInPlace(core, bad, 0, 0, 0, IMAGE)).toThrow(/result\.matrix/);
    // The kernels' own checks, for callers that skip the codec.
    expect(core.transformMapClamp(end - 8, 0, 2, core.transformMatrix(), 0, 10, 10)).toBe(-7);
    expect(core.transformSolve(end - 8, 1, 0, 10, 10, 0, 0, 50)).toBe(-7);
    expect(core.transformSolve(0, -1, 0, 10, 10, 0, 0, 50)).toBe(-1);
    expect(core.transformMapClamp(0, 0, 0, core.transformMatrix(), 0, 0, 10)).toBe(-3);
  });

  it('maps in place without allocating, so existing views stay valid', () => {
    const result = solveTransform(core, pairs(SQUARE, scaled(SQUARE, 2)), IMAGE);
    const ptr = core.alloc(32);
    const view = new Float64Array(core.memory.buffer, ptr, 4);
    view.set([1, 2, 3, 4]);
    expect(mapToImageInPlace(core, result, ptr, ptr + 16, 2, IMAGE)).toBe(0);
    expectClose(Array.from(view), [2, 4, 6, 8]);
    core.free(ptr);
  });
});
