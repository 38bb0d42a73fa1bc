// The path player's additions to the engine: each kept point's keyframe index (field 1) and the
// scrub answer with the nearest point's, through sorting. Rules: docs/path-player.md.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createNodePathEngine, type PathEngine } from './path-engine.node.ts';

const encode = (text: string) => new TextEncoder().encode(text);

let engine: PathEngine;
beforeAll(async () => {
  engine = await createNodePathEngine();
});
afterAll(() => engine.dispose());

/** Simple mapping on a 700×650 image: display pixels = map units × 50. */
const load = (text: string) =>
  engine.loadPath({
    text: encode(text),
    calibration: null,
    image: { width: 700, height: 650 },
    tags: [],
  });

describe('keyframe indices (field 1)', () => {
  test('kept points carry their field 1, moved with their times when the file is out of order', () => {
    // Field 1 is the file's own numbering, not the line number; times 3, 1, 2 sort to 1, 2, 3.
    const path = load('70 1 0 3\n50 0 0 1\n60 0.5 0 2\n');
    expect(path.reordered).toBe(true);
    expect(Array.from(path.kept.t)).toEqual([1, 2, 3]);
    expect(Array.from(path.kept.keyframe)).toEqual([50, 60, 70]);
    expect(path.kept.keyframe.buffer.byteLength).toBe(path.kept.keyframe.byteLength);
  });

  test('only the kept points are listed: thinning drops the ones closer than 12 px', () => {
    // 0.1 map units = 5 display px apart: every third point is kept.
    const lines = Array.from({ length: 7 }, (_, i) => `${100 + i} ${0.1 * i} 0 ${i}`);
    const path = load(lines.join('\n'));
    expect(Array.from(path.kept.keyframe)).toEqual([100, 103, 106]);
  });

  test('scrub answers the query plus the nearest point’s field 1', () => {
    load('70 1 0 3\n50 0 0 1\n60 0.5 0 2\n');
    expect(engine.scrub(2.2)).toEqual({ ...engine.query(2.2), nearestKeyframe: 60 });
    expect(engine.scrub(2.2)).toMatchObject({ drawCount: 2, nearest: 1, nearestKeyframe: 60 });
    expect(engine.scrub(-5).nearestKeyframe).toBe(50);
    expect(engine.scrub(99).nearestKeyframe).toBe(70);
  });

  test('fractional and negative indices come back as written', () => {
    load('-3 0 0 0\n2.5 1 0 1\n');
    expect(engine.scrub(0).nearestKeyframe).toBe(-3);
    expect(engine.scrub(1).nearestKeyframe).toBe(2.5);
  });

  test('a path without points has no nearest keyframe; scrub checks like query', () => {
    load('not a keyframe\n');
    expect(engine.scrub(1).nearestKeyframe).toBeNaN();
    expect(() => engine.scrub(Number.NaN)).toThrow(/scrub: time must be a finite number/);
  });
});
