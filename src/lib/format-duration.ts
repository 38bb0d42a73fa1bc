import { wholeSeconds } from '../../server/schemas/video-length.ts';

// The length rule is shared with the PDF (server/reports/pdf.ts).
export { lengthInSeconds, wholeSeconds } from '../../server/schemas/video-length.ts';

/** Seconds as m:ss, or h:mm:ss from an hour on (recording times, time left). */
export function formatDuration(seconds: number): string {
  const total = wholeSeconds(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
