// The motion samples a phone held up to film records on a walk (server/schemas/capture.ts columns):
// a step bounce in the acceleration while moving, and a compass heading (W3C alpha) from the
// direction of travel, turned by the plan's unknown rotation against north, with drift and noise.
// Shared by the demo generator (the queued demo video's capture) and the path tests' simulated walk.
import type { Prng } from './prng.ts';

const G = 9.81;

/** A standard normal draw (Box–Muller). */
export function gaussian(rng: Prng): number {
  const u = Math.max(1e-12, rng.next());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

export interface PhoneMotionOptions {
  /** Samples per second (DeviceMotionEvent on phones: 50–60 Hz). */
  rate: number;
  /** Compass drift, radians per second. */
  drift: number;
  /** Heading noise (radians, 1 σ) and acceleration noise (m/s², 1 σ). */
  headingNoise: number;
  accelNoise: number;
  /** How far the floor plan's axes are turned against north (radians). */
  planRotation: number;
  /** Metres per step: sets the cadence from the speed. */
  stride: number;
}

export interface PhoneMotion {
  t: number[];
  ax: number[];
  ay: number[];
  az: number[];
  alpha: number[];
  beta: number[];
  gamma: number[];
}

/**
 * Samples from 0 to `duration` of a walk whose position (metres, x right and y down as on the
 * floor-plan image) at time t is `truth(t)`.
 */
export function phoneMotion(
  truth: (t: number) => readonly [number, number],
  duration: number,
  rng: Prng,
  options: PhoneMotionOptions,
): PhoneMotion {
  const { rate, drift, headingNoise, accelNoise, planRotation, stride } = options;
  const n = Math.floor(duration * rate) + 1;
  const columns: PhoneMotion = {
    t: new Array<number>(n),
    ax: new Array<number>(n),
    ay: new Array<number>(n),
    az: new Array<number>(n),
    alpha: new Array<number>(n),
    beta: new Array<number>(n),
    gamma: new Array<number>(n),
  };
  let phase = 0;
  let heading = 0;
  for (let i = 0; i < n; i++) {
    const time = i / rate;
    const [x0, y0] = truth(time);
    const [x1, y1] = truth(time + 1 / rate);
    const vx = (x1 - x0) * rate;
    const vy = (y1 - y0) * rate;
    const speed = Math.hypot(vx, vy);
    if (speed > 0.05) {
      heading = Math.atan2(vy, vx); // floor frame (x right, y down)
      phase += speed / stride / rate; // one step per stride
    }
    // Floor direction → (east, south) by the plan's rotation → (east, north) → W3C alpha.
    const east = Math.cos(heading + planRotation);
    const north = -Math.sin(heading + planRotation);
    const alpha = Math.atan2(-east, north) + drift * time + headingNoise * gaussian(rng);
    const bounce = speed > 0.05 ? 3 * Math.cos(Math.PI * phase) ** 2 - 1.5 : 0;
    columns.t[i] = time;
    columns.ax[i] = accelNoise * gaussian(rng);
    columns.ay[i] = G + bounce + accelNoise * gaussian(rng); // upright: gravity along the device's y
    columns.az[i] = 0.3 * bounce + accelNoise * gaussian(rng);
    columns.alpha[i] = ((((alpha * 180) / Math.PI) % 360) + 360) % 360;
    columns.beta[i] = 88 + 2 * gaussian(rng);
    columns.gamma[i] = 2 * gaussian(rng);
  }
  return columns;
}
