// Upload speed and time left from recent progress samples (the last few seconds, so a stall or a
// resumed connection shows at once).

export interface ProgressSample {
  /** performance.now() in ms. */
  at: number;
  /** Bytes sent so far. */
  sent: number;
}

const WINDOW_MS = 5000;

export function progressOf(samples: ProgressSample[], total: number) {
  const last = samples[samples.length - 1];
  // Keep only the window (the array is the caller's running list).
  while (samples.length > 2 && last && last.at - (samples[0]?.at ?? 0) > WINDOW_MS) samples.shift();
  const first = samples[0];
  const sent = last?.sent ?? 0;
  const elapsed = first && last ? (last.at - first.at) / 1000 : 0;
  const bytesPerSecond = elapsed > 0.2 && first && last ? (last.sent - first.sent) / elapsed : null;
  const secondsLeft =
    bytesPerSecond && bytesPerSecond > 0 ? Math.ceil((total - sent) / bytesPerSecond) : null;
  return { sent, total, bytesPerSecond, secondsLeft };
}
