import { Link } from 'wouter';
import { reportPdfUrl } from '../api/get-reports.ts';
import { inspectionReportPath, recordHistoryPath, routeRoles } from '../config/paths.ts';
import { recordTime } from '../lib/record-time.ts';
import { hasAnyRole, trailReaders } from '../lib/roles.ts';
import type { ReportRow } from '../types/api.ts';
import { MediaLink } from './media-link.tsx';
import { TableScroll } from './table-scroll.tsx';
import { StatusTag, Tag } from './tag.tsx';
import './report-table.css';

export interface ReportTableProps {
  rows: readonly ReportRow[];
  /** The signed-in user's roles: who may enter the report page gets a link, the others the PDF. */
  roles: readonly string[];
  caption: string;
}

/**
 * Inspection reports as a table; each row opens its report, or, for roles the route table keeps
 * off /inspection-report (auditors), downloads its PDF (docs/reports.md); readers of the trail also
 * get the record's history on /audit. A signed record found
 * changed after signing says so beside its status.
 */
export function ReportTable({ rows, roles, caption }: ReportTableProps) {
  const opensPage = hasAnyRole(roles, routeRoles.inspectionReport);
  // An auditor answering 'what happened to this record' goes straight to its history.
  const readsTrail = hasAnyRole(roles, trailReaders);
  return (
    <TableScroll label={caption}>
      <table className="report-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Start</th>
            <th scope="col">Line</th>
            <th scope="col">Operator</th>
            <th scope="col">Status</th>
            <th scope="col">Flags</th>
            <th scope="col">Signed by</th>
            <th scope="col">Report</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            // The record's clock, as the report, the PDF and the CSV print it (lib/record-time.ts).
            const start = recordTime(row.startTime);
            const name = `${row.lineName} ${start}`;
            return (
              <tr key={row.inspectionId}>
                <th scope="row">{start}</th>
                <td className="report-words">{row.lineName}</td>
                <td className="report-words">{row.operatorName}</td>
                <td>
                  <StatusTag status={row.status} />
                  {row.changedAfterSigning && (
                    <>
                      {' '}
                      <Tag severity="danger">Changed after signing</Tag>
                    </>
                  )}
                </td>
                <td>
                  {row.flags === null
                    ? '—'
                    : `${row.flags}${row.criticalFlags ? ` (${row.criticalFlags} critical or high)` : ''}`}
                </td>
                <td className="report-words">
                  {row.signerName ? `${row.signerName}, ${recordTime(row.signedAt)}` : '—'}
                </td>
                <td className="report-actions">
                  {opensPage && (
                    <Link
                      href={inspectionReportPath(row.inspectionId)}
                      className="btn btn-secondary"
                      aria-label={`Open report ${name}`}
                    >
                      Open
                    </Link>
                  )}
                  <MediaLink
                    className="btn btn-secondary"
                    href={reportPdfUrl(row.inspectionId)}
                    aria-label={`PDF of report ${name}`}
                  >
                    PDF
                  </MediaLink>
                  {readsTrail && (
                    <Link
                      href={recordHistoryPath(row.inspectionId)}
                      className="btn btn-secondary"
                      aria-label={`History of report ${name}`}
                    >
                      History
                    </Link>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
