// The anchored path (workers/path-reconstruction.ts): the engine against the float64 reference on
// random walks, the anchors always met, the accuracy target on the simulated walk through the demo
// floor plan, and degenerate capture data answered with a reason instead of a wrong path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Anchor,
  anchorDeadReckoning,
  detectSteps,
  interpolateAnchors,
  type MotionColumns,
  outputTimes,
  reconstructPath,
  SEGMENT_PRIOR_M2,
  type Steps,
} from '../workers/path-reconstruction.ts';
import { anchorDeadReckoningReference } from './reference/path-reconstruction.ts';
import { seedProperties } from './support/property-seed.ts';
import { pathError, simulateWalk } from './support/simulated-walk.ts';

seedProperties('path-reconstruction.property.test.ts');

const RELATIVE = 1e-9;

/** Random steps (increasing times, unit headings) and anchors inside their span. */
const walkArbitrary = fc
  .record({
    gaps: fc.array(fc.double({ min: 0.3, max: 2, noNaN: true }), { minLength: 1, maxLength: 60 }),
    angles: fc.array(fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), {
      minLength: 60,
      maxLength: 60,
    }),
    anchorFractions: fc.uniqueArray(fc.double({ min: 0, max: 1, noNaN: true }), {
      minLength: 2,
      maxLength: 6,
    }),
    places: fc.array(
      fc.tuple(
        fc.double({ min: -50, max: 50, noNaN: true }),
        fc.double({ min: -50, max: 50, noNaN: true }),
      ),
      { minLength: 6, maxLength: 6 },
    ),
    stride: fc.double({ min: 0.3, max: 1, noNaN: true }),
  })
  .map(({ gaps, angles, anchorFractions, places, stride }) => {
    const t = new Float64Array(gaps.length);
    let time = 0.5;
    gaps.forEach((gap, i) => {
      time += gap;
      t[i] = time;
    });
    const steps: Steps = {
      t,
      hx: Float64Array.from(gaps, (_, i) => Math.cos(angles[i] as number)),
      hy: Float64Array.from(gaps, (_, i) => Math.sin(angles[i] as number)),
      start: 0,
    };
    const end = time + 1;
    // Scan times are whole milliseconds on the video's clock.
    const anchorTimes = [...new Set(anchorFractions.map((f) => Math.round(f * end * 1000) / 1000))];
    const anchors: Anchor[] = anchorTimes
      .sort((a, b) => a - b)
      .map((t, i) => {
        const [x, y] = places[i] as [number, number];
        return { t, x, y };
      });
    return { steps, anchors, end, stride };
  });

describe('anchored dead reckoning', () => {
  it('agrees with the float64 reference', () => {
    fc.assert(
      fc.property(walkArbitrary, ({ steps, anchors, end, stride }) => {
        const times = outputTimes({
          duration: end,
          interval: 0.25,
          extraTimes: anchors.map((a) => a.t),
        });
        const path = anchorDeadReckoning(steps, anchors, times, stride);
        if (typeof path === 'string') {
          // Only when the steps between the anchors add up to nothing.
          expect(path).toMatch(/no steps/);
          return;
        }
        const reference = anchorDeadReckoningReference(
          steps,
          anchors,
          times,
          stride,
          SEGMENT_PRIOR_M2,
        );
        for (let i = 0; i < times.length; i++) {
          const scale = Math.max(
            1,
            Math.abs(reference.x[i] as number),
            Math.abs(reference.y[i] as number),
          );
          expect(Math.abs((path.x[i] as number) - (reference.x[i] as number))).toBeLessThanOrEqual(
            RELATIVE * scale * 100,
          );
          expect(Math.abs((path.y[i] as number) - (reference.y[i] as number))).toBeLessThanOrEqual(
            RELATIVE * scale * 100,
          );
        }
      }),
      { numRuns: 150 },
    );
  });

  it('passes through every anchor at its time', () => {
    fc.assert(
      fc.property(walkArbitrary, ({ steps, anchors, stride }) => {
        const times = Float64Array.from(anchors, (a) => a.t);
        const path = anchorDeadReckoning(steps, anchors, times, stride);
        if (typeof path === 'string') return;
        anchors.forEach((a, i) => {
          expect(path.x[i]).toBeCloseTo(a.x, 6);
          expect(path.y[i]).toBeCloseTo(a.y, 6);
        });
      }),
      { numRuns: 150 },
    );
  });
});

describe('the simulated walk through the demo floor plan', () => {
  for (const seed of [3, 11, 29]) {
    it(`is reconstructed within the accuracy target (seed ${seed})`, () => {
      const walk = simulateWalk({ seed });
      const result = reconstructPath(walk.anchors, walk.motion, {
        duration: walk.duration,
        interval: 0.1,
      });
      if (!result.ok) throw new Error(result.reason);
      expect(result.method).toBe('motion');
      const error = pathError(walk, result);
      const straight = pathError(walk, {
        t: result.t,
        ...interpolateAnchors(walk.anchors, result.t),
      });
      expect(error.mean).toBeLessThanOrEqual(0.5);
      expect(error.p95).toBeLessThanOrEqual(1.0);
      expect(error.mean).toBeLessThanOrEqual(0.5 * straight.mean);
    });
  }
});

describe('degenerate capture data', () => {
  const walk = simulateWalk({ seed: 5 });
  const options = { duration: walk.duration, interval: 0.1 };
  const copy = (m: MotionColumns) => ({
    t: Array.from(m.t),
    ax: Array.from(m.ax),
    ay: Array.from(m.ay),
    az: Array.from(m.az),
    alpha: Array.from(m.alpha),
    beta: Array.from(m.beta),
    gamma: Array.from(m.gamma),
  });

  it('without motion samples: interpolation between the anchors, and why', () => {
    const result = reconstructPath(walk.anchors, null, options);
    expect(result).toMatchObject({
      ok: true,
      method: 'interpolated',
      note: 'no motion samples were recorded',
    });
  });

  it('with fewer than two anchors: no path, and why', () => {
    expect(reconstructPath(walk.anchors.slice(0, 1), walk.motion, options)).toEqual({
      ok: false,
      reason: 'fewer than two scans of tags with a known floor-plan position (1): no path',
    });
    expect(reconstructPath([], null, options)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('(0)'),
    });
  });

  it('with anchors out of order in time: the same path as in order', () => {
    const shuffled = [...walk.anchors].reverse();
    const a = reconstructPath(shuffled, walk.motion, options);
    const b = reconstructPath(walk.anchors, walk.motion, options);
    expect(a).toEqual(b);
  });

  it('with two scans at one time naming different places: no path, and why', () => {
    const [first, second] = walk.anchors as [Anchor, Anchor];
    const result = reconstructPath([first, { ...second, t: first.t }], walk.motion, options);
    expect(result).toEqual({
      ok: false,
      reason: `two tag scans at the same video time (${first.t} s) name different places`,
    });
  });

  it('with some NaN samples: the motion is still used', () => {
    const motion = copy(walk.motion);
    for (let i = 0; i < motion.t.length; i += 17) motion.ax[i] = Number.NaN;
    const result = reconstructPath(walk.anchors, motion, options);
    expect(result).toMatchObject({ ok: true, method: 'motion' });
    if (result.ok) expect(pathError(walk, result).mean).toBeLessThanOrEqual(0.5);
  });

  it('with mostly NaN samples, unequal columns or time going back: interpolation, and why', () => {
    const nan = copy(walk.motion);
    for (let i = 0; i < nan.t.length; i++) if (i % 4 !== 0) nan.alpha[i] = Number.NaN;
    expect(reconstructPath(walk.anchors, nan, options)).toMatchObject({
      method: 'interpolated',
      note: expect.stringMatching(
        /^motion samples not used: only \d+ of the \d+ the phone recorded have every reading \(time, acceleration, orientation\), and counting steps needs at least 2 and half of them$/,
      ),
    });
    const short = { ...copy(walk.motion), gamma: [1, 2, 3] };
    expect(reconstructPath(walk.anchors, short, options)).toMatchObject({
      note: 'motion samples not used: motion columns differ in length',
    });
    const back = copy(walk.motion);
    back.t[100] = 0;
    expect(reconstructPath(walk.anchors, back, options)).toMatchObject({
      note: expect.stringContaining('motion sample times go back at sample 101'),
    });
  });

  it('never throws and never answers a non-finite point on garbage motion', () => {
    const value = fc.oneof(
      fc.double(),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, 1e308),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(value, value, value, value, value, value, value), { maxLength: 300 }),
        (rows) => {
          const motion: MotionColumns = {
            t: rows.map((r) => r[0]),
            ax: rows.map((r) => r[1]),
            ay: rows.map((r) => r[2]),
            az: rows.map((r) => r[3]),
            alpha: rows.map((r) => r[4]),
            beta: rows.map((r) => r[5]),
            gamma: rows.map((r) => r[6]),
          };
          const steps = detectSteps(motion);
          if (typeof steps !== 'string') {
            expect(steps.t.every(Number.isFinite)).toBe(true);
          }
          const result = reconstructPath(walk.anchors, motion, { duration: 10, interval: 0.5 });
          if (!result.ok) throw new Error(result.reason);
          expect(result.x.every(Number.isFinite) && result.y.every(Number.isFinite)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
