// The operator's path from what the phone recorded (docs/analysis.md, "The path"): pedestrian dead
// reckoning from the motion samples (steps from the acceleration, heading from the orientation),
// pinned to the floor plan by the QR scans (anchors: a tag's position at its scan time) with a
// least-squares heading-and-stride fit and a drift correction between consecutive anchors. Without
// usable motion it interpolates between the anchors. Pure float64 maths on typed arrays: no DOM, no
// Node, so the server's job and the bench run the same code (tests/reference has the reference).

/** A tag's floor-plan position (metres; x right, y down as on the image) at its scan time. */
export interface Anchor {
  t: number;
  x: number;
  y: number;
}

/** Motion columns as the capture stores them (server/schemas/capture.ts MotionSamples). */
export interface MotionColumns {
  t: ArrayLike<number>;
  ax: ArrayLike<number>;
  ay: ArrayLike<number>;
  az: ArrayLike<number>;
  alpha: ArrayLike<number>;
  beta: ArrayLike<number>;
  gamma: ArrayLike<number>;
}

export interface ReconstructOptions {
  /** Path points are written every `interval` seconds from 0 to `duration`, plus `extraTimes`. */
  duration: number;
  interval: number;
  extraTimes?: readonly number[];
  /** Stride before calibration (metres); the anchors rescale it. */
  stride?: number;
}

export type PathResult =
  | {
      ok: true;
      method: 'motion' | 'interpolated';
      t: Float64Array;
      x: Float64Array;
      y: Float64Array;
      /** Why motion samples were not used, when they were present; null otherwise. */
      note: string | null;
      steps: number;
    }
  | { ok: false; reason: string };

export const DEFAULT_STRIDE_M = 0.7;
/** A step is an acceleration peak this far above the walk's mean magnitude (m/s²). */
export const STEP_PEAK_MS2 = 0.8;
/** Steps closer than this are one step (a person makes at most about 3 steps a second). */
export const MIN_STEP_INTERVAL_S = 0.3;
/** Width of the moving average that smooths the acceleration magnitude. */
export const SMOOTHING_S = 0.15;
/** Ridge weight pulling a segment's heading/stride fit towards the whole walk's (m²). */
export const SEGMENT_PRIOR_M2 = 1;
/** Below this share of finite samples the motion is not used. */
const MIN_USABLE_SHARE = 0.5;

/** Steps: times and unit heading vectors in the (east, south) frame. */
export interface Steps {
  t: Float64Array;
  hx: Float64Array;
  hy: Float64Array;
  /** The first usable sample's time: the walk's origin. */
  start: number;
}

/** Anchors sorted by time, or the reason they cannot pin a path. */
/** Tag scans with a known position a path needs: one fixes a point, not a route. */
export const MIN_PATH_ANCHORS = 2;

export function checkAnchors(anchors: readonly Anchor[]): Anchor[] | string {
  for (const a of anchors) {
    if (!Number.isFinite(a.t) || !Number.isFinite(a.x) || !Number.isFinite(a.y)) {
      return 'a tag scan has no finite time or position';
    }
  }
  const sorted = [...anchors].sort((a, b) => a.t - b.t);
  if (sorted.length < MIN_PATH_ANCHORS) {
    return `fewer than two scans of tags with a known floor-plan position (${sorted.length}): no path`;
  }
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1] as Anchor;
    const b = sorted[i] as Anchor;
    if (b.t === a.t && (b.x !== a.x || b.y !== a.y)) {
      return `two tag scans at the same video time (${a.t} s) name different places`;
    }
  }
  return sorted;
}

/** The heading of the phone's forward direction in the (east, north) frame, from W3C angles. */
export function headingVector(
  alphaDeg: number,
  betaDeg: number,
  gammaDeg: number,
): [number, number] {
  const r = Math.PI / 180;
  const sA = Math.sin(alphaDeg * r);
  const cA = Math.cos(alphaDeg * r);
  const sB = Math.sin(betaDeg * r);
  const cB = Math.cos(betaDeg * r);
  const sG = Math.sin(gammaDeg * r);
  const cG = Math.cos(gammaDeg * r);
  // R = Rz(alpha)·Rx(beta)·Ry(gamma). The device's top edge (R·ey) points forward when the phone
  // lies flat, its back camera (−R·ez) when it is held up to film: their horizontal parts add up,
  // so the sum holds for every grip in between.
  return [-cB * sA - cG * sA * sB - cA * sG, cA * cB + cA * cG * sB - sA * sG];
}

/** Steps from the motion samples, or the reason the samples cannot be used. */
export function detectSteps(motion: MotionColumns): Steps | string {
  const n = motion.t.length;
  const columns = [motion.ax, motion.ay, motion.az, motion.alpha, motion.beta, motion.gamma];
  if (columns.some((column) => column.length !== n)) return 'motion columns differ in length';
  const keep = new Int32Array(n);
  let m = 0;
  let lastT = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const t = motion.t[i] as number;
    let finite = Number.isFinite(t);
    for (const column of columns) finite &&= Number.isFinite(column[i] as number);
    if (!finite) continue;
    if (t < lastT)
      return `motion sample times go back at sample ${i + 1} (${t} s after ${lastT} s)`;
    lastT = t;
    keep[m++] = i;
  }
  if (m < 2 || m < n * MIN_USABLE_SHARE) {
    if (n < 2) return `the phone recorded only ${n}, and counting steps needs at least 2`;
    return (
      `only ${m} of the ${n} the phone recorded have every reading (time, acceleration, ` +
      'orientation), and counting steps needs at least 2 and half of them'
    );
  }
  const first = motion.t[keep[0] as number] as number;
  const span = (motion.t[keep[m - 1] as number] as number) - first;
  if (!(span > 0)) return 'the motion samples span no time';
  const rate = (m - 1) / span;

  // Smoothed magnitude (centred moving average by index, through prefix sums).
  const magnitude = new Float64Array(m);
  let mean = 0;
  for (let k = 0; k < m; k++) {
    const i = keep[k] as number;
    const ax = motion.ax[i] as number;
    const ay = motion.ay[i] as number;
    const az = motion.az[i] as number;
    magnitude[k] = Math.sqrt(ax * ax + ay * ay + az * az);
    mean += magnitude[k] as number;
  }
  mean /= m;
  const half = Math.max(1, Math.round((SMOOTHING_S * rate) / 2));
  const prefix = new Float64Array(m + 1);
  for (let k = 0; k < m; k++) prefix[k + 1] = (prefix[k] as number) + (magnitude[k] as number);
  const smooth = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const lo = Math.max(0, k - half);
    const hi = Math.min(m, k + half + 1);
    smooth[k] = ((prefix[hi] as number) - (prefix[lo] as number)) / (hi - lo);
  }

  // Peaks above the threshold, at least MIN_STEP_INTERVAL_S apart (a higher one nearby wins).
  const peaks: number[] = [];
  for (let k = 1; k < m - 1; k++) {
    const v = smooth[k] as number;
    if (
      v < mean + STEP_PEAK_MS2 ||
      v < (smooth[k - 1] as number) ||
      v <= (smooth[k + 1] as number)
    ) {
      continue;
    }
    const t = motion.t[keep[k] as number] as number;
    const previous = peaks.at(-1);
    if (
      previous !== undefined &&
      t - (motion.t[keep[previous] as number] as number) < MIN_STEP_INTERVAL_S
    ) {
      if (v > (smooth[previous] as number)) peaks[peaks.length - 1] = k;
      continue;
    }
    peaks.push(k);
  }

  // Each step's heading: the mean heading vector over the samples since the previous step.
  const steps: Steps = {
    t: new Float64Array(peaks.length),
    hx: new Float64Array(peaks.length),
    hy: new Float64Array(peaks.length),
    start: first,
  };
  let from = 0;
  for (let s = 0; s < peaks.length; s++) {
    const to = peaks[s] as number;
    let sx = 0;
    let sy = 0;
    for (let k = from; k <= to; k++) {
      const i = keep[k] as number;
      const [east, north] = headingVector(
        motion.alpha[i] as number,
        motion.beta[i] as number,
        motion.gamma[i] as number,
      );
      sx += east;
      sy -= north; // (east, south): the same handedness as image coordinates (y down)
    }
    const norm = Math.hypot(sx, sy);
    steps.t[s] = motion.t[keep[to] as number] as number;
    steps.hx[s] = norm > 0 ? sx / norm : 0;
    steps.hy[s] = norm > 0 ? sy / norm : 0;
    from = to + 1;
  }
  return steps;
}

/** The sorted output times: every `interval` from 0 to `duration`, plus the extra times. */
export function outputTimes(options: ReconstructOptions): Float64Array {
  const { duration, interval } = options;
  const count = Math.floor(duration / interval + 1e-9) + 1;
  const extra = (options.extraTimes ?? []).filter((t) => t >= 0 && t <= duration);
  const times = new Float64Array(count + extra.length);
  for (let i = 0; i < count; i++) times[i] = Math.round(i * interval * 1e6) / 1e6;
  times.set(extra, count);
  times.sort();
  return times;
}

/** Dead-reckoned positions (unrotated, unit stride) at `times`: steps walked linearly in time. */
function deadReckonAt(
  steps: Steps,
  times: Float64Array,
): { x: Float64Array; y: Float64Array; d: Float64Array } {
  const x = new Float64Array(times.length);
  const y = new Float64Array(times.length);
  const d = new Float64Array(times.length);
  let s = 0;
  let px = 0;
  let py = 0;
  let pd = 0;
  let prevT = steps.start;
  const n = steps.t.length;
  for (let i = 0; i < times.length; i++) {
    const t = times[i] as number;
    while (s < n && (steps.t[s] as number) <= t) {
      px += steps.hx[s] as number;
      py += steps.hy[s] as number;
      pd += 1;
      prevT = steps.t[s] as number;
      s++;
    }
    let f = 0;
    if (s < n && t > prevT) f = (t - prevT) / ((steps.t[s] as number) - prevT);
    x[i] = px + f * (s < n ? (steps.hx[s] as number) : 0);
    y[i] = py + f * (s < n ? (steps.hy[s] as number) : 0);
    d[i] = pd + f * (s < n ? 1 : 0);
  }
  return { x, y, d };
}

/** Linear interpolation between the anchors by time (held before the first and after the last). */
export function interpolateAnchors(
  anchors: readonly Anchor[],
  times: Float64Array,
): { x: Float64Array; y: Float64Array } {
  const x = new Float64Array(times.length);
  const y = new Float64Array(times.length);
  let k = 0;
  for (let i = 0; i < times.length; i++) {
    const t = times[i] as number;
    while (k < anchors.length - 2 && (anchors[k + 1] as Anchor).t <= t) k++;
    const a = anchors[k] as Anchor;
    const b = anchors[k + 1] as Anchor;
    const f = b.t > a.t ? Math.min(1, Math.max(0, (t - a.t) / (b.t - a.t))) : t < a.t ? 0 : 1;
    x[i] = a.x + f * (b.x - a.x);
    y[i] = a.y + f * (b.y - a.y);
  }
  return { x, y };
}

/**
 * Dead reckoning pinned to the anchors. Per segment k (anchor k to k+1) a complex factor c_k
 * (rotation and stride) maps the reckoned displacement D_k onto the anchors' Δp_k in the least-
 * squares sense, pulled towards the whole walk's factor c by SEGMENT_PRIOR_M2; what c_k·D_k still
 * misses is spread over the segment in proportion to the distance walked (linear drift).
 */
export function anchorDeadReckoning(
  steps: Steps,
  anchors: readonly Anchor[],
  times: Float64Array,
  stride: number,
): { x: Float64Array; y: Float64Array } | string {
  const k = anchors.length;
  const anchorTimes = new Float64Array(k);
  for (let i = 0; i < k; i++) anchorTimes[i] = (anchors[i] as Anchor).t;
  const at = deadReckonAt(steps, anchorTimes);
  // Whole-walk factor: c = Σ conj(D)·Δp / Σ |D|².
  let nr = 0;
  let ni = 0;
  let den = 0;
  const segments = k - 1;
  const dx = new Float64Array(segments);
  const dy = new Float64Array(segments);
  for (let s = 0; s < segments; s++) {
    dx[s] = stride * ((at.x[s + 1] as number) - (at.x[s] as number));
    dy[s] = stride * ((at.y[s + 1] as number) - (at.y[s] as number));
    const a = anchors[s] as Anchor;
    const b = anchors[s + 1] as Anchor;
    const px = b.x - a.x;
    const py = b.y - a.y;
    nr += (dx[s] as number) * px + (dy[s] as number) * py;
    ni += (dx[s] as number) * py - (dy[s] as number) * px;
    den += (dx[s] as number) ** 2 + (dy[s] as number) ** 2;
  }
  if (!(den > 1e-9)) return 'no steps were detected between the tag scans';
  const cr = nr / den;
  const ci = ni / den;
  const segR = new Float64Array(segments);
  const segI = new Float64Array(segments);
  const errX = new Float64Array(segments);
  const errY = new Float64Array(segments);
  for (let s = 0; s < segments; s++) {
    const a = anchors[s] as Anchor;
    const b = anchors[s + 1] as Anchor;
    const px = b.x - a.x;
    const py = b.y - a.y;
    const ddx = dx[s] as number;
    const ddy = dy[s] as number;
    const d2 = ddx * ddx + ddy * ddy + SEGMENT_PRIOR_M2;
    const r = (ddx * px + ddy * py + SEGMENT_PRIOR_M2 * cr) / d2;
    const i = (ddx * py - ddy * px + SEGMENT_PRIOR_M2 * ci) / d2;
    segR[s] = r;
    segI[s] = i;
    errX[s] = px - (r * ddx - i * ddy);
    errY[s] = py - (i * ddx + r * ddy);
  }
  const walked = deadReckonAt(steps, times);
  const x = new Float64Array(times.length);
  const y = new Float64Array(times.length);
  let s = 0;
  for (let j = 0; j < times.length; j++) {
    const t = times[j] as number;
    while (s < segments - 1 && (anchorTimes[s + 1] as number) <= t) s++;
    // Before the first anchor the first segment's factor applies, after the last the last one's.
    const base =
      t < (anchorTimes[0] as number) ? 0 : t > (anchorTimes[k - 1] as number) ? k - 1 : s;
    const a = anchors[base] as Anchor;
    const vx = stride * ((walked.x[j] as number) - (at.x[base] as number));
    const vy = stride * ((walked.y[j] as number) - (at.y[base] as number));
    const r = segR[s] as number;
    const i = segI[s] as number;
    let ex = 0;
    let ey = 0;
    if (base === s && t <= (anchorTimes[s + 1] as number)) {
      const t0 = anchorTimes[s] as number;
      const t1 = anchorTimes[s + 1] as number;
      const d0 = at.d[s] as number;
      const d1 = at.d[s + 1] as number;
      const f =
        d1 > d0 ? ((walked.d[j] as number) - d0) / (d1 - d0) : t1 > t0 ? (t - t0) / (t1 - t0) : 1;
      ex = f * (errX[s] as number);
      ey = f * (errY[s] as number);
    }
    x[j] = a.x + r * vx - i * vy + ex;
    y[j] = a.y + i * vx + r * vy + ey;
  }
  return { x, y };
}

/** The whole path step: anchors checked, motion used when it can be, else interpolation. */
export function reconstructPath(
  anchorsIn: readonly Anchor[],
  motion: MotionColumns | null,
  options: ReconstructOptions,
): PathResult {
  const anchors = checkAnchors(anchorsIn);
  if (typeof anchors === 'string') return { ok: false, reason: anchors };
  const times = outputTimes(options);
  let note: string | null = motion ? null : 'no motion samples were recorded';
  if (motion) {
    const steps = detectSteps(motion);
    if (typeof steps === 'string') {
      note = `motion samples not used: ${steps}`;
    } else {
      const path = anchorDeadReckoning(steps, anchors, times, options.stride ?? DEFAULT_STRIDE_M);
      if (typeof path !== 'string') {
        return { ok: true, method: 'motion', t: times, ...path, note: null, steps: steps.t.length };
      }
      note = `motion samples not used: ${path}`;
    }
  }
  return {
    ok: true,
    method: 'interpolated',
    t: times,
    ...interpolateAnchors(anchors, times),
    note,
    steps: 0,
  };
}
