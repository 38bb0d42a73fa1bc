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
  // Keep only the window (the array is the caller's running list): an older pace says nothing now.
  while (samples.length > 1 && last && last.at - (samples[0]?.at ?? 0) > WINDOW_MS) samples.shift();
  const first = samples[0];
  const sent = last?.sent ?? 0;
  const elapsed = first && last ? (last.at - first.at) / 1000 : 0;
  const moved = first && last ? last.sent - first.sent : 0;
  // No byte moved in the window: a stall, whose speed is not known (never '0 Bytes/s').
  const bytesPerSecond = elapsed > 0.2 && moved > 0 ? moved / elapsed : null;
  const secondsLeft = bytesPerSecond ? Math.ceil((total - sent) / bytesPerSecond) : null;
  return { sent, total, bytesPerSecond, secondsLeft };
}
