// Flagged detections and their flags as GET /api/reports/{id} answers them, and the bodies a test's
// requests send, for the tests of the dispositions table, the flags and the report page.
import { vi } from 'vitest';
import type { Flag, ReportDetection } from '../../types/api.ts';

/** The report's detection `n` (debris 81%, tool 42%, at 13.792 + n s), flagged. */
export const detection = (
  n: number,
  disposition: ReportDetection['disposition'],
): ReportDetection => ({
  predictionId: `e0000000000000000000000${n}`,
  time: 13.792 + n,
  filename: `${(13.792 + n).toFixed(3)}.png`,
  subfolder: 'keyframes',
  labels: ['debris', 'tool'],
  confs: [0.81, 0.42],
  boxes: [
    [0.1, 0.1, 0.2, 0.2],
    [0.3, 0.3, 0.4, 0.4],
  ],
  confidence: 0.81,
  flagged: true,
  disposition,
});

/** A flagged detection's flag, as the server words it (the objects over the threshold). */
export const detectionFlag = (d: ReportDetection): Flag => ({
  kind: 'detection',
  severity: 'high',
  text: `Detection: debris 81% at ${d.time.toFixed(2)} s`,
  time: d.time,
  ref: d.predictionId,
  decision: d.disposition?.disposition ?? null,
});

/** The JSON bodies of the requests sent from now on through the fetch stubbed (`fakeFetch`). */
export function recordBodies(): unknown[] {
  const bodies: unknown[] = [];
  const stubbed = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.body) bodies.push(JSON.parse(String(init.body)));
    return stubbed(input, init);
  });
  return bodies;
}
