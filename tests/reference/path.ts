// Reference path operations in plain TypeScript: straightforward loops that are obviously right.
// They double as the bench's "plain JS" baselines, so they are written as a competent developer
// would write them (typed arrays, no allocation in the loops), but with no index or precomputation.
import type { XY } from '../../workers/path-types.ts';

/**
 * Greedy thinning: keep the first point, then every point at least `minDistance` from the last
 * kept one. Returns the kept indices in order.
 */
export function thinReference(x: Float64Array, y: Float64Array, minDistance: number): number[] {
  const kept: number[] = [];
  if (x.length === 0) return kept;
  const limit = minDistance * minDistance;
  kept.push(0);
  let lastX = x[0]!;
  let lastY = y[0]!;
  for (let i = 1; i < x.length; i++) {
    const dx = x[i]! - lastX;
    const dy = y[i]! - lastY;
    if (dx * dx + dy * dy >= limit) {
      kept.push(i);
      lastX = x[i]!;
      lastY = y[i]!;
    }
  }
  return kept;
}

/**
 * Tag scan by brute force: a tag is scanned when some point lies within `radius` of it.
 * Each tag stops at its first hit; returns the scanned tag indices in tag order.
 */
export function scanTagsReference(
  x: Float64Array,
  y: Float64Array,
  tags: readonly XY[],
  radius: number,
): number[] {
  const limit = radius * radius;
  const scanned: number[] = [];
  tags.forEach(([tx, ty], tag) => {
    for (let i = 0; i < x.length; i++) {
      const dx = x[i]! - tx;
      const dy = y[i]! - ty;
      if (dx * dx + dy * dy <= limit) {
        scanned.push(tag);
        return;
      }
    }
  });
  return scanned;
}

/** Minimum and maximum timestamp; the maximum becomes the video duration once that is known. */
export function timeBoundsReference(
  t: Float64Array,
  duration?: number,
): { min: number; max: number } {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of t) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (t.length === 0) return { min: 0, max: duration ?? 0 };
  return { min, max: duration ?? max };
}

/** Spec §9: the current point matches the time when within 0.001 s. */
export const TIME_MATCH_TOLERANCE_S = 0.001;
/** docs/path-core.md: 1 ns of slack, so a difference that is 0.001 in decimal still matches. */
const TIME_MATCH_SLACK_S = 1e-9;

/**
 * Scrub query by linear scan over time-sorted points: how many kept points have t ≤ time, which
 * point is nearest in time (the earliest of equally near ones), and whether it matches the time.
 */
export function queryReference(
  t: Float64Array,
  kept: readonly number[],
  time: number,
): { drawCount: number; nearest: number; exact: boolean } {
  let drawCount = 0;
  for (const k of kept) if (t[k]! <= time) drawCount++;
  let nearest = -1;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < t.length; i++) {
    const d = Math.abs(t[i]! - time);
    if (d < best) {
      best = d;
      nearest = i;
    }
  }
  return { drawCount, nearest, exact: best <= TIME_MATCH_TOLERANCE_S + TIME_MATCH_SLACK_S };
}
