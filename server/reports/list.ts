// The /reports list (docs/reports.md): inspections in the caller's scope, filtered, newest or oldest
// first, paged by keyset on (start time, id) so that a page costs the same at 10^3 or 10^5 rows.
import { and, asc, desc, eq, exists, gt, gte, lte, type SQL, sql } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { AuthUser } from '../context.ts';
import type { Db } from '../db/client.ts';
import {
  inspections,
  lineClearances,
  reportSummaries,
  signatures,
  users,
  videos,
} from '../db/schema.ts';
import { csvChunks } from '../http/csv.ts';
import { iso } from '../ids.ts';
import type { InspectionStatus } from '../schemas/inspections.ts';
import type { ReportFilters, ReportPage, ReportRow, ReportsQuery } from '../schemas/reports.ts';
import { visibleTo } from '../services/scope.ts';
import { REPORT_RULES_VERSION } from './report.ts';

const DEFAULT_LIMIT = 50;
/**
 * The list's total counts at most this many matching reports: a count of every match grows with
 * the table (10^5 rows), a capped one costs about the same at any size (bench/reports.bench.ts).
 */
export const TOTAL_CAP = 200;
/** The CSV export reads this many reports at a time: a long export never sits in memory whole. */
export const CSV_BATCH = 2_000;

const operator = alias(users, 'operator');

const cursorOf = (row: { startTime: Date; id: string }) => `${row.startTime.getTime()}_${row.id}`;

/** The rows after a cursor, in the listing's order. */
function after(cursor: string, newestFirst: boolean): SQL {
  const [ms, id = ''] = cursor.split('_');
  const time = new Date(Number(ms));
  return newestFirst
    ? sql`(${inspections.startTime}, ${inspections.id}) < (${time}, ${id})`
    : sql`(${inspections.startTime}, ${inspections.id}) > (${time}, ${id})`;
}

/** The caller's scope and the query's filters (not its cursor). */
function matching(user: AuthUser, query: ReportsQuery): SQL[] {
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
  return filters.filter((filter) => filter !== undefined);
}

/**
 * A report's summary built by the current rules: one built by older rules (an upgrade's start
 * rebuilds them, minutes at plant scale) is shown and filtered as not yet built, never by the
 * counts of rules that no longer hold.
 */
const currentSummary = and(
  eq(reportSummaries.inspectionId, inspections.id),
  eq(reportSummaries.rules, REPORT_RULES_VERSION),
);

const newestFirst = (query: ReportsQuery) => (query.sort ?? '-startTime') === '-startTime';

/** A listed report's columns (the CSV adds its own). */
const listColumns = {
  id: inspections.id,
  startTime: inspections.startTime,
  lineClearanceId: inspections.lineClearanceId,
  // A signed record shows the names it was signed with (docs/signatures.md): a rename since
  // must not make the list and its CSV disagree with the signed report and PDF.
  lineName: sql<string | null>`coalesce(${signatures.kept}->>'lineName', ${lineClearances.name})`,
  operatorId: inspections.operatorId,
  operatorName: sql<string | null>`coalesce(${signatures.kept}->>'operatorName', ${operator.name})`,
  status: inspections.status,
  flags: reportSummaries.flags,
  criticalFlags: reportSummaries.criticalFlags,
  signerName: signatures.signerName,
  signedAt: signatures.signedAt,
  changedAfterSigning: reportSummaries.changedAfterSigning,
};

/** A row of listColumns (the summary and the signature are left-joined: null when missing). */
interface ListedColumns {
  id: string;
  startTime: Date;
  lineClearanceId: string;
  lineName: string | null;
  operatorId: string;
  operatorName: string | null;
  status: string;
  flags: number | null;
  criticalFlags: number | null;
  signerName: string | null;
  signedAt: Date | null;
  changedAfterSigning: boolean | null;
}

function toReportRow(row: ListedColumns): ReportRow {
  return {
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
  };
}

export async function listReports(
  db: Db,
  user: AuthUser,
  query: ReportsQuery,
): Promise<ReportPage> {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const filters = matching(user, query);
  const order = newestFirst(query) ? desc : asc;
  const rowsQuery = db
    .select(listColumns)
    .from(inspections)
    .leftJoin(lineClearances, eq(lineClearances.id, inspections.lineClearanceId))
    .leftJoin(operator, eq(operator.id, inspections.operatorId))
    .leftJoin(reportSummaries, currentSummary)
    .leftJoin(signatures, eq(signatures.inspectionId, inspections.id))
    .where(and(...filters, query.after ? after(query.after, newestFirst(query)) : undefined))
    .orderBy(order(inspections.startTime), order(inspections.id))
    .limit(limit + 1);
  // The total matches the filters, not the page: counted without the cursor's condition.
  const [rows, total] = await Promise.all([rowsQuery, countReports(db, and(...filters))]);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    rows: page.map(toReportRow),
    next: rows.length > limit && last ? cursorOf(last) : null,
    total,
  };
}

/** How many reports match, counted up to TOTAL_CAP (`more`: there are more than that). */
async function countReports(db: Db, where: SQL | undefined): Promise<ReportPage['total']> {
  const capped = db
    .select({ one: sql`1` })
    .from(inspections)
    .leftJoin(reportSummaries, currentSummary)
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

const CSV_HEADER = [
  'Inspection',
  'Start (UTC)',
  'End (UTC)',
  'Received (UTC)',
  'Line',
  'Operator',
  'Product leaving',
  'Batch leaving',
  'Product coming',
  'Batch coming',
  'Operator notes',
  'Status',
  'Flags',
  'Critical or high flags',
  'Video SHA-256',
  'Signed by',
  'Signer email',
  'Signed at (UTC)',
  'Meaning',
  'Signature notes',
  'Signed record hash',
  'Changed after signing',
];

/**
 * The CSV export of a listing (every matching report, whatever the cursor), one line per report
 * with what the report's header and signature show, read CSV_BATCH reports at a time.
 */
export function reportsCsv(db: Db, user: AuthUser, query: ReportsQuery): AsyncGenerator<string> {
  const filters = matching(user, query);
  const order = newestFirst(query) ? desc : asc;
  async function* batches() {
    let cursor: string | null = null;
    do {
      const rows = await db
        .select({
          ...listColumns,
          endTime: inspections.endTime,
          receivedAt: inspections.receivedAt,
          productLeaving: inspections.productLeaving,
          batchLeaving: inspections.batchLeaving,
          productComing: inspections.productComing,
          batchComing: inspections.batchComing,
          operatorNotes: inspections.operatorNotes,
          videoSha256: videos.sha256,
          signerEmail: signatures.signerEmail,
          statement: signatures.statement,
          signatureNotes: signatures.notes,
          recordHash: signatures.recordHash,
        })
        .from(inspections)
        .leftJoin(lineClearances, eq(lineClearances.id, inspections.lineClearanceId))
        .leftJoin(operator, eq(operator.id, inspections.operatorId))
        .leftJoin(reportSummaries, currentSummary)
        .leftJoin(signatures, eq(signatures.inspectionId, inspections.id))
        .leftJoin(videos, eq(videos.id, inspections.videoId))
        .where(and(...filters, cursor ? after(cursor, newestFirst(query)) : undefined))
        .orderBy(order(inspections.startTime), order(inspections.id))
        .limit(CSV_BATCH);
      const last = rows[rows.length - 1];
      cursor = rows.length === CSV_BATCH && last ? cursorOf(last) : null;
      yield rows.map((row) => {
        const listed = toReportRow(row);
        return [
          listed.inspectionId,
          listed.startTime,
          row.endTime ? iso(row.endTime) : null,
          row.receivedAt ? iso(row.receivedAt) : null,
          listed.lineName,
          listed.operatorName,
          row.productLeaving,
          row.batchLeaving,
          row.productComing,
          row.batchComing,
          row.operatorNotes,
          listed.status,
          listed.flags,
          listed.criticalFlags,
          row.videoSha256,
          listed.signerName,
          row.signerEmail,
          listed.signedAt,
          row.statement,
          row.signatureNotes,
          row.recordHash,
          // Signed: checked, yes or no; pending: nothing was signed to change.
          listed.status === 'pending' ? '' : listed.changedAfterSigning ? 'yes' : 'no',
        ];
      });
    } while (cursor);
  }
  return csvChunks(CSV_HEADER, batches());
}
