import { UserText } from '../../components/user-text.tsx';
import { recordTime } from '../../lib/record-time.ts';
import type { Disposition } from '../../types/api.ts';
import { reportStrings as s } from './strings.ts';

/** A reviewer's decision in words: 'Confirmed finding: {reason} ({reviewer}, {time})'. */
export function DecisionText({ decision: d }: { decision: Disposition }) {
  return (
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
  );
}
