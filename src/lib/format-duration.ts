/**
 * Whole seconds of a length, floored as media players count them: a 4.6 s recording is 4 s
 * (0:04) on every screen, the phone's review and the reviewers' lists alike.
 */
export function wholeSeconds(seconds: number): number {
  return Math.max(0, Math.floor(seconds));
}

/** A file's length as '34 s' (whole seconds, floored), or null when it is not known. */
export function lengthInSeconds(seconds: number | null | undefined): string | null {
  return seconds == null || !Number.isFinite(seconds) ? null : `${wholeSeconds(seconds)} s`;
}

/** Seconds as m:ss, or h:mm:ss from an hour on (recording times, time left). */
export function formatDuration(seconds: number): string {
  const total = wholeSeconds(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
