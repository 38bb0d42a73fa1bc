// Decisions on replaced detections (docs/reports.md): a reviewer's decision whose detection a later
// analysis no longer holds stays on the record with that detection as it was (analysis/outputs.ts
// keeps it), is shown, printed and signed, and a confirmed finding among them stays an exception.
import { replacedDetectionText } from '../schemas/replaced-detection.ts';
import type { Flag, ReplacedDecision } from '../schemas/reports.ts';
import type { InspectionRecord } from './record.ts';

/**
 * The decisions whose detection is no longer among the video's predictions, by the detection's
 * time, unknown ones last.
 */
export function decisionsOnReplaced(
  record: Pick<InspectionRecord, 'dispositions'>,
  current: readonly { id: string }[],
): ReplacedDecision[] {
  const ids = new Set(current.map((row) => row.id));
  return record.dispositions
    .filter((d) => !ids.has(d.predictionId))
    .map(({ replaced, ...decision }) => ({ ...decision, detection: replaced ?? null }))
    .sort(
      (a, b) =>
        (a.detection?.time ?? Number.POSITIVE_INFINITY) -
        (b.detection?.time ?? Number.POSITIVE_INFINITY),
    );
}

/**
 * One flag per confirmed finding on a replaced detection: what a reviewer saw on the line is not
 * undone by a detector's new run, so it stays an exception an approval must give its reason over.
 */
export function replacedFindingFlags(decisions: readonly ReplacedDecision[]): Flag[] {
  return decisions
    .filter((decision) => decision.disposition === 'confirmed')
    .map((decision) => ({
      kind: 'replaced-finding',
      severity: 'high',
      text: `Confirmed finding on a replaced detection: ${replacedDetectionText(decision.detection)}, confirmed by ${decision.reviewerName}; the current analysis no longer holds it`,
      time: decision.detection?.time ?? null,
      ref: decision.predictionId,
      decision: 'confirmed',
    }));
}
