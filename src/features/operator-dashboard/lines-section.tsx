import { Link } from 'wouter';
import { CardGrid, RecordCard, RecordField } from '../../components/record-card.tsx';
import { StatusTag } from '../../components/tag.tsx';
import { lineClearanceMessages } from '../../config/entity-messages.ts';
import { inspectionPath } from '../../config/paths.ts';
import { localTime } from '../../lib/record-time.ts';
import type { MyLine } from '../../types/api.ts';
import { operatorStrings as s } from './strings.ts';

export function LinesSection({
  lines,
  loading,
}: {
  lines: readonly MyLine[] | null;
  loading: boolean;
}) {
  return (
    <section aria-labelledby="lines-heading">
      <h2 id="lines-heading">{s.linesHeading}</h2>
      {lines?.length === 0 ? (
        <p className="muted">{s.noLines}</p>
      ) : (
        <CardGrid
          items={lines}
          noun={lineClearanceMessages.noun}
          loading={loading}
          render={({ line, hasConfiguration, tagCount, hotZoneCount, lastInspection }) => (
            <RecordCard
              key={line._id}
              title={line.name}
              tags={<StatusTag status={line.status} />}
              actions={
                line.status === 'active' ? (
                  <Link
                    href={inspectionPath(line._id)}
                    className="btn btn-primary btn-large"
                    aria-label={`${s.startInspection}: ${line.name}`}
                  >
                    {s.startInspection}
                  </Link>
                ) : (
                  <p className="muted">{s.cannotStart(line.status)}</p>
                )
              }
            >
              <RecordField label={s.location}>{line.location || s.noLocation}</RecordField>
              <RecordField label={s.floorPlan}>
                {hasConfiguration ? s.configured(tagCount, hotZoneCount) : s.notConfigured}
              </RecordField>
              <RecordField label={s.lastInspection}>
                {lastInspection ? (
                  <>
                    {localTime(lastInspection.startTime) ?? s.unknown}{' '}
                    <StatusTag status={lastInspection.status} />
                  </>
                ) : (
                  s.never
                )}
              </RecordField>
            </RecordCard>
          )}
        />
      )}
    </section>
  );
}
