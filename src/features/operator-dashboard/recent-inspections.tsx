import { Link } from 'wouter';
import { CardGrid, RecordCard, RecordField } from '../../components/record-card.tsx';
import { StatusTag, Tag } from '../../components/tag.tsx';
import { UserText } from '../../components/user-text.tsx';
import { inspectionMessages } from '../../config/entity-messages.ts';
import { inspectionReportPath } from '../../config/paths.ts';
import { localTime } from '../../lib/record-time.ts';
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
          noun={inspectionMessages.noun}
          loading={loading}
          render={({ inspection, lineName, video }) => {
            const when = localTime(inspection.startTime) ?? s.unknown;
            const { signature } = inspection;
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
                <RecordField label={s.review}>
                  {signature
                    ? s.reviewedBy(
                        signature.meaning,
                        signature.signerName,
                        localTime(signature.signedAt) ?? s.unknown,
                      )
                    : s.awaitingReview}
                </RecordField>
                {signature?.notes && (
                  <RecordField label={s.reviewNotes}>
                    <UserText text={signature.notes} />
                  </RecordField>
                )}
                <RecordField label={s.upload}>
                  {video?.verified ? (
                    <Tag severity="success">{s.verified}</Tag>
                  ) : video?.status === 'error' ? (
                    <Tag severity="danger">{s.fileGivenUp}</Tag>
                  ) : (
                    <Tag severity="warning">{s.awaitingFile}</Tag>
                  )}
                </RecordField>
                <RecordField label={s.analysis}>
                  {video ? <StatusTag status={video.status} /> : s.unknown}
                  {video?.status === 'error' && video.statusReason && (
                    <span className="muted"> {video.statusReason}</span>
                  )}
                </RecordField>
              </RecordCard>
            );
          }}
        />
      )}
    </section>
  );
}
