// The line clearance overview (docs/reports.md): per line, its last verdict, the inspections waiting
// for a signature and the last 30 days' inspections and rejections, counted in one SQL statement so
// that 10^5 inspections are never read row by row.
import { and, asc, desc, eq, gte, lt, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AuthUser } from '../context.ts';
import type { Db } from '../db/client.ts';
import { inspections, lineClearances, signatures, users } from '../db/schema.ts';
import { iso } from '../ids.ts';
import type { LineClearanceStatus } from '../schemas/line-clearances.ts';
import {
  type LineOverview,
  type LinesOverview,
  OVERDUE_AFTER_HOURS,
} from '../schemas/reports-overview.ts';
import type { SignatureMeaning } from '../schemas/signatures.ts';
import { visibleTo } from '../services/scope.ts';

/** The recent inspections and rejections are those started in this many days before `asOf`. */
export const OVERVIEW_WINDOW_DAYS = 30;

const HOUR_MS = 3_600_000;

/**
 * Since when a pending inspection waits for its review: the server's receipt of its submit (the
 * device's clock can be wrong), else, for a record from before it was kept, its recording's end
 * or start. Its twin for one card is `waitingSince` in the LC manager's inspections-tab.tsx.
 */
const waitingSince = sql`coalesce(${inspections.receivedAt}, ${inspections.endTime}, ${inspections.startTime})`;

const manager = alias(users, 'manager');
const reviewer = alias(users, 'reviewer');

/** count(*) as an int (PostgreSQL's bigint comes back as text), of the rows `filter` keeps. */
const count = (name: string, filter?: SQL) =>
  (filter ? sql<number>`(count(*) filter (where ${filter}))::int` : sql<number>`count(*)::int`).as(
    name,
  );

/**
 * Every line with its counts, active ones first. Only the pending inspections are found by a
 * sequential scan (no index holds the status); the window and the last verdict walk
 * `inspections_line_start_idx` for each line.
 */
export async function linesOverview(
  db: Db,
  user: AuthUser,
  asOf = new Date(),
): Promise<LinesOverview> {
  const since = new Date(asOf.getTime() - OVERVIEW_WINDOW_DAYS * 24 * HOUR_MS);
  const overdueBefore = new Date(asOf.getTime() - OVERDUE_AFTER_HOURS * HOUR_MS);
  // The route admits only roles that see every line, so the lines are not scoped; the inspections
  // keep the rule every report list applies.
  const visible = visibleTo(user, {
    owner: inspections.operatorId,
    line: inspections.lineClearanceId,
  });

  const pending = db
    .select({
      lineClearanceId: inspections.lineClearanceId,
      pending: count('pending'),
      overdue: count('overdue', lt(waitingSince, overdueBefore)),
      oldest: sql<string>`min(${waitingSince})`.as('oldest_pending_since'),
    })
    .from(inspections)
    .where(and(eq(inspections.status, 'pending'), visible))
    .groupBy(inspections.lineClearanceId)
    .as('pending');

  const recent = db
    .select({
      inspections: count('recent_inspections'),
      rejections: count('recent_rejections', sql`${inspections.status} = 'rejected'`),
    })
    .from(inspections)
    .where(
      and(
        eq(inspections.lineClearanceId, lineClearances.id),
        gte(inspections.startTime, since),
        visible,
      ),
    )
    .as('recent');

  const last = db
    .select({
      inspectionId: sql<string>`${inspections.id}`.as('last_id'),
      status: sql<SignatureMeaning>`${inspections.status}`.as('last_status'),
      signedAt: sql<string | null>`coalesce(${signatures.signedAt}, ${inspections.reviewedAt})`.as(
        'last_signed_at',
      ),
      signerName: sql<string | null>`coalesce(${signatures.signerName}, ${reviewer.name})`.as(
        'last_signer_name',
      ),
    })
    .from(inspections)
    .leftJoin(signatures, eq(signatures.inspectionId, inspections.id))
    .leftJoin(reviewer, eq(reviewer.id, inspections.reviewerId))
    .where(
      and(
        eq(inspections.lineClearanceId, lineClearances.id),
        ne(inspections.status, 'pending'),
        visible,
      ),
    )
    .orderBy(desc(inspections.startTime), desc(inspections.id))
    .limit(1)
    .as('last');

  // A left-joined table's nested object comes back null when the join found nothing.
  const rows = await db
    .select({
      id: lineClearances.id,
      name: lineClearances.name,
      status: lineClearances.status,
      pending: pending.pending,
      overdue: pending.overdue,
      oldestPendingSince: pending.oldest,
      recentInspections: recent.inspections,
      recentRejections: recent.rejections,
      lastId: last.inspectionId,
      lastStatus: last.status,
      lastSignedAt: last.signedAt,
      lastSignerName: last.signerName,
      manager: { id: manager.id, name: manager.name },
    })
    .from(lineClearances)
    .leftJoinLateral(recent, sql`true`)
    .leftJoinLateral(last, sql`true`)
    .leftJoin(manager, eq(manager.id, lineClearances.managerId))
    .leftJoin(pending, eq(pending.lineClearanceId, lineClearances.id))
    .orderBy(
      sql`${lineClearances.status} <> 'active'`,
      asc(lineClearances.name),
      asc(lineClearances.id),
    );

  // Timestamps computed in SQL come back as PostgreSQL's text: read back into ISO form.
  const time = (value: string | null) => (value === null ? null : iso(new Date(value)));
  const lines = rows.map(
    (row): LineOverview => ({
      lineClearanceId: row.id,
      name: row.name,
      status: row.status as LineClearanceStatus,
      manager: row.manager,
      lastSigned: row.lastId
        ? {
            inspectionId: row.lastId,
            status: row.lastStatus,
            signedAt: time(row.lastSignedAt),
            signerName: row.lastSignerName,
          }
        : null,
      pending: row.pending ?? 0,
      overdue: row.overdue ?? 0,
      oldestPendingSince: time(row.oldestPendingSince),
      recentInspections: row.recentInspections ?? 0,
      recentRejections: row.recentRejections ?? 0,
    }),
  );
  const total = (key: 'pending' | 'overdue' | 'recentRejections') =>
    lines.reduce((sum, line) => sum + line[key], 0);
  return {
    asOf: iso(asOf),
    windowDays: OVERVIEW_WINDOW_DAYS,
    overdueAfterHours: OVERDUE_AFTER_HOURS,
    totals: {
      pending: total('pending'),
      overdue: total('overdue'),
      recentRejections: total('recentRejections'),
    },
    lines,
  };
}
