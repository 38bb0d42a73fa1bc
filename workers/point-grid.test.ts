// Hit testing the thinned path: the grid answers what a scan of every point would.
import { describe, expect, test } from 'vitest';
import { createPrng } from '../bench/lib/prng.ts';
import { PointGrid } from './point-grid.ts';

function bruteNearest(
  x: Float32Array,
  y: Float32Array,
  px: number,
  py: number,
  radius: number,
  limit: number,
) {
  let best = -1;
  let bestDistance = radius * radius;
  for (let i = 0; i < Math.min(limit, x.length); i++) {
    const d = (x[i]! - px) ** 2 + (y[i]! - py) ** 2;
    if (d < bestDistance || (d === bestDistance && best < 0)) {
      best = i;
      bestDistance = d;
    }
  }
  return best;
}

describe('point grid', () => {
  const x = Float32Array.from([10, 20, 20, 100]);
  const y = Float32Array.from([10, 10, 10, 100]);
  const grid = new PointGrid(x, y, 14);

  test('the nearest point within the radius, among the first `limit`', () => {
    expect(grid.nearest(12, 10, 7, 4)).toBe(0);
    expect(grid.nearest(17, 10, 7, 4)).toBe(1); // 1 and 2 coincide: the earlier
    expect(grid.nearest(17, 10, 7, 1)).toBe(0); // only point 0 is drawn, exactly 7 px away
    expect(grid.nearest(17, 10, 6.9, 1)).toBe(-1);
    expect(grid.nearest(17, 10, 2, 4)).toBe(-1);
    expect(grid.nearest(100, 107, 7, 4)).toBe(3); // exactly on the radius counts
    expect(grid.nearest(100, 107, 7, 3)).toBe(-1);
  });

  test('agrees with a scan of every point, with far-flung and non-finite points', () => {
    const random = createPrng(3);
    const n = 5000;
    const xs = new Float32Array(n);
    const ys = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      xs[i] = random() * 700;
      ys[i] = random() * 500;
    }
    xs[17] = 1e7; // stretches the grid: cells grow instead of the grid
    ys[18] = Number.NaN;
    const big = new PointGrid(xs, ys, 14);
    for (let q = 0; q < 2000; q++) {
      const px = random() * 700;
      const py = random() * 500;
      const limit = Math.floor(random() * n);
      expect(big.nearest(px, py, 7, limit)).toBe(bruteNearest(xs, ys, px, py, 7, limit));
    }
  });

  test('an empty path hits nothing; bad arguments are refused', () => {
    const empty = new PointGrid(new Float32Array(0), new Float32Array(0), 14);
    expect(empty.nearest(0, 0, 7, 0)).toBe(-1);
    expect(() => new PointGrid(new Float32Array(1), new Float32Array(2), 14)).toThrow(
      /differ in length/,
    );
    expect(() => new PointGrid(x, y, 0)).toThrow(/cellSize/);
    expect(() => grid.nearest(Number.NaN, 0, 7, 1)).toThrow(/must be finite/);
  });
});
