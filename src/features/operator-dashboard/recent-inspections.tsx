import { format } from 'date-fns';
import { Link } from 'wouter';
import { CardGrid, RecordCard, RecordField } from '../../components/record-card.tsx';
import { StatusTag, Tag } from '../../components/tag.tsx';
import { inspectionReportPath } from '../../config/paths.ts';
import type { MyInspection } from '../../types/api.ts';
import { operatorStrings as s } from './strings.ts';

export function RecentInspections({
  inspections,
  loading,
}: {
  inspections: readonly MyInspection[] | null;
  loading: boolean;
}) {
  return (
    <section aria-labelledby="recent-heading">
      <h2 id="recent-heading">{s.recentHeading}</h2>
      {inspections?.length === 0 ? (
        <p className="muted">{s.noRecent}</p>
      ) : (
        <CardGrid
          items={inspections}
          loading={loading}
          render={({ inspection, lineName, video }) => {
            const when = format(new Date(inspection.startTime), 'yyyy-MM-dd HH:mm');
            return (
              <RecordCard
                key={inspection._id}
                title={lineName}
                tags={<StatusTag status={inspection.status} />}
                actions={
                  <Link
                    href={inspectionReportPath(inspection._id)}
                    className="btn btn-secondary"
                    aria-label={`${s.open} ${lineName} ${when}`}
                  >
                    {s.open}
                  </Link>
                }
              >
                <RecordField label={s.recordedAt}>{when}</RecordField>
                <RecordField label={s.review}>{inspection.status}</RecordField>
                <RecordField label={s.upload}>
                  {video?.verified ? (
                    <Tag severity="success">{s.verified}</Tag>
                  ) : (
                    <Tag severity="warning">{s.awaitingFile}</Tag>
                  )}
                </RecordField>
                <RecordField label={s.analysis}>{video ? video.status : s.unknown}</RecordField>
              </RecordCard>
            );
          }}
        />
      )}
    </section>
  );
}
