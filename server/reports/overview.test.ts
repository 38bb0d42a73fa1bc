// The line clearance overview (GET /api/reports/overview): per line its last verdict, the pending
// inspections and their age, the 30 days' counts; only factory managers and admins may read it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../context.ts';
import { auditLog, inspections, lineClearances, signatures } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { type LinesOverview, OVERDUE_AFTER_HOURS } from '../schemas/reports-overview.ts';
import { build, type TestApp } from '../test/build.ts';
import { createRoleUsers, type RoleUsers } from '../test/fixtures.ts';
import { linesOverview, OVERVIEW_WINDOW_DAYS } from './overview.ts';

let t: TestApp;
let u: RoleUsers;

const asOf = new Date('2026-11-20T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(asOf.getTime() - ms);

const ids = {
  blister: newId(),
  alpha: newId(),
  maintenance: newId(),
  retired: newId(),
  newestVerdict: newId(),
  oldestPending: newId(),
};

interface Seeded {
  id?: string;
  line: string;
  start: Date;
  end?: Date;
  /** The server's receipt of the submit (null: a record from before it was kept). */
  received?: Date;
  status?: 'pending' | 'approved' | 'rejected';
  signed?: { at: Date; by: string };
  /** A record signed before signatures were kept: only the inspection's review fields. */
  reviewedAt?: Date;
}

async function seed(rows: Seeded[]) {
  const { db } = t.services.ctx;
  for (const row of rows) {
    const id = row.id ?? newId();
    const reviewed = row.signed?.at ?? row.reviewedAt ?? null;
    await db.insert(inspections).values({
      id,
      lineClearanceId: row.line,
      operatorId: u.operator.id,
      startTime: row.start,
      endTime: row.end ?? null,
      receivedAt: row.received ?? null,
      status: row.status ?? 'pending',
      reviewerId: reviewed ? u.lc.id : null,
      reviewedAt: reviewed,
    });
    if (row.signed && row.status !== 'pending') {
      await db.insert(signatures).values({
        inspectionId: id,
        signerId: u.lc.id,
        signerName: row.signed.by,
        signerEmail: u.lc.email,
        meaning: row.status ?? 'approved',
        statement: 'signed',
        signedAt: row.signed.at,
        recordHash: 'a'.repeat(64),
      });
    }
  }
}

const userOf = (who: keyof RoleUsers): AuthUser => ({
  id: u[who].id,
  name: `Test ${who}`,
  email: u[who].email,
  roles: u[who].roles,
});

beforeAll(async () => {
  t = await build();
  u = await createRoleUsers(t);
  await t.services.ctx.db.insert(lineClearances).values([
    { id: ids.blister, name: 'Blister 1', managerId: u.lc.id },
    { id: ids.alpha, name: 'Alpha', managerId: null },
    { id: ids.maintenance, name: 'Labeller', status: 'maintenance', managerId: u.lc2.id },
    { id: ids.retired, name: 'Cartoner', status: 'inactive', managerId: null },
  ]);
  const windowStart = ago(OVERVIEW_WINDOW_DAYS * DAY);
  await seed([
    // Blister 1: signed ones inside and outside the window (its first instant counts, the one
    // before does not), and pending ones on either side of the overdue limit.
    {
      line: ids.blister,
      start: ago(40 * DAY),
      status: 'approved',
      signed: { at: ago(39 * DAY), by: 'Dana Old' },
    },
    {
      line: ids.blister,
      start: windowStart,
      status: 'rejected',
      signed: { at: ago(29 * DAY), by: 'Sam Early' },
    },
    {
      line: ids.blister,
      start: new Date(windowStart.getTime() - 1),
      status: 'rejected',
      signed: { at: ago(28 * DAY), by: 'Sam Early' },
    },
    {
      id: ids.newestVerdict,
      line: ids.blister,
      start: ago(2 * DAY),
      end: ago(2 * DAY - 600_000),
      status: 'rejected',
      signed: { at: ago(47 * HOUR), by: 'Łukasz Kowalski' },
    },
    // Signed last of all, but an older inspection: not the line's newest verdict.
    {
      line: ids.blister,
      start: ago(5 * DAY),
      status: 'approved',
      signed: { at: ago(HOUR), by: 'Late Signer' },
    },
    // Pending 60 days: outside the window, still pending, waiting since its end.
    {
      id: ids.oldestPending,
      line: ids.blister,
      start: ago(60 * DAY),
      end: ago(60 * DAY - 600_000),
    },
    // No end: waiting since its start, 25 h (overdue).
    { line: ids.blister, start: ago(25 * HOUR) },
    // Waiting exactly the limit since its end: not yet overdue.
    {
      line: ids.blister,
      start: ago(OVERDUE_AFTER_HOURS * HOUR + 600_000),
      end: ago(OVERDUE_AFTER_HOURS * HOUR),
    },
    { line: ids.blister, start: ago(HOUR), end: ago(50 * 60_000) },
    // Alpha: one record signed before signatures were kept.
    { line: ids.alpha, start: ago(10 * DAY), status: 'approved', reviewedAt: ago(9 * DAY) },
    // Recorded three days ago, received two hours ago (a phone offline): waiting since its receipt.
    {
      line: ids.maintenance,
      start: ago(3 * DAY),
      end: ago(3 * DAY - 600_000),
      received: ago(2 * HOUR),
    },
    // An inactive line's pending inspection still waits for its review.
    { line: ids.retired, start: ago(100 * DAY) },
  ]);
});
afterAll(() => t.close());

const nothingRecent = { recentInspections: 0, recentRejections: 0 };
const nothingPending = { pending: 0, overdue: 0, oldestPendingSince: null };

describe('linesOverview', () => {
  it('counts per line: last verdict, pending and overdue, the 30 days; active lines first', async () => {
    const overview = await linesOverview(t.services.ctx.db, userOf('factory'), asOf);
    expect(overview).toEqual({
      asOf: asOf.toISOString(),
      windowDays: 30,
      overdueAfterHours: 24,
      totals: { pending: 6, overdue: 3, recentRejections: 2 },
      lines: [
        {
          lineClearanceId: ids.alpha,
          name: 'Alpha',
          status: 'active',
          manager: null,
          lastSigned: {
            inspectionId: expect.any(String),
            status: 'approved',
            signedAt: ago(9 * DAY).toISOString(),
            signerName: 'Test lc',
          },
          ...nothingPending,
          recentInspections: 1,
          recentRejections: 0,
        },
        {
          lineClearanceId: ids.blister,
          name: 'Blister 1',
          status: 'active',
          manager: { id: u.lc.id, name: 'Test lc' },
          lastSigned: {
            inspectionId: ids.newestVerdict,
            status: 'rejected',
            signedAt: ago(47 * HOUR).toISOString(),
            signerName: 'Łukasz Kowalski',
          },
          pending: 4,
          overdue: 2,
          oldestPendingSince: ago(60 * DAY - 600_000).toISOString(),
          // The window's first instant, the newest verdict, the late-signed one, three pending.
          recentInspections: 6,
          recentRejections: 2,
        },
        {
          lineClearanceId: ids.retired,
          name: 'Cartoner',
          status: 'inactive',
          manager: null,
          lastSigned: null,
          ...nothingRecent,
          pending: 1,
          overdue: 1,
          oldestPendingSince: ago(100 * DAY).toISOString(),
        },
        {
          lineClearanceId: ids.maintenance,
          name: 'Labeller',
          status: 'maintenance',
          manager: { id: u.lc2.id, name: 'Test lc2' },
          lastSigned: null,
          pending: 1,
          overdue: 0,
          oldestPendingSince: ago(2 * HOUR).toISOString(),
          recentInspections: 1,
          recentRejections: 0,
        },
      ],
    } satisfies LinesOverview);
  });

  it('a pending inspection leaves the counts once signed, and becomes the newest verdict', async () => {
    const { db } = t.services.ctx;
    await db
      .update(inspections)
      .set({ status: 'approved', reviewerId: u.lc.id, reviewedAt: ago(10 * 60_000) })
      .where(eq(inspections.id, ids.oldestPending));
    try {
      const blister = (await linesOverview(db, userOf('admin'), asOf)).lines.find(
        (line) => line.lineClearanceId === ids.blister,
      );
      expect(blister).toMatchObject({
        pending: 3,
        overdue: 1,
        oldestPendingSince: ago(25 * HOUR).toISOString(),
        // Started 60 days ago: older than the newest verdict, which stays.
        lastSigned: { inspectionId: ids.newestVerdict },
      });
    } finally {
      // The other tests read the rows as seeded.
      await db
        .update(inspections)
        .set({ status: 'pending', reviewerId: null, reviewedAt: null })
        .where(eq(inspections.id, ids.oldestPending));
    }
  });
});

describe('GET /api/reports/overview', () => {
  const get = (auth?: { authorization: string }) =>
    t.app.inject({ url: '/api/reports/overview', headers: auth ?? {} });

  it('answers factory managers and admins what the aggregate counts at that time', async () => {
    for (const who of ['factory', 'admin'] as const) {
      const res = await get(u[who].auth);
      expect(res.statusCode).toBe(200);
      const body = res.json() as LinesOverview;
      expect(body).toEqual(
        await linesOverview(t.services.ctx.db, userOf(who), new Date(body.asOf)),
      );
      expect(body.lines.map((line) => line.name)).toEqual([
        'Alpha',
        'Blister 1',
        'Cartoner',
        'Labeller',
      ]);
    }
  });

  it('refuses LC managers, auditors and operators (403, audited), and anonymous callers (401)', async () => {
    for (const who of ['lc', 'audit', 'operator'] as const) {
      const res = await get(u[who].auth);
      expect(res.statusCode).toBe(403);
      const refusals = await t.services.ctx.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.actorEmail, u[who].email));
      expect(refusals.map((entry) => entry.action)).toContain('authorization.denied');
    }
    expect((await get()).statusCode).toBe(401);
  });
});
