import { useRef, useState } from 'react';
import { isBlank } from '../../../server/schemas/blank.ts';
import { refusedAsOutdated } from '../../api/sign-inspection.ts';
import { TextField } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { TableScroll } from '../../components/table-scroll.tsx';
import { UserText } from '../../components/user-text.tsx';
import type { PlaybackClock } from '../../components/video-review/playback-clock.ts';
import { useFieldErrors } from '../../hooks/use-field-errors.ts';
import { recordTime } from '../../lib/record-time.ts';
import { tryAction } from '../../lib/run-action.ts';
import { unstorableProblem } from '../../lib/text-rules.ts';
import type { InspectionReport, ReportDetection } from '../../types/api.ts';
import { setDisposition } from './api/set-disposition.ts';
import { reportStrings as s } from './strings.ts';

export interface DispositionsSectionProps {
  report: InspectionReport;
  clock: PlaybackClock;
  onChanged(): void;
}

/** The section's heading: focusable, the target of the report's 'Skip to dispositions'. */
export const DISPOSITIONS_HEADING = 'report-dispositions';

const objectsText = (d: ReportDetection) =>
  d.labels.map((label, i) => `${label} ${((d.confs[i] ?? 0) * 100).toFixed(0)}%`).join(', ');

/** Each detection with the reviewer's disposition: confirmed, or dismissed with a reason. */
export function DispositionsSection({ report, clock, onChanged }: DispositionsSectionProps) {
  const [dismissing, setDismissing] = useState<ReportDetection | null>(null);
  const [reason, setReason] = useState('');
  const fields = useFieldErrors<'reason'>();
  // The dismissal was refused for a record that changed or left the caller's reach: the report
  // is reloaded as its dialog closes, so the refusal stays on the screen until then.
  const outdated = useRef(false);
  // Whoever may sign decides on the detections; a signed record is final.
  const editable = report.canSign;

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

  const closeDismissal = () => {
    setDismissing(null);
    if (outdated.current) onChanged();
    outdated.current = false;
  };

  return (
    <section className="report-panel" aria-labelledby={DISPOSITIONS_HEADING}>
      <h2 id={DISPOSITIONS_HEADING} tabIndex={-1}>
        {s.dispositions} <span className="muted">({report.detections.length})</span>
      </h2>
      {report.detections.length === 0 ? (
        <p>{s.noDetections}</p>
      ) : (
        <TableScroll label={s.dispositions}>
          <table className="report-table">
            <caption className="visually-hidden">{s.dispositions}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Objects</th>
                <th scope="col">Flagged</th>
                <th scope="col">Disposition</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {report.detections.map((detection) => {
                const d = detection.disposition;
                const name = `${detection.filename.replace(/\.png$/, '')} s`;
                return (
                  <tr
                    key={detection.predictionId}
                    className={detection.flagged && !d ? 'row-flagged' : undefined}
                  >
                    <th scope="row" className="report-nowrap">
                      {name}
                    </th>
                    <td>{objectsText(detection)}</td>
                    <td>{detection.flagged ? 'Yes' : 'No'}</td>
                    <td>
                      {d ? (
                        <>
                          {d.disposition === 'confirmed' ? s.confirmed : s.dismissed}
                          {d.reason && (
                            <>
                              : <UserText text={d.reason} />
                            </>
                          )}
                          <span className="muted">
                            {' '}
                            ({d.reviewerName}, {recordTime(d.at, true)})
                          </span>
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td>
                      {/* The flex box inside the cell: a <td> laid out as flex leaves the
                          table's layout (its borders and widths stop matching the row's). */}
                      <div className="report-actions">
                        <button
                          type="button"
                          className="btn btn-secondary"
                          aria-label={`${s.goTo} ${name}`}
                          onClick={() => {
                            clock.time = detection.time;
                          }}
                        >
                          {s.goTo}
                        </button>
                        {editable && (
                          <>
                            <button
                              type="button"
                              className="btn btn-success"
                              aria-label={`${s.confirm} ${name}`}
                              aria-disabled={confirming === detection.predictionId || undefined}
                              onClick={() => void confirm(detection)}
                            >
                              {s.confirm}
                            </button>
                            <button
                              type="button"
                              className="btn btn-danger"
                              aria-label={`${s.dismiss} ${name}`}
                              onClick={() => {
                                setReason('');
                                fields.clear();
                                setDismissing(detection);
                              }}
                            >
                              {s.dismiss}
                            </button>
                          </>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
      {dismissing && (
        <FormDialog
          title={s.dismissTitle}
          submitLabel={s.dismiss}
          onClose={closeDismissal}
          onSubmit={async () => {
            // Blank by the server's rule (invisible characters alone are no reason).
            if (isBlank(reason)) {
              fields.warn('reason', s.reasonMissing);
              return false;
            }
            const problem = unstorableProblem(s.reason, reason);
            if (problem) {
              fields.warn('reason', problem);
              return false;
            }
            fields.clear();
            const outcome = await save(dismissing, 'dismissed', reason);
            if (outcome.done) return true;
            if (refusedAsOutdated(outcome.error)) outdated.current = true;
            // The toast is hidden from screen readers while the dialog is open: it says it too.
            if (outcome.said) fields.fail('reason', outcome.said);
            return false;
          }}
        >
          <p>
            {dismissing.filename.replace(/\.png$/, '')} s: {objectsText(dismissing)}
          </p>
          <TextField
            label={s.reason}
            value={reason}
            onChange={setReason}
            rows={3}
            {...fields.textField('reason')}
          />
        </FormDialog>
      )}
    </section>
  );
}
