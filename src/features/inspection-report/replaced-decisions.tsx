import { replacedDetectionText } from '../../../server/schemas/replaced-detection.ts';
import type { PlaybackClock } from '../../components/video-review/playback-clock.ts';
import { recordTime } from '../../lib/record-time.ts';
import type { ReplacedDecision } from '../../types/api.ts';
import { DecisionText } from './decision-text.tsx';
import { reportStrings as s } from './strings.ts';

export interface ReplacedDecisionsProps {
  decisions: readonly ReplacedDecision[];
  clock: PlaybackClock;
}

/**
 * The decisions on detections a later analysis replaced (docs/reports.md), with each detection as
 * it was: they stay on the record and are signed with it, so the reviewer sees them here.
 */
export function ReplacedDecisions({ decisions, clock }: ReplacedDecisionsProps) {
  if (decisions.length === 0) return null;
  return (
    <section aria-labelledby="report-replaced-decisions">
      <h3 id="report-replaced-decisions">
        {s.replacedDecisions} <span className="muted">({decisions.length})</span>
      </h3>
      <p className="muted">{s.replacedDecisionsNote}</p>
      <ul className="replaced-decisions">
        {decisions.map((d) => {
          const what = replacedDetectionText(d.detection);
          const time = d.detection?.time ?? null;
          return (
            <li key={d.predictionId}>
              <strong>{what}</strong>
              {d.detection && (
                <span className="muted">
                  {' '}
                  (
                  {s.replacedFrom(
                    d.detection.filename,
                    d.detection.analysisVersion,
                    recordTime(d.detection.replacedAt),
                  )}
                  )
                </span>
              )}
              <br />
              <DecisionText decision={d} />{' '}
              {time !== null && (
                <button
                  type="button"
                  className="btn btn-secondary"
                  aria-label={`${s.goTo} ${what}`}
                  onClick={() => {
                    clock.time = time;
                  }}
                >
                  {s.goTo}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
