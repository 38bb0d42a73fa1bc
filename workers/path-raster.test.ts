// The path player's coverage raster: what a prefix of the path looks like, at its pixels.
import { describe, expect, test } from 'vitest';
import { createPrng } from '../bench/lib/prng.ts';
import { PATH_STYLE, PathRaster } from './path-raster.ts';

const FILL = [...PATH_STYLE.fill, 255];
const RING = [...PATH_STYLE.ring, 255];
const LINE = [...PATH_STYLE.line, 255];
const CLEAR = [0, 0, 0, 0];

function raster(points: [number, number][], width = 100, height = 60, pixelRatio = 1) {
  const x = Float32Array.from(points, ([px]) => px);
  const y = Float32Array.from(points, ([, py]) => py);
  return new PathRaster(x, y, { width, height, pixelRatio });
}

/** Index of the first byte where two pictures differ, −1 when they are equal. */
function firstDifference(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  if (a.length !== b.length) return 0;
  return a.findIndex((value, i) => value !== b[i]);
}

/** A seeded random walk of `count` points inside 200 × 120. */
function walk(count: number): [number, number][] {
  const random = createPrng(5);
  const points: [number, number][] = [];
  let [x, y] = [100, 60];
  for (let i = 0; i < count; i++) {
    x = Math.min(195, Math.max(5, x + (random() - 0.5) * 40));
    y = Math.min(115, Math.max(5, y + (random() - 0.5) * 40));
    points.push([x, y]);
  }
  return points;
}

/** RGBA of device pixel (col, row). */
function at(pixels: Uint8ClampedArray, width: number, col: number, row: number): number[] {
  return Array.from(pixels.subarray(4 * (row * width + col), 4 * (row * width + col) + 4));
}

describe('path raster', () => {
  test('a point is a dot of radius 7 with a ring; nothing is drawn before it is due', () => {
    const r = raster([[30.5, 30.5]]);
    expect(at(r.render(0), 100, 30, 30)).toEqual(CLEAR);
    const pixels = r.render(1);
    expect(at(pixels, 100, 30, 30)).toEqual(FILL); // centre
    expect(at(pixels, 100, 34, 30)).toEqual(FILL); // 4 px out
    expect(at(pixels, 100, 36, 30)).toEqual(RING); // 6 px out: the ring (5.5..7)
    expect(at(pixels, 100, 38, 30)).toEqual(CLEAR); // 8 px out
    expect(at(pixels, 100, 30, 24)).toEqual(RING);
  });

  test('the edge is antialiased', () => {
    // Centre at a pixel corner: the pixel whose centre is 7.07 px away is partly covered.
    const pixels = raster([[30, 30]]).render(1);
    const edge = at(pixels, 100, 35, 35); // centre (35.5, 35.5): 7.78 px away, reach 7.5
    expect(edge[3]).toBe(0);
    const partial = at(pixels, 100, 34, 34); // 6.36 px away: fully covered
    expect(partial[3]).toBe(255);
    const ramp = at(pixels, 100, 36, 33); // 7.38 px away: the outer 0.12 of the ramp
    expect(ramp[3]).toBe(Math.round((7.5 - Math.hypot(6.5, 3.5)) * 255));
  });

  test('earlier points lie on top, and the picture of n points ignores the later ones', () => {
    const r = raster([
      [30, 30],
      [40, 30],
    ]);
    const one = r.render(1);
    expect(at(one, 100, 41, 30)).toEqual(CLEAR);
    const two = r.render(2);
    // x 36.5 is the first dot's ring (6.5 px out), drawn over the second dot's fill.
    expect(at(two, 100, 36, 30)).toEqual(RING);
    expect(at(two, 100, 41, 30)).toEqual(FILL);
  });

  test('points farther apart than the dots reach are joined by a line', () => {
    const r = raster([
      [10, 30],
      [80, 30],
    ]);
    expect(at(r.render(1), 100, 45, 30)).toEqual(CLEAR);
    expect(at(r.render(2), 100, 45, 30)).toEqual(LINE);
    expect(at(r.render(2), 100, 45, 33)).toEqual(CLEAR); // line half-width 1.5
  });

  test('at a pixel ratio of 2 everything is twice as large', () => {
    const r = raster([[15, 15]], 60, 60, 2);
    const pixels = r.render(1);
    expect(at(pixels, 60, 30, 30)).toEqual(FILL);
    expect(at(pixels, 60, 30 + 12, 30)).toEqual(RING); // 6 CSS px out
    expect(at(pixels, 60, 30 + 16, 30)).toEqual(CLEAR); // 8 CSS px out
  });

  test('any prefix is exact whether stamped in slices or on demand', () => {
    const points = walk(400);
    const whole = raster(points, 200, 120);
    whole.stampTo(points.length);
    const sliced = raster(points, 200, 120);
    for (let k = 0; k < points.length; k += 37) sliced.stampTo(k);
    for (const n of [0, 1, 2, 57, 200, 399, 400]) {
      const alone = raster(points.slice(0, n), 200, 120).render(n);
      expect(firstDifference(whole.render(n), alone)).toBe(-1);
      expect(firstDifference(sliced.render(n), alone)).toBe(-1);
    }
    expect(whole.complete).toBe(true);
  });

  test('renders back and forth in any order are exact and rewrite only the rows they report', () => {
    const points = walk(400);
    const r = raster(points, 200, 120);
    const row = 4 * 200;
    let previous = new Uint8ClampedArray(r.render(0));
    for (const n of [250, 40, 41, 400, 0, 399, 120, 120, 7, 500]) {
      const pixels = r.render(n);
      const alone = raster(points.slice(0, n), 200, 120).render(n);
      expect(firstDifference(pixels, alone)).toBe(-1);
      const { top, bottom } = r.changedRows;
      expect(firstDifference(pixels.subarray(0, top * row), previous.subarray(0, top * row))).toBe(
        -1,
      );
      expect(firstDifference(pixels.subarray(bottom * row), previous.subarray(bottom * row))).toBe(
        -1,
      );
      if (firstDifference(pixels, previous) >= 0) expect(bottom).toBeGreaterThan(top);
      previous = new Uint8ClampedArray(pixels);
    }
    r.render(120);
    r.render(120);
    expect(r.changedRows).toEqual({ top: 0, bottom: 0 });
  });

  test('points off the raster are clipped; non-finite points are skipped', () => {
    const r = raster([
      [-50, -50],
      [Number.NaN, 10],
      [99, 59],
    ]);
    const pixels = r.render(3);
    expect(at(pixels, 100, 99, 59)).toEqual(FILL);
    expect(at(pixels, 100, 0, 0)).toEqual(CLEAR);
  });

  test('bad arguments are refused with a message naming them', () => {
    const x = new Float32Array(2);
    expect(
      () => new PathRaster(x, new Float32Array(3), { width: 10, height: 10, pixelRatio: 1 }),
    ).toThrow(/x and y differ in length/);
    expect(() => new PathRaster(x, x, { width: 0, height: 10, pixelRatio: 1 })).toThrow(
      /width and height must be integers/,
    );
    expect(() => new PathRaster(x, x, { width: 10, height: 10, pixelRatio: 0 })).toThrow(
      /pixelRatio/,
    );
    expect(() => raster([]).render(-1)).toThrow(/drawCount must be an integer/);
  });
});
