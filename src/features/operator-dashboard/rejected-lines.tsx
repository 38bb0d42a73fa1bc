import { Link } from 'wouter';
import { UserText } from '../../components/user-text.tsx';
import { inspectionPath } from '../../config/paths.ts';
import { localTime } from '../../lib/record-time.ts';
import type { MyInspection, MyLine } from '../../types/api.ts';
import { operatorStrings as s } from './strings.ts';

/**
 * Lines whose latest inspection by this operator was rejected, at the top of the dashboard: the
 * line is not cleared until someone inspects it again (QA: a rejection showed only as the third
 * card of Recent Inspections, with nothing asking for the re-inspection).
 */
export function RejectedLines({
  lines,
  inspections,
}: {
  lines: readonly MyLine[] | null;
  inspections: readonly MyInspection[] | null;
}) {
  const rejected = (lines ?? []).filter(
    ({ line, lastInspection }) => lastInspection?.status === 'rejected' && line.status === 'active',
  );
  if (!rejected.length) return null;
  const notesOf = new Map(
    (inspections ?? []).map(({ inspection }) => [inspection._id, inspection.signature?.notes]),
  );
  return (
    <section className="rejected-lines" aria-labelledby="rejected-lines-heading">
      <h2 id="rejected-lines-heading">{s.actionNeeded}</h2>
      <ul>
        {rejected.map(({ line, lastInspection }) => {
          const notes = lastInspection ? notesOf.get(lastInspection._id) : undefined;
          return (
            <li key={line._id}>
              <p>
                {s.lastRejected(
                  line.name,
                  (lastInspection && localTime(lastInspection.startTime)) ?? s.unknown,
                )}
              </p>
              {notes && (
                <p>
                  {s.reviewNotes}: <UserText text={notes} />
                </p>
              )}
              <Link
                href={inspectionPath(line._id)}
                className="btn btn-primary"
                aria-label={`${s.inspectAgain}: ${line.name}`}
              >
                {s.inspectAgain}
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
