import { useRef, useState } from 'react';
import { refusedAsOutdated } from '../../api/sign-inspection.ts';
import { tryAction } from '../../lib/run-action.ts';
import type { InspectionReport, ReportDetection } from '../../types/api.ts';
import { setDisposition } from './api/set-disposition.ts';
import { reportStrings as s } from './strings.ts';

/** How a dismissal's save ended, for its dialog: saved, or what to say at its reason field. */
export type DismissalOutcome = { done: true } | { done: false; said: string | null };

/** A detection as the report names it: its keyframe's time ('14.792 s'). */
export const detectionStamp = (d: ReportDetection) => `${d.filename.replace(/\.png$/, '')} s`;

/** A detection's objects with their confidences ('debris 81%, tool 42%'). */
export const objectsText = (d: ReportDetection) =>
  d.labels.map((label, i) => `${label} ${((d.confs[i] ?? 0) * 100).toFixed(0)}%`).join(', ');

/**
 * A reviewer's decisions on the report's detections, wherever they are offered (the dispositions
 * table, the flags): one way to save them, say how it went and reload the report.
 */
export function useDisposition(report: InspectionReport, onChanged: () => void) {
  const [dismissing, setDismissing] = useState<ReportDetection | null>(null);
  // The dismissal was refused for a record that changed or left the caller's reach: the report
  // is reloaded as its dialog closes, so the refusal stays on the screen until then.
  const outdated = useRef(false);

  // The decision names the one the page shows, which another reviewer's since is not replaced by.
  const save = async (
    detection: ReportDetection,
    disposition: 'confirmed' | 'dismissed',
    why = '',
  ) => {
    const outcome = await tryAction(
      () =>
        setDisposition(
          report.inspectionId,
          detection.predictionId,
          disposition,
          why,
          detection.disposition,
        ),
      s.dispositionSaved,
      s.dispositionFailed,
    );
    if (outcome.done) onChanged();
    return outcome;
  };

  // The detection whose Confirm is on its way: a second click would send it again and be refused
  // as outdated by the first (QA: 'Disposition saved' and a failure toast for one decision).
  const [confirming, setConfirming] = useState<string | null>(null);
  const confirm = async (detection: ReportDetection) => {
    if (confirming) return;
    setConfirming(detection.predictionId);
    const outcome = await save(detection, 'confirmed');
    setConfirming(null);
    // The toast says why; the report shows the record as it is now.
    if (!outcome.done && refusedAsOutdated(outcome.error)) onChanged();
  };

  const dismiss = async (detection: ReportDetection, reason: string): Promise<DismissalOutcome> => {
    const outcome = await save(detection, 'dismissed', reason);
    if (outcome.done) return outcome;
    if (refusedAsOutdated(outcome.error)) outdated.current = true;
    return { done: false, said: outcome.said };
  };

  const closeDismissal = () => {
    setDismissing(null);
    if (outdated.current) onChanged();
    outdated.current = false;
  };

  return {
    /** Whoever may sign decides on the detections; a signed record is final. */
    editable: report.canSign,
    confirming,
    confirm,
    /** The detection whose dismissal dialog is open, if any. */
    dismissing,
    startDismissal: setDismissing,
    dismiss,
    closeDismissal,
  };
}

export type Dispositions = ReturnType<typeof useDisposition>;
