// The /reports list (docs/reports.md): inspections in the caller's scope, filtered, newest or oldest
// first, paged by keyset on (start time, id) so that a page costs the same at 10^3 or 10^5 rows.
import { and, asc, desc, eq, exists, gt, gte, lte, type SQL, sql } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { AuthUser } from '../context.ts';
import type { Db } from '../db/client.ts';
import { inspections, lineClearances, reportSummaries, signatures, users } from '../db/schema.ts';
import { toCsv } from '../http/csv.ts';
import { iso } from '../ids.ts';
import type { InspectionStatus } from '../schemas/inspections.ts';
import type { ReportFilters, ReportPage, ReportRow, ReportsQuery } from '../schemas/reports.ts';
import { visibleTo } from '../services/scope.ts';

const DEFAULT_LIMIT = 50;
/**
 * The list's total counts at most this many matching reports: a count of every match grows with
 * the table (10^5 rows), a capped one costs about the same at any size (bench/reports.bench.ts).
 */
export const TOTAL_CAP = 200;
/** The CSV export's cap: an export is a listing, not a backup (npm run backup is). */
export const CSV_MAX_ROWS = 100_000;

const cursorOf = (row: { startTime: Date; id: string }) => `${row.startTime.getTime()}_${row.id}`;

function parseCursor(cursor: string): { time: Date; id: string } {
  const [ms, id] = cursor.split('_');
  return { time: new Date(Number(ms)), id: id ?? '' };
}

export async function listReports(
  db: Db,
  user: AuthUser,
  query: ReportsQuery,
  options: { all?: boolean } = {},
): Promise<ReportPage> {
  const newestFirst = (query.sort ?? '-startTime') === '-startTime';
  const limit = options.all ? CSV_MAX_ROWS : (query.limit ?? DEFAULT_LIMIT);
  const operator = alias(users, 'operator');
  const filters: (SQL | undefined)[] = [
    visibleTo(user, { owner: inspections.operatorId, line: inspections.lineClearanceId }),
  ];
  if (query.from) filters.push(gte(inspections.startTime, new Date(query.from)));
  if (query.to) filters.push(lte(inspections.startTime, new Date(query.to)));
  if (query.lineClearanceId) filters.push(eq(inspections.lineClearanceId, query.lineClearanceId));
  if (query.operatorId) filters.push(eq(inspections.operatorId, query.operatorId));
  if (query.status) filters.push(eq(inspections.status, query.status));
  if (query.flagged === true) filters.push(gt(reportSummaries.flags, 0));
  if (query.flagged === false) filters.push(eq(reportSummaries.flags, 0));
  if (query.changedAfterSigning !== undefined) {
    filters.push(eq(reportSummaries.changedAfterSigning, query.changedAfterSigning));
  }
  // The total matches the filters, not the page: counted before the cursor's condition joins them.
  const matching = and(...filters);
  if (query.after && !options.all) {
    const { time, id } = parseCursor(query.after);
    filters.push(
      newestFirst
        ? sql`(${inspections.startTime}, ${inspections.id}) < (${time}, ${id})`
        : sql`(${inspections.startTime}, ${inspections.id}) > (${time}, ${id})`,
    );
  }
  const order = newestFirst ? desc : asc;
  const counting = options.all ? Promise.resolve(null) : countReports(db, matching);
  const rowsQuery = db
    .select({
      id: inspections.id,
      startTime: inspections.startTime,
      lineClearanceId: inspections.lineClearanceId,
      // A signed record shows the names it was signed with (docs/signatures.md): a rename since
      // must not make the list and its CSV disagree with the signed report and PDF.
      lineName: sql<
        string | null
      >`coalesce(${signatures.kept}->>'lineName', ${lineClearances.name})`,
      operatorId: inspections.operatorId,
      operatorName: sql<
        string | null
      >`coalesce(${signatures.kept}->>'operatorName', ${operator.name})`,
      status: inspections.status,
      flags: reportSummaries.flags,
      criticalFlags: reportSummaries.criticalFlags,
      signerName: signatures.signerName,
      signedAt: signatures.signedAt,
      changedAfterSigning: reportSummaries.changedAfterSigning,
    })
    .from(inspections)
    .leftJoin(lineClearances, eq(lineClearances.id, inspections.lineClearanceId))
    .leftJoin(operator, eq(operator.id, inspections.operatorId))
    .leftJoin(reportSummaries, eq(reportSummaries.inspectionId, inspections.id))
    .leftJoin(signatures, eq(signatures.inspectionId, inspections.id))
    .where(and(...filters))
    .orderBy(order(inspections.startTime), order(inspections.id))
    .limit(limit + 1);
  const [rows, total] = await Promise.all([rowsQuery, counting]);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    rows: page.map(
      (row): ReportRow => ({
        inspectionId: row.id,
        startTime: iso(row.startTime),
        lineClearanceId: row.lineClearanceId,
        lineName: row.lineName ?? 'Unknown Line',
        operatorId: row.operatorId,
        operatorName: row.operatorName ?? 'Unknown',
        status: row.status as InspectionStatus,
        flags: row.flags,
        criticalFlags: row.criticalFlags,
        signerName: row.signerName,
        signedAt: row.signedAt ? iso(row.signedAt) : null,
        changedAfterSigning: row.changedAfterSigning ?? false,
      }),
    ),
    next: rows.length > limit && last ? cursorOf(last) : null,
    total: total ?? { count: page.length, more: false },
  };
}

/** How many reports match, counted up to TOTAL_CAP (`more`: there are more than that). */
async function countReports(db: Db, where: SQL | undefined): Promise<ReportPage['total']> {
  const capped = db
    .select({ one: sql`1` })
    .from(inspections)
    .leftJoin(reportSummaries, eq(reportSummaries.inspectionId, inspections.id))
    .where(where)
    .limit(TOTAL_CAP + 1)
    .as('capped');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(capped);
  const n = row?.n ?? 0;
  return n > TOTAL_CAP ? { count: TOTAL_CAP, more: true } : { count: n, more: false };
}

/**
 * The Line and Operator filters' choices: the lines and operators of the reports in the caller's
 * scope, so that no choice lists nothing. One indexed EXISTS probe per line and per user
 * (`inspections_line_start_idx`, `inspections_operator_start_idx`), not a scan of the reports.
 */
export async function reportFilters(db: Db, user: AuthUser): Promise<ReportFilters> {
  const visible = visibleTo(user, {
    owner: inspections.operatorId,
    line: inspections.lineClearanceId,
  });
  const anyReport = (column: PgColumn, id: PgColumn) =>
    exists(
      db
        .select({ one: sql`1` })
        .from(inspections)
        .where(and(eq(column, id), visible)),
    );
  const [lines, operators] = await Promise.all([
    db
      .select({ id: lineClearances.id, name: lineClearances.name })
      .from(lineClearances)
      .where(anyReport(inspections.lineClearanceId, lineClearances.id))
      .orderBy(asc(lineClearances.name), asc(lineClearances.id)),
    db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(anyReport(inspections.operatorId, users.id))
      .orderBy(asc(users.name), asc(users.id)),
  ]);
  return { lines, operators };
}

/** The CSV export of a listing, one line per report. */
export function reportRowsCsv(rows: readonly ReportRow[]): string {
  return toCsv(
    [
      'Inspection',
      'Start (UTC)',
      'Line',
      'Operator',
      'Status',
      'Flags',
      'Critical or high flags',
      'Signed by',
      'Signed at (UTC)',
      'Changed after signing',
    ],
    rows.map((row) => [
      row.inspectionId,
      row.startTime,
      row.lineName,
      row.operatorName,
      row.status,
      row.flags,
      row.criticalFlags,
      row.signerName,
      row.signedAt,
      // Signed: checked, yes or no; pending: nothing was signed to change.
      row.status === 'pending' ? '' : row.changedAfterSigning ? 'yes' : 'no',
    ]),
  );
}
