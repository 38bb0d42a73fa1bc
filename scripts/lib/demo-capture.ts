// What the operator's phone records beside a demo video (server/schemas/capture.ts): a QR scan of
// each tag the walk passes, at its closest approach, and the motion samples of a phone held up to
// film, from the walk's ground truth in metres. The server's analysis rebuilds the path from these
// as it does for a real recording (docs/analysis.md, "The path").
import type { DemoCapture } from '../../server/demo/dataset-types.ts';
import type { LineLayout } from './demo-floorplans.ts';
import type { Walk } from './demo-scene.ts';
import { phoneMotion } from './phone-motion.ts';
import { Prng } from './prng.ts';
import type { Point } from './transform.ts';

/** A tag is scanned where the walk passes within this many image pixels (spec §4's 0.1 × 100). */
export const SCAN_DISTANCE_PX = 10;
/** The walk is searched for closest approaches at this time step (seconds). */
const SCAN_STEP_S = 0.01;
/** The phone counts a code seen again within this many seconds as the same pass (docs/capture.md). */
const SAME_PASS_S = 3;
const MOTION_RATE_HZ = 50;
const STRIDE_M = 0.75;

const round = (v: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(v * f) / f || 0;
};

export interface CaptureInput {
  layout: LineLayout;
  walk: Walk;
  /** When the recording started (ISO); scans are stamped from it. */
  timestamp: string;
  duration: number;
  /** Image pixels to metres in the image's handedness (the demo's calibration, inverted). */
  toMetres: (p: Point) => Point;
  seed: number;
}

/**
 * Each pass of the walk within SCAN_DISTANCE_PX of a tag: the tag's index and the time of the
 * closest approach. Approaches less than SAME_PASS_S apart are one pass, as on the phone.
 */
export function tagPasses(
  layout: LineLayout,
  walk: Walk,
  duration: number,
): { tag: number; t: number }[] {
  const passes: { tag: number; t: number }[] = [];
  const steps = Math.round(duration / SCAN_STEP_S);
  layout.tags.forEach(({ at }, tag) => {
    let pass: { t: number; d: number; last: number } | null = null;
    for (let i = 0; i <= steps; i++) {
      const t = i * SCAN_STEP_S;
      const [x, y] = walk.position(t);
      const d = Math.hypot(x - at[0], y - at[1]);
      if (d > SCAN_DISTANCE_PX) continue;
      if (pass && t - pass.last >= SAME_PASS_S) {
        passes.push({ tag, t: pass.t });
        pass = null;
      }
      if (!pass) pass = { t, d, last: t };
      if (d < pass.d) Object.assign(pass, { t, d });
      pass.last = t;
    }
    if (pass) passes.push({ tag, t: pass.t });
  });
  return passes.sort((a, b) => a.t - b.t);
}

export function buildCapture(input: CaptureInput): DemoCapture {
  const { layout, walk, timestamp, duration, toMetres, seed } = input;
  const start = Date.parse(timestamp);
  const scans = tagPasses(layout, walk, duration).map(({ tag, t }) => {
    const videoTime = round(t, 3);
    return {
      code: layout.tags[tag]?.qrCode ?? '',
      videoTime,
      at: new Date(start + Math.round(videoTime * 1000)).toISOString(),
    };
  });
  const rng = new Prng(seed);
  // The hall's axes against north: unknown to the analysis, which fits it from the scans.
  const planRotation = rng.range(-Math.PI, Math.PI);
  const motion = phoneMotion((t) => toMetres(walk.position(t)), duration, rng, {
    rate: MOTION_RATE_HZ,
    drift: (6 / 60) * (Math.PI / 180),
    headingNoise: (4 * Math.PI) / 180,
    accelNoise: 0.35,
    planRotation,
    stride: STRIDE_M,
  });
  const column = (values: number[], decimals: number) => values.map((v) => round(v, decimals));
  return {
    scans,
    motion: {
      t: column(motion.t, 3),
      ax: column(motion.ax, 3),
      ay: column(motion.ay, 3),
      az: column(motion.az, 3),
      alpha: column(motion.alpha, 2),
      beta: column(motion.beta, 2),
      gamma: column(motion.gamma, 2),
      absolute: false,
    },
  };
}
