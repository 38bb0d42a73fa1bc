import { formatDistanceStrict } from 'date-fns';
import { useId } from 'react';
import { Link } from 'wouter';
import { CellLabel } from '../../components/stacked-table.tsx';
import { TableScroll } from '../../components/table-scroll.tsx';
import { StatusTag, Tag } from '../../components/tag.tsx';
import { inspectionReportPath, paths } from '../../config/paths.ts';
import { type Loaded, useLoad } from '../../hooks/use-load.ts';
import { queryString } from '../../lib/query-string.ts';
import { localTime, recordTime } from '../../lib/record-time.ts';
import { hasAnyRole, type Role } from '../../lib/roles.ts';
import type { LineOverview, LinesOverview } from '../../types/api.ts';
import { getLinesOverview } from './api/get-lines-overview.ts';
import './line-overview.css';
import { adminStrings as s } from './strings.ts';

/** Who may read the overview (GET /api/reports/overview; docs/permissions.md). */
export const overviewReaders: readonly Role[] = ['factory_manager', 'admin'];

/** The overview, loaded for its readers only. */
export const useLinesOverview = (roles: readonly string[]) =>
  useLoad(getLinesOverview, s.lineOverviewLoadFailed, hasAnyRole(roles, overviewReaders));

/** /reports showing a line's pending inspections, oldest start first (its only other order). */
const pendingReportsPath = (lineClearanceId: string) =>
  `${paths.reports}?${queryString({ lineClearanceId, status: 'pending', sort: 'startTime' })}`;

interface LineRowProps {
  line: LineOverview;
  /** When the server counted: ages are measured from it, as its overdue count is. */
  asOf: Date;
  windowDays: number;
}

function LineRow({ line, asOf, windowDays }: LineRowProps) {
  const { lastSigned } = line;
  const pendingText = s.pendingCount(line.pending);
  return (
    <tr className={line.overdue > 0 ? 'row-flagged' : undefined}>
      <th scope="row">
        <span className="wrap-anywhere">{line.name}</span>
        {line.status !== 'active' && (
          <>
            {' '}
            <StatusTag status={line.status} />
          </>
        )}
      </th>
      <td className="wrap-anywhere">
        <CellLabel>{s.lcManager}</CellLabel>
        {line.manager?.name ?? s.noManager}
      </td>
      <td>
        <CellLabel>{s.lastSigned}</CellLabel>
        {lastSigned ? (
          <div className="line-overview-cell">
            <span>
              <StatusTag status={lastSigned.status} />{' '}
              <span className="wrap-anywhere">
                {s.signedBy(recordTime(lastSigned.signedAt), lastSigned.signerName ?? s.unknown)}
              </span>
            </span>
            <Link
              href={inspectionReportPath(lastSigned.inspectionId)}
              aria-label={s.openLastReport(line.name)}
            >
              {s.openReport}
            </Link>
          </div>
        ) : (
          <span className="muted">{s.noneSigned}</span>
        )}
      </td>
      <td>
        <CellLabel>{s.pending}</CellLabel>
        {line.pending > 0 && line.oldestPendingSince ? (
          <div className="line-overview-cell">
            <Link
              href={pendingReportsPath(line.lineClearanceId)}
              aria-label={s.pendingOn(pendingText, line.name)}
            >
              {pendingText}
            </Link>
            <span>
              <time dateTime={line.oldestPendingSince}>
                {s.waiting(
                  formatDistanceStrict(new Date(line.oldestPendingSince), asOf, {
                    roundingMethod: 'floor',
                  }),
                )}
              </time>
              {line.overdue > 0 && (
                <>
                  {' '}
                  <Tag severity="danger">{s.overdueCount(line.overdue)}</Tag>
                </>
              )}
            </span>
          </div>
        ) : (
          <span className="muted">{s.noPending}</span>
        )}
      </td>
      <td>
        <CellLabel>{s.recent(windowDays)}</CellLabel>
        {s.recentCounts(line.recentInspections, line.recentRejections)}
      </td>
    </tr>
  );
}

function Totals({ overview }: { overview: LinesOverview }) {
  const { totals } = overview;
  return (
    <dl className="line-overview-totals">
      <div>
        <dt>{s.totalPending}</dt>
        <dd>{totals.pending}</dd>
      </div>
      <div className={totals.overdue > 0 ? 'line-overview-overdue' : undefined}>
        <dt>{s.totalOverdue(overview.overdueAfterHours)}</dt>
        <dd>{totals.overdue}</dd>
      </div>
      <div>
        <dt>{s.totalRejections(overview.windowDays)}</dt>
        <dd>{totals.recentRejections}</dd>
      </div>
    </dl>
  );
}

/**
 * How line clearance goes across the plant (docs/reports.md, "Line clearance overview"): the
 * totals, then one row per line, each linking to where its manager goes next. The page loads it
 * (useLinesOverview), so a line clearance saved or deleted there reloads it too.
 */
export function LineOverviewSection({ overview }: { overview: Loaded<LinesOverview> }) {
  const headingId = useId();
  const data = overview.data;
  const asOf = data ? new Date(data.asOf) : null;
  return (
    <section className="card line-overview" aria-labelledby={headingId}>
      <h2 id={headingId}>{s.lineOverview}</h2>
      {data && asOf ? (
        <>
          <Totals overview={data} />
          {data.lines.length === 0 ? (
            <p>{s.noLines}</p>
          ) : (
            <TableScroll label={s.lineOverviewTable}>
              <table className="report-table line-overview-table stacked-table">
                <caption className="visually-hidden">{s.lineOverviewCaption}</caption>
                <thead>
                  <tr>
                    <th scope="col">{s.line}</th>
                    <th scope="col">{s.lcManager}</th>
                    <th scope="col">{s.lastSigned}</th>
                    <th scope="col">{s.pending}</th>
                    <th scope="col">{s.recent(data.windowDays)}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.lines.map((line) => (
                    <LineRow
                      key={line.lineClearanceId}
                      line={line}
                      asOf={asOf}
                      windowDays={data.windowDays}
                    />
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </>
      ) : (
        <p className="muted">
          {overview.loading ? s.loadingLineOverview : s.lineOverviewUnavailable}
        </p>
      )}
      <p className="muted line-overview-footer">
        {asOf && `${s.countedAt(localTime(asOf) ?? s.unknown)} `}
        <button
          type="button"
          className="btn btn-secondary"
          onClick={overview.reload}
          aria-label={s.refreshLineOverview}
        >
          {s.refresh}
        </button>
      </p>
    </section>
  );
}
