// The path rules through the Node engine: sorting, display geometry, 12 px thinning, the scrub
// query, time bounds and tag scanning, at their boundaries. Rules: docs/path-core.md.

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPrng } from '../bench/lib/prng.ts';
import { mapAndClampReference } from '../tests/reference/mapping.ts';
import { scanTagsReference, thinReference } from '../tests/reference/path.ts';
import { createNodePathEngine, type PathEngine } from './path-engine.node.ts';
import {
  applyDuration,
  clampTime,
  DEFAULT_IMAGE,
  knownImage,
  READ_CHUNK_POINTS,
  TAG_SCAN_RADIUS_PX,
  THIN_DISTANCE_PX,
} from './path-engine.ts';
import type { LoadPathRequest, TransformResult, XY } from './path-types.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const f64 = (values: number[]) => Float64Array.from(values);

let engine: PathEngine;
beforeAll(async () => {
  engine = await createNodePathEngine();
});
afterAll(() => engine.dispose());

/**
 * A path with no calibration on a 700×650 image: the simple mapping (50 px per map unit) and
 * display scale 1, so display pixels are map units × 50.
 */
function load(lines: [x: number, t: number][], tags: readonly XY[] = []) {
  const text = lines.map(([x, t], i) => `${i} ${x} 0 ${t}`).join('\n');
  const request: LoadPathRequest = {
    text: encode(text),
    calibration: null,
    image: { width: 700, height: 650 },
    tags,
  };
  return engine.loadPath(request);
}

describe('display geometry (spec §9)', () => {
  test('no image: 800×600 scaled by 0.875', () => {
    expect(engine.displayGeometry(null)).toEqual({ width: 700, height: 525, scale: 0.875 });
  });

  test('wide image: the width limit decides', () => {
    expect(engine.displayGeometry({ width: 1400, height: 650 })).toEqual({
      width: 700,
      height: 325,
      scale: 0.5,
    });
  });

  test('tall image: the height limit decides', () => {
    expect(engine.displayGeometry({ width: 700, height: 1300 })).toEqual({
      width: 350,
      height: 650,
      scale: 0.5,
    });
  });

  test('small images are not upscaled', () => {
    expect(engine.displayGeometry({ width: 300, height: 200 })).toEqual({
      width: 300,
      height: 200,
      scale: 1,
    });
    expect(engine.displayGeometry({ width: 700, height: 650 }).scale).toBe(1);
  });

  test('a zero, negative or non-finite size means no image is known', () => {
    for (const image of [
      { width: 0, height: 0 },
      { width: -5, height: 10 },
      { width: Number.NaN, height: 100 },
      { width: 100, height: Number.POSITIVE_INFINITY },
    ]) {
      expect(engine.displayGeometry(image)).toEqual({ width: 700, height: 525, scale: 0.875 });
    }
    expect(knownImage(undefined)).toBe(DEFAULT_IMAGE);
  });

  test('an image that is not {width, height} numbers is an error naming it', () => {
    expect(() => engine.displayGeometry({ width: '800', height: 600 } as never)).toThrow(
      /image.width and image.height must be numbers/,
    );
    expect(() => engine.displayGeometry(7 as never)).toThrow(/image must be/);
  });
});

describe('thinning (12 display px, greedy from the first point)', () => {
  test('boundaries: 11.999 dropped, 12 kept, measured from the last kept point', () => {
    const x = f64([0, 11.999, 12, 23.9, 24, 24, 36]);
    const kept = engine.thin(x, new Float64Array(x.length), THIN_DISTANCE_PX);
    expect(Array.from(kept)).toEqual([0, 2, 4, 6]);
  });

  test('several kept points in one block of eight, the first far point of each kept', () => {
    // Jumps of 12 and 13 between runs of near points, so kept points fall on every lane of the
    // blocks of eight the kernel screens, two or more in a block.
    const steps = [12, 1, 13, 12, 0.5, 0.5, 12, 11.5, 12, 13, 1, 1, 1, 12, 12, 12, 0, 12, 3, 12];
    const x = f64(steps.map((_, i) => steps.slice(0, i + 1).reduce((a, b) => a + b, 0)));
    const y = f64(steps.map((_, i) => (i % 3) * 0.25));
    const kept = Array.from(engine.thin(x, y, THIN_DISTANCE_PX));
    expect(kept).toEqual(thinReference(x, y, THIN_DISTANCE_PX));
    expect(kept.length).toBeGreaterThan(10);
  });

  test('distance is Euclidean', () => {
    const kept = engine.thin(f64([0, 5, 5, 9]), f64([0, 10.9, 12, 12]), 13);
    // (5, 10.9) is 12.0 from the origin, (5, 12) exactly 13, (9, 12) only 4 from (5, 12).
    expect(Array.from(kept)).toEqual([0, 2]);
  });

  test('no points, one point, equal points', () => {
    expect(Array.from(engine.thin(f64([]), f64([]), 12))).toEqual([]);
    expect(Array.from(engine.thin(f64([3]), f64([4]), 12))).toEqual([0]);
    expect(Array.from(engine.thin(f64([1, 1, 1]), f64([1, 1, 1]), 12))).toEqual([0]);
    expect(Array.from(engine.thin(f64([1, 1, 1]), f64([1, 1, 1]), 0))).toEqual([0, 1, 2]);
  });

  test('prefix-stable: thinning the first k points keeps the kept indices below k', () => {
    const random = createPrng(7);
    const n = 2000;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 1; i < n; i++) {
      x[i] = x[i - 1]! + (random() - 0.5) * 10;
      y[i] = y[i - 1]! + (random() - 0.5) * 10;
    }
    const all = Array.from(engine.thin(x, y, 12));
    for (const k of [1, 2, 17, 500, 1999]) {
      const prefix = Array.from(engine.thin(x.subarray(0, k), y.subarray(0, k), 12));
      expect(prefix).toEqual(all.filter((i) => i < k));
    }
  });

  test('bad arguments are errors naming them', () => {
    expect(() => engine.thin(f64([1]), f64([1, 2]), 12)).toThrow(/thin: x and y differ in length/);
    expect(() => engine.thin(f64([1]), f64([1]), -1)).toThrow(/thin: minDistance/);
    expect(() => engine.thin(f64([1]), f64([1]), Number.NaN)).toThrow(/thin: minDistance/);
    expect(() => engine.thin([1] as never, f64([1]), 12)).toThrow(/thin: x must be a Float64Array/);
  });
});

describe('loadPath: sorting and the scrub query', () => {
  test('points out of time order are sorted by time, stably, and the load says so', () => {
    const path = load([
      [0, 2],
      [0.3, 1],
      [0.6, 1],
      [0.9, 0],
    ]);
    expect(path.reordered).toBe(true);
    expect(Array.from(path.kept.t)).toEqual([0, 1, 1, 2]);
    // Display px = map units × 50; equal times keep their file order.
    expect(Array.from(path.kept.x)).toEqual([45, 15, 30, 0]);
    expect(path.bounds).toEqual({ min: 0, max: 2 });
  });

  test('a file already in time order is left as it is', () => {
    expect(
      load([
        [0, 0],
        [1, 1],
      ]).reordered,
    ).toBe(false);
  });

  // Five points 15 display px apart at t = 1..5: all kept.
  const evenly: [number, number][] = [1, 2, 3, 4, 5].map((t) => [0.3 * (t - 1), t]);

  test('before the first point: nothing drawn but the first point', () => {
    load(evenly);
    expect(engine.query(0.5)).toEqual({
      drawCount: 0,
      nearest: 0,
      nearestX: 0,
      nearestY: 0,
      nearestT: 1,
      exact: false,
    });
  });

  test('exactly on a point', () => {
    load(evenly);
    expect(engine.query(3)).toMatchObject({ drawCount: 3, nearest: 2, nearestT: 3, exact: true });
    expect(engine.query(3).nearestX).toBeCloseTo(30, 9);
  });

  test('between points: drawn up to the time, nearest either side, ties to the earlier', () => {
    load(evenly);
    expect(engine.query(3.4)).toMatchObject({ drawCount: 3, nearest: 2, exact: false });
    expect(engine.query(3.6)).toMatchObject({ drawCount: 3, nearest: 3, exact: false });
    expect(engine.query(3.5)).toMatchObject({ drawCount: 3, nearest: 2 });
  });

  test('after the last point', () => {
    load(evenly);
    expect(engine.query(99)).toMatchObject({ drawCount: 5, nearest: 4, nearestT: 5, exact: false });
  });

  test('timestamp match tolerance 0.001 s', () => {
    load([
      [0, 0.5],
      [1, 3],
    ]);
    expect(engine.query(3.001).exact).toBe(true);
    expect(engine.query(2.999).exact).toBe(true);
    expect(engine.query(0.501).exact).toBe(true); // 0.501 − 0.5 is 0.0010000000000000009 in doubles
    expect(engine.query(3.0011).exact).toBe(false);
    expect(engine.query(0.4989).exact).toBe(false);
  });

  test('drawn points are the thinned ones up to the time; the nearest is always reported', () => {
    // 5 display px apart: thinning keeps every third point.
    const path = load([0, 1, 2, 3, 4, 5, 6, 7].map((i) => [0.1 * i, i]));
    expect(Array.from(path.kept.index)).toEqual([0, 3, 6]);
    expect(engine.query(4)).toMatchObject({ drawCount: 2, nearest: 4, nearestT: 4, exact: true });
    expect(engine.query(2.9)).toMatchObject({ drawCount: 1, nearest: 3 });
    expect(engine.query(6)).toMatchObject({ drawCount: 3, nearest: 6 });
  });

  test('equal timestamps: the nearest is the first of them', () => {
    load([
      [0, 1],
      [1, 2],
      [2, 2],
      [3, 2],
      [4, 3],
    ]);
    expect(engine.query(2.2)).toMatchObject({ nearest: 1, drawCount: 4 });
    expect(engine.query(2)).toMatchObject({ nearest: 1, drawCount: 4, exact: true });
    expect(engine.query(1.9)).toMatchObject({ nearest: 1, drawCount: 1 });
    load([
      [0, 5],
      [1, 5],
    ]);
    expect(engine.query(9)).toMatchObject({ nearest: 0, drawCount: 2 });
  });

  test('agrees with a linear scan on a long random path', () => {
    const random = createPrng(11);
    const lines: [number, number][] = [];
    let t = 0;
    for (let i = 0; i < 100_000; i++) {
      // Irregular steps, bursts of equal times, and long gaps.
      t += random() < 0.1 ? 0 : random() < 0.01 ? 50 * random() : 0.03 * random();
      lines.push([Math.round(random() * 200) / 10, Math.round(t * 1000) / 1000]);
    }
    const path = load(lines);
    const times = Array.from(lines, ([, time]) => time);
    const keptTimes = Array.from(path.kept.t);
    for (let q = 0; q < 400; q++) {
      const time = -1 + random() * (t + 2);
      let nearest = 0;
      for (let i = 1; i < times.length; i++) {
        if (Math.abs(times[i]! - time) < Math.abs(times[nearest]! - time)) nearest = i;
      }
      const drawCount = keptTimes.filter((kt) => kt <= time).length;
      expect(engine.query(time)).toMatchObject({ nearest, drawCount, nearestT: times[nearest] });
    }
  });

  test('kept points come as transferable typed arrays', () => {
    const path = load(evenly);
    expect(path.kept.x).toBeInstanceOf(Float32Array);
    expect(path.kept.y).toBeInstanceOf(Float32Array);
    expect(path.kept.t).toBeInstanceOf(Float64Array);
    expect(Array.from(path.kept.index)).toEqual([0, 1, 2, 3, 4]);
    // Each owns its buffer (slices, not views of the core's memory).
    expect(path.kept.x.buffer.byteLength).toBe(path.kept.x.byteLength);
  });

  test('an empty or all-malformed file loads as no points', () => {
    const path = load([]);
    expect(path.report.empty).toBe(true);
    expect(path.bounds).toEqual({ min: 0, max: 0 });
    expect(engine.query(1)).toEqual({
      drawCount: 0,
      nearest: -1,
      nearestX: Number.NaN,
      nearestY: Number.NaN,
      nearestT: Number.NaN,
      exact: false,
    });
  });

  test('query needs a loaded path and a finite time', async () => {
    const fresh = await createNodePathEngine();
    expect(() => fresh.query(1)).toThrow(/no path is loaded/);
    fresh.dispose();
    load(evenly);
    expect(() => engine.query(Number.NaN)).toThrow(/query: time must be a finite number/);
  });

  test('a disposed engine refuses calls', async () => {
    const fresh = await createNodePathEngine();
    fresh.dispose();
    expect(() => fresh.thin(f64([]), f64([]), 12)).toThrow(/disposed/);
    expect(() => fresh.query(0)).toThrow(/disposed/);
  });

  test('the full pipeline: parse report, transform, clamp, display, tags', () => {
    const text = encode('0 0 0 0\n1 2 1 1\nbad line\n2 100 0 2\n3 4 2 3 9.png');
    const path = engine.loadPath({
      text,
      calibration: null,
      image: { width: 1400, height: 1300 },
      tags: [
        [100, 50],
        [1000, 1000],
      ],
    });
    expect(path.report).toEqual({
      lines: 5,
      points: 4,
      badLines: 1,
      firstBadLine: 3,
      empty: false,
    });
    expect(path.transform.kind).toBe('simple');
    expect(path.display).toEqual({ width: 700, height: 650, scale: 0.5 });
    // Map unit 100 → 5000 image px: farther than 2 × 1400 from the centre, so clamped to 2 × 1400.
    expect(path.clamped).toBe(1);
    expect(Array.from(path.kept.x)).toEqual([0, 50, 1400, 100]);
    expect(path.scan).toEqual({ scanned: 1, total: 2, indices: [0] });
    expect(path.bounds).toEqual({ min: 0, max: 3 });
  });

  test('loadPath names what is wrong with its request', () => {
    expect(() => engine.loadPath(null as never)).toThrow(/loadPath: request/);
    expect(() =>
      engine.loadPath({ text: 'x' as never, calibration: null, image: null, tags: [] }),
    ).toThrow(/loadPath: text must be a Uint8Array/);
    expect(() =>
      engine.loadPath({ text: encode(''), calibration: null, image: null, tags: [[1]] as never }),
    ).toThrow(/loadPath: tags\[0\]/);
  });
});

describe('time bounds (spec §4)', () => {
  test('min and max timestamp, in any order', () => {
    expect(engine.timeBounds(f64([3, 1.5, 9, 2]))).toEqual({ min: 1.5, max: 9 });
  });

  test('the maximum becomes the video duration once it is known', () => {
    expect(engine.timeBounds(f64([1, 9]), 120)).toEqual({ min: 1, max: 120 });
    expect(engine.timeBounds(f64([1, 9]), 4)).toEqual({ min: 1, max: 4 });
    for (const unknown of [Number.NaN, 0, -3, Number.POSITIVE_INFINITY]) {
      expect(engine.timeBounds(f64([1, 9]), unknown)).toEqual({ min: 1, max: 9 });
    }
    expect(() => engine.timeBounds(f64([1]), '5' as never)).toThrow(/duration must be a number/);
  });

  test('no keyframes: 0..0, or 0..duration', () => {
    expect(engine.timeBounds(f64([]))).toEqual({ min: 0, max: 0 });
    expect(engine.timeBounds(f64([]), 30)).toEqual({ min: 0, max: 30 });
    expect(applyDuration({ min: 0, max: 0 }, 30)).toEqual({ min: 0, max: 30 });
  });

  test('a time outside the bounds resets to the minimum', () => {
    const bounds = { min: 2, max: 10 };
    expect(clampTime(5, bounds)).toBe(5);
    expect(clampTime(2, bounds)).toBe(2);
    expect(clampTime(10, bounds)).toBe(10);
    expect(clampTime(1.99, bounds)).toBe(2);
    expect(clampTime(10.01, bounds)).toBe(2);
    expect(clampTime(Number.NaN, bounds)).toBe(2);
  });
});

describe('tag scanning (within 0.1 = 10 image px)', () => {
  const origin = { x: f64([0]), y: f64([0]) };

  test('a point at exactly 10 px scans the tag; 10.0001 px does not', () => {
    const tags: XY[] = [
      [10, 0],
      [10.0001, 0],
      [6, 8],
      [-6, -8.0001],
      [0, -10],
    ];
    expect(engine.scanTags(origin.x, origin.y, tags)).toEqual({
      scanned: 3,
      total: 5,
      indices: [0, 2, 4],
    });
    expect(TAG_SCAN_RADIUS_PX).toBe(10);
  });

  test('another radius', () => {
    expect(engine.scanTags(origin.x, origin.y, [[3, 4]], 5).scanned).toBe(1);
    expect(engine.scanTags(origin.x, origin.y, [[3, 4.01]], 5).scanned).toBe(0);
  });

  test('no tags, no points', () => {
    expect(engine.scanTags(origin.x, origin.y, [])).toEqual({ scanned: 0, total: 0, indices: [] });
    expect(engine.scanTags(f64([]), f64([]), [[0, 0]])).toEqual({
      scanned: 0,
      total: 1,
      indices: [],
    });
  });

  test('every tag scanned by the first points: the rest of the path changes nothing', () => {
    const n = 200_000;
    const x = new Float64Array(n).fill(5000);
    const y = new Float64Array(n).fill(5000);
    x[0] = 1;
    x[1] = 101;
    y[0] = 0;
    y[1] = 0;
    const result = engine.scanTags(x, y, [
      [0, 0],
      [100, 0],
    ]);
    expect(result).toEqual({ scanned: 2, total: 2, indices: [0, 1] });
  });

  test('agrees with brute force for 200 tags, including far-spread and huge coordinates', () => {
    const random = createPrng(5);
    for (const spread of [1000, 1e9, 1e306]) {
      const tags: XY[] = Array.from({ length: 200 }, () => [
        (random() - 0.5) * spread,
        (random() - 0.5) * spread,
      ]);
      const n = 20_000;
      const x = new Float64Array(n);
      const y = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const near = tags[Math.floor(random() * tags.length)]!;
        // Half the points land around a tag, some just inside or outside the radius.
        const r = random() < 0.5 ? 9 + random() * 2 : random() * spread;
        const angle = random() * 2 * Math.PI;
        x[i] = near[0] + r * Math.cos(angle);
        y[i] = near[1] + r * Math.sin(angle);
      }
      const expected = tags.flatMap(([tx, ty], k) => {
        for (let i = 0; i < n; i++) {
          const dx = x[i]! - tx;
          const dy = y[i]! - ty;
          if (dx * dx + dy * dy <= 100) return [k];
        }
        return [];
      });
      const result = engine.scanTags(x, y, tags);
      expect(result.indices, `spread ${spread}`).toEqual(expected);
      expect(result.scanned).toBe(expected.length);
    }
  });

  test('points that are not finite never scan a tag', () => {
    const x = f64([Number.NaN, Number.POSITIVE_INFINITY, -Number.MAX_VALUE]);
    const y = f64([0, 0, Number.NaN]);
    expect(engine.scanTags(x, y, [[0, 0]]).scanned).toBe(0);
  });

  test('bad tags or radius are errors naming them', () => {
    expect(() => engine.scanTags(origin.x, origin.y, [[Number.NaN, 1]])).toThrow(
      /scanTags: tags\[0\] must be \[x, y\] with finite numbers/,
    );
    expect(() => engine.scanTags(origin.x, origin.y, [[1, 1]], 0)).toThrow(/radiusPx/);
    expect(() => engine.scanTags(origin.x, origin.y, 'tags' as never)).toThrow(/tags must be/);
  });
});

describe('resident points and streamed copies (across the streaming chunks)', () => {
  // A random walk long enough for several streaming chunks, with jumps so thinning keeps points
  // on both sides of every chunk boundary, and a tag reached only near the end.
  const n = 3 * READ_CHUNK_POINTS + 123;
  const random = createPrng(11);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    x[i] = x[i - 1]! + (random() - 0.5) * 6;
    y[i] = y[i - 1]! + (random() - 0.5) * 6;
  }
  x[n - 5] = 1e6;
  y[n - 5] = -1e6;
  const tags: XY[] = [
    [x[10]!, y[10]! + 9.5],
    [1e6 + 6, -1e6 + 8],
    [x[READ_CHUNK_POINTS]! + 10, y[READ_CHUNK_POINTS]!],
    [1e7, 1e7],
  ];
  const transform = {
    kind: 'perspective',
    matrix: [2, 0.1, 40, -0.2, 1.5, 30, 1e-5, 2e-5, 1],
    yAxisFlip: false,
  } as unknown as TransformResult;
  const image = { width: 2000, height: 1400 };

  /** Largest |a − b| ÷ max(|b|, 1); Infinity when the lengths differ (no slow diff of 2·10^5 values). */
  function worstRelativeError(a: Float64Array, b: Float64Array): number {
    if (a.length !== b.length) return Number.POSITIVE_INFINITY;
    let worst = 0;
    for (let i = 0; i < a.length; i++) {
      const error = Math.abs(a[i]! - b[i]!) / Math.max(Math.abs(b[i]!), 1);
      worst = Number.isNaN(error) ? Number.POSITIVE_INFINITY : Math.max(worst, error);
    }
    return worst;
  }

  test('thin, map and scan agree with the plain references', () => {
    const kept = thinReference(x, y, 12);
    expect(kept.some((i) => i > READ_CHUNK_POINTS && i < READ_CHUNK_POINTS + 64)).toBe(true);
    expect(Array.from(engine.thin(x, y, 12))).toEqual(kept);
    const mapped = mapAndClampReference(transform.matrix, false, x, y, image);
    expect(mapped.clamped).toBeGreaterThan(0);
    const actual = engine.mapToImage(transform, x, y, image);
    expect(actual.clamped).toBe(mapped.clamped);
    expect(worstRelativeError(actual.x, mapped.x)).toBeLessThanOrEqual(1e-15);
    expect(worstRelativeError(actual.y, mapped.y)).toBeLessThanOrEqual(1e-15);
    expect(engine.scanTags(x, y, tags)).toEqual({
      scanned: 3,
      total: 4,
      indices: scanTagsReference(x, y, tags, 10),
    });
  });

  test('a resident copy gives the same answers, and maps in place', () => {
    const points = engine.resident(x, y);
    try {
      expect(points.count).toBe(n);
      expect(Array.from(points.thin(12))).toEqual(thinReference(x, y, 12));
      expect(points.scanTags(tags, 10)).toEqual(engine.scanTags(x, y, tags));
      const expected = mapAndClampReference(transform.matrix, false, x, y, image);
      expect(points.mapToImage(transform, image)).toEqual({ clamped: expected.clamped });
      // Bit for bit what the copying call returns; within 1e-15 of the reference (operation order).
      const resident = points.read();
      const copied = engine.mapToImage(transform, x, y, image);
      expect(worstRelativeError(resident.x, copied.x)).toBe(0);
      expect(worstRelativeError(resident.y, copied.y)).toBe(0);
      expect(worstRelativeError(resident.x, expected.x)).toBeLessThanOrEqual(1e-15);
    } finally {
      points.dispose();
    }
  });

  test('the copying calls leave their inputs alone; empty inputs work', () => {
    const before = x.slice();
    engine.mapToImage(transform, x, y, image);
    expect(x).toEqual(before);
    const none = engine.resident(f64([]), f64([]));
    expect(Array.from(none.thin(12))).toEqual([]);
    expect(none.scanTags([[0, 0]])).toEqual({ scanned: 0, total: 1, indices: [] });
    expect(none.mapToImage(transform, image)).toEqual({ clamped: 0 });
    none.dispose();
    expect(engine.mapToImage(transform, f64([]), f64([]), image).clamped).toBe(0);
  });

  test('mapToImage into caller arrays: the same numbers, those arrays, or the inputs in place', () => {
    const fresh = engine.mapToImage(transform, x, y, image);
    const out = { x: new Float64Array(n).fill(7), y: new Float64Array(n).fill(7) };
    const into = engine.mapToImage(transform, x, y, image, out);
    expect(into.x).toBe(out.x);
    expect(into.y).toBe(out.y);
    expect(into.clamped).toBe(fresh.clamped);
    expect(worstRelativeError(out.x, fresh.x)).toBe(0);
    expect(worstRelativeError(out.y, fresh.y)).toBe(0);
    const xs = x.slice();
    const ys = y.slice();
    expect(engine.mapToImage(transform, xs, ys, image, { x: xs, y: ys }).clamped).toBe(
      fresh.clamped,
    );
    expect(worstRelativeError(xs, fresh.x)).toBe(0);
    expect(worstRelativeError(ys, fresh.y)).toBe(0);
    expect(() => engine.mapToImage(transform, x, y, image, { x: f64([1]), y: f64([1]) })).toThrow(
      new RegExp(`mapToImage: out holds 1 points, the input ${n}`),
    );
    expect(() => engine.mapToImage(transform, x, y, image, { x: out.x } as never)).toThrow(
      /mapToImage: out: y must be a Float64Array/,
    );
    expect(() => engine.mapToImage(transform, x, y, image, [] as never)).toThrow(
      /mapToImage: out: x must be a Float64Array/,
    );
  });

  test('bad arguments and disposed points are errors naming them', () => {
    expect(() => engine.resident(f64([1]), f64([1, 2]))).toThrow(
      /resident: x and y differ in length/,
    );
    expect(() => engine.resident([1] as never, f64([1]))).toThrow(/resident: x must be/);
    const points = engine.resident(f64([1, 2]), f64([3, 4]));
    expect(() => points.thin(-1)).toThrow(/resident\.thin: minDistance/);
    expect(() => points.scanTags([[1, Number.NaN]])).toThrow(/resident\.scanTags: tags\[0\]/);
    expect(() => points.scanTags([], 0)).toThrow(/resident\.scanTags: radiusPx/);
    expect(() => points.mapToImage({ matrix: [1] } as never, image)).toThrow(/result\.matrix/);
    // An empty input still has its transform checked.
    expect(() => engine.mapToImage({ matrix: [1] } as never, f64([]), f64([]), image)).toThrow(
      /result\.matrix/,
    );
    points.dispose();
    points.dispose();
    expect(() => points.read()).toThrow(/resident\.read: these resident points have been disposed/);
  });
});

describe('keyframes parsed into linear memory (residentKeyframes, as loadPath parses)', () => {
  // Long enough for several 1 MiB parse chunks, with a malformed line and a blank one.
  const lines = Array.from({ length: 40_000 }, (_, i) => {
    const x = ((i * 7919) % 6000) / 100 - 10;
    const y = ((i * 104_729) % 4000) / 1000;
    return `${i} ${x.toFixed(3)} ${y.toFixed(4)} ${(i * 0.04).toFixed(3)}`;
  });
  lines.splice(1234, 0, '12 not-a-number 3 4', '');
  const text = new TextEncoder().encode(`${lines.join('\n')}\n`);

  test('the report and columns are those of parseKeyframes; the kernels run on them in place', () => {
    const copied = engine.parseKeyframes(text);
    const keyframes = engine.residentKeyframes(text);
    try {
      expect(keyframes.report).toEqual(copied.report);
      expect(keyframes.report).toMatchObject({ points: 40_000, badLines: 1, firstBadLine: 1235 });
      expect(keyframes.count).toBe(40_000);
      expect(keyframes.readColumns()).toEqual(copied.columns);
      const { x, y } = copied.columns;
      expect(Array.from(keyframes.thin(0.5))).toEqual(thinReference(x, y, 0.5));
      const tags: XY[] = [
        [x[5]!, y[5]!],
        [1e6, 1e6],
      ];
      expect(keyframes.scanTags(tags, 0.01)).toEqual(engine.scanTags(x, y, tags, 0.01));
      const transform = engine.solveTransform(null, { width: 800, height: 600 });
      const image = { width: 800, height: 600 };
      const mapped = engine.mapToImage(transform, x, y, image);
      expect(keyframes.mapToImage(transform, image)).toEqual({ clamped: mapped.clamped });
      expect(keyframes.read()).toEqual({ x: mapped.x, y: mapped.y });
      const after = keyframes.readColumns();
      expect(after.x).toEqual(mapped.x);
      expect(after.t).toEqual(copied.columns.t);
    } finally {
      keyframes.dispose();
    }
  });

  test('an empty file; disposed keyframes and bad input are errors naming them', () => {
    const none = engine.residentKeyframes(new Uint8Array(0));
    expect(none.report).toEqual({ lines: 0, points: 0, badLines: 0, firstBadLine: 0, empty: true });
    expect(none.readColumns().t).toEqual(f64([]));
    none.dispose();
    none.dispose();
    expect(() => none.thin(12)).toThrow(
      /residentKeyframes\.thin: these resident points have been disposed/,
    );
    expect(() => none.readColumns()).toThrow(/residentKeyframes\.readColumns: these resident/);
    expect(() => engine.residentKeyframes('1 2 3 4' as never)).toThrow(
      /residentKeyframes: text must be a Uint8Array/,
    );
  });
});
