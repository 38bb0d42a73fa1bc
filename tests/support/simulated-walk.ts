// A simulated inspection walk through the demo's Blister Line 1 floor plan, for the path tests and
// the bench: a ground-truth route (around the machines, past the tags), the motion samples a phone
// held up to film would record on it (step bounces, compass heading with an unknown offset, drift
// and noise) and the QR scans at the tags it stops at. Seeded: the same walk on every run.
import { phoneMotion } from '../../scripts/lib/phone-motion.ts';
import { Prng } from '../../scripts/lib/prng.ts';
import type { Anchor, MotionColumns } from '../../workers/path-reconstruction.ts';

/** Blister Line 1: display 800×500, image 1200×750, 50 px/m → metres = display px × 0.03. */
export const METRES_PER_DISPLAY_PX = 1200 / 800 / 50;

/** The line's tags in display pixels (server/demo/dataset.json, Blister Line 1). */
export const BLISTER_TAGS: readonly [number, number][] = [
  [210, 282.67],
  [386.67, 283.33],
  [586.67, 282],
  [747.33, 200],
  [586.67, 137.33],
  [386.67, 138],
  [210, 129.33],
  [660, 350],
];

export interface WalkOptions {
  seed?: number;
  /** Samples per second (DeviceMotionEvent on phones: 50–60 Hz). */
  rate?: number;
  /** Compass drift, degrees per minute. */
  driftDegPerMin?: number;
  /** Heading noise (degrees, 1 σ) and acceleration noise (m/s², 1 σ). */
  headingNoiseDeg?: number;
  accelNoise?: number;
  /** Rounds of the route walked one after the other (a 10-minute recording is about 8). */
  laps?: number;
}

export interface SimulatedWalk {
  duration: number;
  motion: MotionColumns;
  anchors: Anchor[];
  /** Scans as capture stores them: tag index into BLISTER_TAGS and video time. */
  scans: { tagIndex: number; videoTime: number }[];
  /** Ground truth (metres, floor frame) at time t. */
  truth(t: number): [number, number];
}

/**
 * The route visits the front tags left to right, goes round the case packer, the rear tags right
 * to left, with detours between tags (around the stations' guards), and ends at the QC bench.
 */
function routeWaypoints(): { x: number; y: number; tag: number | null }[] {
  const m = METRES_PER_DISPLAY_PX;
  const tag = (i: number) => {
    const [x, y] = BLISTER_TAGS[i] as [number, number];
    return { x: x * m, y: y * m + 0.3, tag: i };
  };
  const via = (x: number, y: number) => ({ x: x * m, y: y * m, tag: null });
  return [
    via(120, 320),
    tag(0),
    via(300, 340),
    tag(1),
    via(480, 345),
    tag(2),
    via(700, 320),
    tag(3),
    via(700, 95),
    tag(4),
    via(480, 90),
    tag(5),
    via(300, 85),
    tag(6),
    via(150, 200),
    via(420, 240),
    via(560, 380),
    tag(7),
  ];
}

export function simulateWalk(options: WalkOptions = {}): SimulatedWalk {
  const rng = new Prng(options.seed ?? 7);
  const rate = options.rate ?? 50;
  const drift = ((options.driftDegPerMin ?? 6) / 60) * (Math.PI / 180);
  const headingNoise = ((options.headingNoiseDeg ?? 4) * Math.PI) / 180;
  const accelNoise = options.accelNoise ?? 0.35;
  // The floor plan's axes are turned against north by this (unknown to the reconstruction).
  const planRotation = rng.range(-Math.PI, Math.PI);

  // Ground truth as a time-stamped polyline: walk at a varying speed, stop 2 s at each tag.
  const points: { t: number; x: number; y: number }[] = [];
  const stops: { tag: number; t: number }[] = [];
  const waypoints = Array.from({ length: options.laps ?? 1 }, routeWaypoints).flat();
  let t = 1;
  const first = waypoints[0] as { x: number; y: number };
  points.push({ t: 0, x: first.x, y: first.y }, { t, x: first.x, y: first.y });
  for (let w = 1; w < waypoints.length; w++) {
    const a = waypoints[w - 1] as { x: number; y: number };
    const b = waypoints[w] as { x: number; y: number; tag: number | null };
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    const speed = rng.range(0.9, 1.3);
    t += length / speed;
    points.push({ t, x: b.x, y: b.y });
    if (b.tag !== null) {
      stops.push({ tag: b.tag, t: t + 1 });
      t += 2;
      points.push({ t, x: b.x, y: b.y });
    }
  }
  const duration = Math.ceil(t + 1);
  const last = points.at(-1) as { t: number; x: number; y: number };
  points.push({ t: duration, x: last.x, y: last.y });

  const truth = (time: number): [number, number] => {
    let i = 1;
    while (i < points.length - 1 && (points[i] as { t: number }).t < time) i++;
    const a = points[i - 1] as { t: number; x: number; y: number };
    const b = points[i] as { t: number; x: number; y: number };
    const f = b.t > a.t ? Math.min(1, Math.max(0, (time - a.t) / (b.t - a.t))) : 1;
    return [a.x + f * (b.x - a.x), a.y + f * (b.y - a.y)];
  };

  // Motion: a step every ~0.55 s while moving (a 0.65 m stride), the phone held upright.
  const motion = phoneMotion(truth, duration, rng, {
    rate,
    drift,
    headingNoise,
    accelNoise,
    planRotation,
    stride: 0.65,
  });

  const anchors: Anchor[] = [];
  const scans: { tagIndex: number; videoTime: number }[] = [];
  for (const stop of stops) {
    const [x, y] = BLISTER_TAGS[stop.tag] as [number, number];
    anchors.push({ t: stop.t, x: x * METRES_PER_DISPLAY_PX, y: y * METRES_PER_DISPLAY_PX });
    scans.push({ tagIndex: stop.tag, videoTime: stop.t });
  }
  return { duration, motion, anchors, scans, truth };
}

/** Mean and 95th-percentile distance (metres) of a path from the walk's ground truth. */
export function pathError(
  walk: SimulatedWalk,
  path: { t: ArrayLike<number>; x: ArrayLike<number>; y: ArrayLike<number> },
): { mean: number; p95: number } {
  const errors: number[] = [];
  for (let i = 0; i < path.t.length; i++) {
    const [x, y] = walk.truth(path.t[i] as number);
    errors.push(Math.hypot((path.x[i] as number) - x, (path.y[i] as number) - y));
  }
  errors.sort((a, b) => a - b);
  const mean = errors.reduce((sum, e) => sum + e, 0) / errors.length;
  return { mean, p95: errors[Math.min(errors.length - 1, Math.floor(errors.length * 0.95))] ?? 0 };
}
