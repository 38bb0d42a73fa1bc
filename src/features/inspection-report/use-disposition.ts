import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { proxySet } from 'valtio/utils';
import { refusedAsOutdated } from '../../api/sign-inspection.ts';
import { toastsChecking, tryAction, unanswered } from '../../lib/run-action.ts';
import { session } from '../../stores/session.ts';
import type { Disposition, InspectionReport, ReportDetection } from '../../types/api.ts';
import { setDisposition } from './api/set-disposition.ts';
import { storedDisposition } from './api/stored-disposition.ts';
import { reportStrings as s } from './strings.ts';

/**
 * The Confirms on their way, for every part of the page that offers them (the flags, the table):
 * one decision is sent once, whichever button a second click lands on (QA: 'Disposition saved'
 * and a failure toast for one decision).
 */
const confirmsSending = proxySet<string>();

/** How a dismissal's save ended, for its dialog: saved, or what to say at its reason field. */
export type DismissalOutcome = { done: true } | { done: false; said: string | null };

/**
 * What to do after a decision sent without an answer: a Confirm's report reloads at once; a
 * dismissal sent again saves what its dialog holds (`seenOnRetry`), or its report reloads as the
 * dialog closes.
 */
const unansweredCheck = {
  confirmed: "The report is reloaded: check the detection's decision before trying again.",
  dismissed:
    "Dismiss again to save the reason shown here: it replaces the one sent if that was saved. Or close this dialog to see the detection's decision.",
};

/**
 * The decision a dismissal sent again names as the one its page showed, or undefined when it is
 * stored already. A dismissal of this dialog sent without an answer may be stored: found (the
 * reviewer's own, with one of the reasons sent), this one replaces it, as the dialog now says; any
 * other decision stored since the page loaded is not named, so the server refuses to replace it
 * (409 naming who decided what) and nothing the reviewer did not mean is stored.
 */
async function seenOnRetry(
  inspectionId: string,
  detection: ReportDetection,
  reason: string,
  sent: readonly string[],
): Promise<Disposition | null | undefined> {
  const stored = await storedDisposition(inspectionId, detection.predictionId);
  const own =
    stored?.disposition === 'dismissed' &&
    stored.reviewerId === session.info?.id &&
    sent.includes(stored.reason);
  if (!own) return detection.disposition;
  // The server stores the reason trimmed.
  return stored.reason === reason.trim() ? undefined : stored;
}

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
  // The dismissal was refused for a record that changed or left the caller's reach, or got no
  // answer (perhaps saved): the report is reloaded as its dialog closes, so what it says stays on
  // the screen until then.
  const reloadOnClose = useRef(false);
  // The reasons the open dismissal dialog sent without an answer (trimmed, as stored).
  const unansweredReasons = useRef<string[]>([]);

  // The decision names the one the page shows (`seen`: undefined when stored already), which
  // another reviewer's since is not replaced by.
  const save = async (
    detection: ReportDetection,
    disposition: 'confirmed' | 'dismissed',
    why = '',
    seen: () => Promise<Disposition | null | undefined> = async () => detection.disposition,
  ) => {
    const outcome = await tryAction(
      async () => {
        const shown = await seen();
        if (shown === undefined) return;
        await setDisposition(report.inspectionId, detection.predictionId, disposition, why, shown);
      },
      s.dispositionSaved,
      s.dispositionFailed,
      undefined,
      toastsChecking(unansweredCheck[disposition]),
    );
    if (outcome.done) onChanged();
    return outcome;
  };

  // Confirms this instance sent whose reloaded report has not arrived yet: held until it does,
  // since a click before then would send the decision the page still shows, refused as outdated.
  const held = useRef(new Set<string>());
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new report (the reload) is what releases them.
  useEffect(() => {
    const keys = held.current;
    return () => {
      for (const key of keys) confirmsSending.delete(key);
      keys.clear();
    };
  }, [report]);
  const sending = useSnapshot(confirmsSending);
  const keyOf = (detection: ReportDetection) => `${report.inspectionId}/${detection.predictionId}`;
  const confirm = async (detection: ReportDetection) => {
    const key = keyOf(detection);
    if (confirmsSending.has(key)) return;
    confirmsSending.add(key);
    const outcome = await save(detection, 'confirmed');
    if (outcome.done) {
      held.current.add(key);
      return;
    }
    confirmsSending.delete(key);
    // The toast says why; the report shows the record as it is now (after no answer, whether the
    // decision was stored: sent again as it is, it would be refused as outdated).
    if (refusedAsOutdated(outcome.error) || unanswered(outcome.error)) onChanged();
  };

  const dismiss = async (detection: ReportDetection, reason: string): Promise<DismissalOutcome> => {
    const sent = [...unansweredReasons.current];
    const outcome = await save(detection, 'dismissed', reason, async () =>
      sent.length > 0
        ? seenOnRetry(report.inspectionId, detection, reason, sent)
        : detection.disposition,
    );
    if (outcome.done) {
      // Saved and reloaded: nothing left to reload as the dialog closes.
      reloadOnClose.current = false;
      return outcome;
    }
    const { error } = outcome;
    if (refusedAsOutdated(error) || unanswered(error)) reloadOnClose.current = true;
    if (unanswered(error) && error.method === 'PUT') unansweredReasons.current.push(reason.trim());
    return { done: false, said: outcome.said };
  };

  const closeDismissal = () => {
    setDismissing(null);
    unansweredReasons.current = [];
    if (reloadOnClose.current) onChanged();
    reloadOnClose.current = false;
  };

  return {
    /** Whoever may sign decides on the detections; a signed record is final. */
    editable: report.canSign,
    /** Whether this detection's Confirm is on its way (from any part of the page). */
    confirming: (detection: ReportDetection) => sending.has(keyOf(detection)),
    confirm,
    /** The detection whose dismissal dialog is open, if any. */
    dismissing,
    startDismissal: setDismissing,
    dismiss,
    closeDismissal,
  };
}

export type Dispositions = ReturnType<typeof useDisposition>;
