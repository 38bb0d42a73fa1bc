import { TableScroll } from '../../components/table-scroll.tsx';
import type { PlaybackClock } from '../../components/video-review/playback-clock.ts';
import type { InspectionReport } from '../../types/api.ts';
import { DecisionText } from './decision-text.tsx';
import { DismissalDialog, DispositionButtons } from './disposition-controls.tsx';
import { ReplacedDecisions } from './replaced-decisions.tsx';
import { reportStrings as s } from './strings.ts';
import { detectionStamp, objectsText, useDisposition } from './use-disposition.ts';

export interface DispositionsSectionProps {
  report: InspectionReport;
  clock: PlaybackClock;
  onChanged(): void;
}

/** The section's heading: focusable, the target of the report's 'Skip to dispositions'. */
export const DISPOSITIONS_HEADING = 'report-dispositions';

/**
 * Why an empty detection list says nothing of leftover items: no detector looked at a finished
 * analysis (`detectionNote`), or there is nothing analysed yet (what blocks an approval); null
 * when a detector looked and found nothing.
 */
export function emptyDetectionsNote(report: InspectionReport): string | null {
  if (report.detectionNote) return report.detectionNote;
  return report.approvalBlocker ? s.nothingAnalysed(report.approvalBlocker) : null;
}

/** Each detection with the reviewer's disposition: confirmed, or dismissed with a reason. */
export function DispositionsSection({ report, clock, onChanged }: DispositionsSectionProps) {
  const dispositions = useDisposition(report, onChanged);
  const emptyNote = emptyDetectionsNote(report);

  return (
    <section className="report-panel" aria-labelledby={DISPOSITIONS_HEADING}>
      <h2 id={DISPOSITIONS_HEADING} tabIndex={-1}>
        {s.dispositions} <span className="muted">({report.detections.length})</span>
      </h2>
      {report.detections.length === 0 ? (
        // 'No detections' would read as a clean result when no detector looked.
        <p className={emptyNote ? 'report-warning' : undefined}>
          {emptyNote ? `${emptyNote}.` : s.noDetections}
        </p>
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
                const name = detectionStamp(detection);
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
                    <td>{d ? <DecisionText decision={d} /> : '—'}</td>
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
                        <DispositionButtons
                          dispositions={dispositions}
                          detection={detection}
                          subject={name}
                        />
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
      <ReplacedDecisions decisions={report.replacedDecisions} clock={clock} />
      <DismissalDialog dispositions={dispositions} />
    </section>
  );
}
