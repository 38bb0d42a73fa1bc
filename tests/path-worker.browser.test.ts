// The real path worker in Chromium through the app's client (Comlink, module worker, the WASM
// core fetched by URL): parse, solve, map, thin, query and scan, with buffers transferred.
import { afterAll, describe, expect, test } from 'vitest';
import {
  keyframeImageNames,
  loadPath,
  queryPath,
  scanTags,
  solveTransform,
  terminatePathWorker,
  timeBounds,
} from '../src/lib/path-client.ts';
import type { Calibration } from '../workers/path-types.ts';

const encode = (text: string) => new TextEncoder().encode(text);

// Three pairs: the affine x_px = 100 + 50·x, y_px = 100 + 50·y (perspective needs four).
const calibration: Calibration = {
  slamPoints: [
    [0, 0],
    [1, 0],
    [0, 1],
  ],
  floorplanPoints: [
    [100, 100],
    [150, 100],
    [100, 150],
  ],
};
const image = { width: 1400, height: 1000 }; // display scale 0.5

afterAll(() => terminatePathWorker());

describe('path worker', () => {
  test('loadPath parses, solves, maps and thins in the worker; the text is transferred', async () => {
    // Points 0.2 map units = 10 image px = 5 display px apart: thinning keeps every third.
    const lines = Array.from({ length: 10 }, (_, i) => `${i} ${0.2 * i} 0 ${i}`);
    const text = encode(`${lines.join('\r\n')}\r\nnot a keyframe\n`);
    const path = await loadPath({ text, calibration, image, tags: [[130, 100]] });

    expect(text.buffer.byteLength).toBe(0); // detached: moved to the worker, not copied
    expect(path.report).toEqual({
      lines: 11,
      points: 10,
      badLines: 1,
      firstBadLine: 11,
      empty: false,
    });
    expect(path.transform.kind).toBe('affine');
    expect(path.transform.rejected).toEqual([{ kind: 'perspective', reason: 'too-few-points' }]);
    expect(path.display).toEqual({ width: 700, height: 500, scale: 0.5 });
    expect(Array.from(path.kept.index)).toEqual([0, 3, 6, 9]);
    expect(path.kept.x).toBeInstanceOf(Float32Array);
    expect(Array.from(path.kept.x)).toEqual([50, 65, 80, 95]);
    expect(Array.from(path.kept.y)).toEqual([50, 50, 50, 50]);
    expect(Array.from(path.kept.t)).toEqual([0, 3, 6, 9]);
    expect(path.bounds).toEqual({ min: 0, max: 9 });
    expect(path.scan).toEqual({ scanned: 1, total: 1, indices: [0] });
  });

  test('query answers from the resident path', async () => {
    // 0.6 map units = 30 image px = 15 display px apart: every point is kept.
    await loadPath({
      text: encode('0 0 0 0\n1 0.6 0 1\n2 1.2 0 2\n3 1.8 0 3\n'),
      calibration,
      image,
      tags: [],
    });
    const query = await queryPath(2.0004);
    expect(query).toMatchObject({ drawCount: 3, nearest: 2, nearestT: 2, exact: true });
    expect(query.nearestX).toBeCloseTo(80, 9);
    expect(await queryPath(-5)).toMatchObject({ drawCount: 0, nearest: 0, exact: false });
  });

  test('scanTags transfers the point arrays', async () => {
    const x = Float64Array.from([0, 500]);
    const y = Float64Array.from([0, 500]);
    const scan = await scanTags(x, y, [
      [6, 8],
      [510.0001, 500],
      [500, 490],
    ]);
    expect(scan).toEqual({ scanned: 2, total: 3, indices: [0, 2] });
    expect(x.buffer.byteLength).toBe(0);
    expect(y.buffer.byteLength).toBe(0);
  });

  test('two views of one buffer are transferred once', async () => {
    const both = Float64Array.from([1, 2, 1, 2]);
    const scan = await scanTags(both.subarray(0, 2), both.subarray(2), [[1, 1]]);
    expect(scan.scanned).toBe(1);
    expect(both.buffer.byteLength).toBe(0);
  });

  test('solveTransform, keyframe names and time bounds', async () => {
    const solved = await solveTransform(calibration, image);
    expect(solved.kind).toBe('affine');
    expect(solved.matrix.map((v) => Math.round(v * 1e9) / 1e9)).toEqual([
      50, 0, 100, 0, 50, 100, 0, 0, 1,
    ]);

    const text = encode('1 2 3 4 0.033.png\n2 3 4 5 0.066.png\n');
    expect(await keyframeImageNames(text)).toEqual(['0.033.png', '0.066.png']);
    expect(text.buffer.byteLength).toBe(0);

    const t = Float64Array.from([4, 1, 3]);
    expect(await timeBounds(t, 60)).toEqual({ min: 1, max: 60 });
    expect(t.buffer.byteLength).toBe(0);
  });

  test('errors from the worker arrive with their message', async () => {
    await expect(queryPath(Number.NaN)).rejects.toThrow(/query: time must be a finite number/);
    await expect(scanTags(Float64Array.from([1]), Float64Array.from([1, 2]), [])).rejects.toThrow(
      /x and y differ in length/,
    );
  });

  test('an aborted load terminates the worker; the next call starts a new one', async () => {
    const controller = new AbortController();
    const big = encode(Array.from({ length: 200_000 }, (_, i) => `${i} 1 2 ${i}`).join('\n'));
    const pending = loadPath(
      { text: big, calibration: null, image: null, tags: [] },
      controller.signal,
    );
    controller.abort();
    await expect(pending).rejects.toThrow();
    // The new worker has no path loaded yet.
    await expect(queryPath(0)).rejects.toThrow(/no path is loaded/);
    const path = await loadPath({
      text: encode('0 1 2 3'),
      calibration: null,
      image: null,
      tags: [],
    });
    expect(path.report.points).toBe(1);
  });
});
