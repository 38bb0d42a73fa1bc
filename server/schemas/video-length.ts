// A video's length as every screen and the PDF print it: one rule for the web app
// (src/lib/format-duration.ts) and the server (a pure module without imports, so the web app can
// bundle it).

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
