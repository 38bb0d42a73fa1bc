import { formatDistanceStrict } from 'date-fns';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { OVERDUE_AFTER_HOURS } from '../../../server/schemas/reports-overview.ts';
import type { ReviewDecision } from '../../api/sign-inspection.ts';
import { DateRangePicker } from '../../components/date-range-picker.tsx';
import { CardGrid, RecordActions, RecordCard, RecordField } from '../../components/record-card.tsx';
import { SigningDialog, signatureLine } from '../../components/signing-dialog.tsx';
import { StatusTag, Tag } from '../../components/tag.tsx';
import { UserText } from '../../components/user-text.tsx';
import { inspectionMessages } from '../../config/entity-messages.ts';
import { inspectionReportPath } from '../../config/paths.ts';
import { useFocusWhen } from '../../hooks/use-focus-when.ts';
import { type DateRange, inRange } from '../../lib/date-range.ts';
import { localTime } from '../../lib/record-time.ts';
import type { ListedInspection } from '../../types/api.ts';
import { lcStrings as s } from './strings.ts';
import { useMinuteClock } from './use-minute-clock.ts';

export interface InspectionsTabProps {
  inspections: readonly ListedInspection[] | null;
  loading: boolean;
  lineName: (id: string) => string | undefined;
  operatorName: (id: string) => string;
  /** Said instead of the default when there is no card (why the list is empty). */
  empty?: ReactNode;
  reload: () => void;
}

/**
 * Since when a pending inspection waits for its review: the server's receipt of it (its start and
 * end are the phone's clock), else its end or start; null when none is readable. The overview's
 * SQL twin is `waitingSince` in server/reports/overview.ts.
 */
function waitingSince(inspection: ListedInspection): Date | null {
  const since = new Date(inspection.receivedAt ?? inspection.endTime ?? inspection.startTime);
  return Number.isNaN(since.getTime()) ? null : since;
}

/** How long it has waited, in whole units (23 h 35 min is '23 hours', not yet a day), and whether overdue. */
function waiting(inspection: ListedInspection, now: Date) {
  const since = waitingSince(inspection);
  if (!since) return null;
  return {
    age: formatDistanceStrict(since, now, { roundingMethod: 'floor' }),
    overdue: now.getTime() - since.getTime() > OVERDUE_AFTER_HOURS * 3_600_000,
  };
}

function startOf(inspection: ListedInspection): Date | null {
  const date = inspection.startTime ? new Date(inspection.startTime) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

type StatusFilter = 'all' | 'pending' | 'approved' | 'rejected';
const statusFilters: readonly StatusFilter[] = ['all', 'pending', 'approved', 'rejected'];

/** Pending first (the work to do), then approved, rejected and any other status. */
const statusRank = (status: string) => {
  const rank = ['pending', 'approved', 'rejected'].indexOf(status);
  return rank < 0 ? 3 : rank;
};

/**
 * The cards to show: those of the status and the range (with a range set, an inspection without a
 * start time cannot be placed in it and is hidden), pending first, the longest waiting first (the
 * overdue ones lead; 'Next pending inspection' and /reports go by start time instead, the only
 * order /reports pages by), then signed ones newest first. The card just signed (`keptId`) stays where it was, so its signature is read where it was
 * signed.
 */
function inspectionsShown(
  inspections: readonly ListedInspection[],
  status: StatusFilter,
  range: DateRange | null,
  keptId: string | null,
): ListedInspection[] {
  const statusOf = (inspection: ListedInspection) =>
    inspection._id === keptId ? 'pending' : (inspection.status ?? 'pending');
  // Pending: longest waiting first, so the wait counts down (negated); signed: newest start first.
  const time = (inspection: ListedInspection) =>
    statusOf(inspection) === 'pending'
      ? -(waitingSince(inspection)?.getTime() ?? Number.POSITIVE_INFINITY)
      : (startOf(inspection)?.getTime() ?? Number.NEGATIVE_INFINITY);
  return inspections
    .filter((inspection) => {
      if (status !== 'all' && statusOf(inspection) !== status) return false;
      if (!range) return true;
      const start = startOf(inspection);
      return start !== null && inRange(start, range);
    })
    .sort(
      (a, b) =>
        statusRank(statusOf(a)) - statusRank(statusOf(b)) ||
        // Equal times (or two without one) keep the server's order.
        (time(b) === time(a) ? 0 : time(b) > time(a) ? 1 : -1),
    );
}

export function InspectionsTab({
  inspections,
  loading,
  lineName,
  operatorName,
  empty,
  reload,
}: InspectionsTabProps) {
  const [range, setRange] = useState<DateRange | null>(null);
  // One tick a minute for all cards: in a tab left open, a card turns overdue on time.
  const now = useMinuteClock();
  // Pending by default: those are the manager's work; a plant has thousands of signed ones.
  const [status, setStatus] = useState<StatusFilter>('pending');

  const [signing, setSigning] = useState<{ id: string; decision: ReviewDecision } | null>(null);
  // Once signed (here, or by someone else: 409), the reloaded card has no Approve or Reject: the
  // card takes the focus as its signature shows, so it is read, instead of <body>.
  const [signedId, setSignedId] = useState<string | null>(null);
  const signedCard = useFocusWhen(
    Boolean(inspections?.find((inspection) => inspection._id === signedId)?.signature),
  );
  const shown = useMemo(
    () => inspections && inspectionsShown(inspections, status, range, signedId),
    [inspections, status, range, signedId],
  );
  // A new filter lets the card just signed go where its status puts it.
  const changeFilter = (next: { range?: DateRange | null; status?: StatusFilter }) => {
    if (next.range !== undefined) setRange(next.range);
    if (next.status !== undefined) setStatus(next.status);
    setSignedId(null);
  };
  const filterKey = `${status} ${range ? `${range.start.getTime()}-${range.end.getTime()}` : ''}`;

  return (
    <>
      {signing && (
        <SigningDialog
          inspectionId={signing.id}
          decision={signing.decision}
          onClose={() => setSigning(null)}
          onChanged={() => {
            setSignedId(signing.id);
            signedCard.arm();
            reload();
          }}
          returnFocusTo={signedCard.target}
        />
      )}
      <CardGrid
        toolbar={
          <>
            <select
              aria-label={s.statusFilter}
              value={status}
              onChange={(event) => changeFilter({ status: event.target.value as StatusFilter })}
            >
              {statusFilters.map((option) => (
                <option key={option} value={option}>
                  {s.statusFilters[option]}
                </option>
              ))}
            </select>
            <DateRangePicker
              value={range}
              onChange={(next) => changeFilter({ range: next })}
              placeholder={s.filterByDateRange}
            />
            <button
              type="button"
              className="btn btn-secondary"
              // Clearing the filters shows every inspection, signed ones too.
              onClick={() => changeFilter({ range: null, status: 'all' })}
            >
              {s.clearFilters}
            </button>
          </>
        }
        items={shown}
        loading={loading}
        empty={empty}
        filterKey={filterKey}
        noun={inspectionMessages.noun}
        render={(inspection) => {
          const status = inspection.status ?? 'pending';
          const title = lineName(inspection.lineClearanceId) ?? s.unknownLine;
          const start = startOf(inspection);
          const wait = status === 'pending' ? waiting(inspection, now) : null;
          return (
            <RecordCard
              key={inspection._id}
              ref={inspection._id === signedId ? signedCard.target : undefined}
              title={title}
              tags={
                <>
                  <StatusTag status={status} />
                  {wait?.overdue && <Tag severity="danger">{s.overdue(OVERDUE_AFTER_HOURS)}</Tag>}
                </>
              }
              actions={
                <>
                  <Link
                    href={inspectionReportPath(inspection._id)}
                    className="btn btn-secondary"
                    aria-label={`${s.view} ${title} ${inspection._id}`}
                  >
                    {s.view}
                  </Link>
                  {status === 'pending' && inspection.signBlocker && (
                    // As on the report: nothing to press for someone who may not sign, only why.
                    <p className="muted action-note">{inspection.signBlocker}.</p>
                  )}
                  {status === 'pending' && !inspection.signBlocker && (
                    <RecordActions
                      name={`${title} ${inspection._id}`}
                      actions={[
                        {
                          label: s.approve,
                          variant: 'success',
                          onClick: () => setSigning({ id: inspection._id, decision: 'approve' }),
                          // The server refuses this approval (409); a rejection can still be signed.
                          unavailable:
                            inspection.approvalBlocker &&
                            s.onlyRejectable(inspection.approvalBlocker),
                        },
                        {
                          label: s.reject,
                          variant: 'danger',
                          onClick: () => setSigning({ id: inspection._id, decision: 'reject' }),
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
              <RecordField label={s.date}>{(start && localTime(start)) ?? s.unknown}</RecordField>
              {wait && <RecordField label={s.waiting}>{wait.age}</RecordField>}
              {inspection.operatorNotes && (
                <RecordField label={s.notes}>
                  <UserText text={inspection.operatorNotes} />
                </RecordField>
              )}
              {inspection.signature && (
                <RecordField label={s.signature}>{signatureLine(inspection.signature)}</RecordField>
              )}
              {inspection.signature?.notes && (
                <RecordField label={s.reviewNotes}>
                  <UserText text={inspection.signature.notes} />
                </RecordField>
              )}
              <RecordField label={s.id} recordId>
                {inspection._id}
              </RecordField>
            </RecordCard>
          );
        }}
      />
    </>
  );
}
