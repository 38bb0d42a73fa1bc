import { format } from 'date-fns';
import { useState } from 'react';
import { Link } from 'wouter';
import { DateRangePicker } from '../../components/date-range-picker.tsx';
import { CardGrid, RecordActions, RecordCard, RecordField } from '../../components/record-card.tsx';
import { StatusTag } from '../../components/tag.tsx';
import { inspectionReportPath } from '../../config/paths.ts';
import { type DateRange, inRange } from '../../lib/date-range.ts';
import { runAction } from '../../lib/run-action.ts';
import type { Inspection } from '../../types/api.ts';
import { type ReviewDecision, reviewInspection } from './api/review-inspection.ts';
import { reviewText, lcStrings as s } from './strings.ts';

export interface InspectionsTabProps {
  inspections: readonly Inspection[] | null;
  loading: boolean;
  lineName: (id: string) => string | undefined;
  operatorName: (id: string) => string;
  reload: () => void;
}

function startOf(inspection: Inspection): Date | null {
  const date = inspection.startTime ? new Date(inspection.startTime) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

export function InspectionsTab({
  inspections,
  loading,
  lineName,
  operatorName,
  reload,
}: InspectionsTabProps) {
  const [range, setRange] = useState<DateRange | null>(null);
  // With a range set, an inspection without a start time cannot be placed in it and is hidden.
  const shown =
    inspections?.filter((inspection) => {
      if (!range) return true;
      const start = startOf(inspection);
      return start !== null && inRange(start, range);
    }) ?? null;

  const review = async (inspection: Inspection, decision: ReviewDecision) => {
    const text = reviewText[decision];
    const done = await runAction(
      () => reviewInspection(inspection._id, decision, text.notes),
      text.success,
      text.failure,
    );
    if (done) reload();
  };

  return (
    <CardGrid
      toolbar={
        <>
          <DateRangePicker value={range} onChange={setRange} placeholder={s.filterByDateRange} />
          <button type="button" className="btn btn-secondary" onClick={() => setRange(null)}>
            {s.clearFilters}
          </button>
        </>
      }
      items={shown}
      loading={loading}
      render={(inspection) => {
        const status = inspection.status ?? 'pending';
        const title = lineName(inspection.lineClearanceId) ?? s.unknownLine;
        const start = startOf(inspection);
        return (
          <RecordCard
            key={inspection._id}
            title={title}
            tags={<StatusTag status={status} />}
            actions={
              <>
                <Link
                  href={inspectionReportPath(inspection._id)}
                  className="btn btn-secondary"
                  aria-label={`${s.view} ${title} ${inspection._id}`}
                >
                  {s.view}
                </Link>
                {status === 'pending' && (
                  <RecordActions
                    name={`${title} ${inspection._id}`}
                    actions={[
                      {
                        label: s.approve,
                        variant: 'success',
                        onClick: () => review(inspection, 'approve'),
                      },
                      {
                        label: s.reject,
                        variant: 'danger',
                        onClick: () => review(inspection, 'reject'),
                      },
                    ]}
                  />
                )}
              </>
            }
          >
            <RecordField label={s.operator}>
              {inspection.operatorId ? operatorName(inspection.operatorId) : s.unknown}
            </RecordField>
            <RecordField label={s.date}>
              {start ? format(start, 'yyyy-MM-dd HH:mm') : s.unknown}
            </RecordField>
            {inspection.operatorNotes && (
              <RecordField label={s.notes}>{inspection.operatorNotes}</RecordField>
            )}
            <RecordField label={s.id}>{inspection._id}</RecordField>
          </RecordCard>
        );
      }}
    />
  );
}
