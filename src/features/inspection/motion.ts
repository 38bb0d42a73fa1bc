// Device motion and orientation samples on the video's clock, in columns (server/schemas/capture.ts),
// for the analysis to reconstruct the path. iOS asks the user first (requestMotionPermission must
// run in a tap handler).
import type { MotionSamples } from '../../types/api.ts';

type PermissionAsker = { requestPermission?: () => Promise<'granted' | 'denied'> };

/** Asks for motion and orientation access where the browser requires it (iOS); true if allowed. */
export async function requestMotionPermission(): Promise<boolean> {
  const askers = [
    (globalThis as { DeviceMotionEvent?: PermissionAsker }).DeviceMotionEvent,
    (globalThis as { DeviceOrientationEvent?: PermissionAsker }).DeviceOrientationEvent,
  ];
  let allowed = true;
  for (const asker of askers) {
    if (asker?.requestPermission) {
      try {
        allowed = (await asker.requestPermission()) === 'granted' && allowed;
      } catch {
        allowed = false;
      }
    }
  }
  return allowed;
}

const round = (value: number | null | undefined, digits: number) =>
  value == null || !Number.isFinite(value) ? 0 : Math.round(value * 10 ** digits) / 10 ** digits;

/** Collects samples while started; `videoTime` tells the recording's clock (pauses excluded). */
export class MotionRecorder {
  private readonly columns = {
    t: [] as number[],
    ax: [] as number[],
    ay: [] as number[],
    az: [] as number[],
    alpha: [] as number[],
    beta: [] as number[],
    gamma: [] as number[],
  };
  private orientation = { alpha: 0, beta: 0, gamma: 0 };
  private absolute = false;
  private paused = false;

  constructor(private readonly videoTime: () => number) {}

  private readonly onOrientation = (event: DeviceOrientationEvent) => {
    this.orientation = { alpha: event.alpha ?? 0, beta: event.beta ?? 0, gamma: event.gamma ?? 0 };
    if (event.absolute) this.absolute = true;
  };

  private readonly onMotion = (event: DeviceMotionEvent) => {
    if (this.paused) return;
    const a = event.accelerationIncludingGravity;
    const c = this.columns;
    const t = round(this.videoTime(), 3);
    // The schema wants non-decreasing times; a clock read in the same millisecond repeats.
    if (c.t.length > 0 && t < (c.t[c.t.length - 1] as number)) return;
    c.t.push(t);
    c.ax.push(round(a?.x, 3));
    c.ay.push(round(a?.y, 3));
    c.az.push(round(a?.z, 3));
    c.alpha.push(round(this.orientation.alpha, 2));
    c.beta.push(round(this.orientation.beta, 2));
    c.gamma.push(round(this.orientation.gamma, 2));
  };

  start(): void {
    window.addEventListener('devicemotion', this.onMotion);
    // The absolute event (compass-referenced) where the browser has it.
    window.addEventListener(
      'ondeviceorientationabsolute' in window ? 'deviceorientationabsolute' : 'deviceorientation',
      this.onOrientation as EventListener,
    );
  }

  setPaused(paused: boolean): void {
    this.paused = paused;
  }

  stop(): void {
    window.removeEventListener('devicemotion', this.onMotion);
    window.removeEventListener('deviceorientationabsolute', this.onOrientation as EventListener);
    window.removeEventListener('deviceorientation', this.onOrientation as EventListener);
  }

  /** The samples so far, or null when the device sent none (a desktop browser). */
  samples(): MotionSamples | null {
    if (this.columns.t.length === 0) return null;
    const c = this.columns;
    return {
      t: [...c.t],
      ax: [...c.ax],
      ay: [...c.ay],
      az: [...c.az],
      alpha: [...c.alpha],
      beta: [...c.beta],
      gamma: [...c.gamma],
      absolute: this.absolute,
    };
  }
}
