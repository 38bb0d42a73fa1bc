// Every export the server answers with a file is one `export` entry of the trail (who, when, what,
// with which filters); a refused export writes no such entry; the trail's own export never holds
// its own entry, and the chain verifies with exports going on at once.
import { asc, eq, gt, max } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfPages } from '../../tests/support/pdf-text.ts';
import { auditLog, inspections, lineClearances } from '../db/schema.ts';
import { inTurn } from '../http/heavy-work.ts';
import { iso } from '../ids.ts';
import type { AuditEntry, TrailVerification } from '../schemas/audit-log.ts';
import { build, type TestApp } from '../test/build.ts';
import { type DemoKey, loadFixture } from '../test/demo-fixture.ts';

let t: TestApp;
let f: Awaited<ReturnType<typeof loadFixture>>;
/** Line A's inspection (LC manager 'lcmanager', operator 'operator'). */
let inspectionA: string;

beforeAll(async () => {
  t = await build();
  f = await loadFixture(t);
  const [row] = await t.services.ctx.db
    .select({ id: inspections.id })
    .from(inspections)
    .innerJoin(lineClearances, eq(lineClearances.id, inspections.lineClearanceId))
    .where(eq(lineClearances.name, 'Line A'));
  inspectionA = row?.id ?? '';
});
afterAll(() => t.close());

/** Sends a request as `who` and answers it with the audit rows it added. */
async function exported(who: DemoKey, request: InjectOptions | string) {
  const { db } = t.services.ctx;
  const [before] = await db.select({ last: max(auditLog.id) }).from(auditLog);
  const options = typeof request === 'string' ? { url: request } : request;
  const res = await t.app.inject({ ...options, headers: f.auth[who] });
  const rows = await db
    .select()
    .from(auditLog)
    .where(gt(auditLog.id, before?.last ?? 0))
    .orderBy(asc(auditLog.id));
  return { res, rows };
}

/** The one `export` entry a download wrote, with who wrote it. */
function exportEntry(rows: (typeof auditLog.$inferSelect)[], who: DemoKey) {
  expect(rows.map((row) => row.action)).toEqual(['export']);
  const [row] = rows;
  if (!row) throw new Error('no entry');
  expect(row).toMatchObject({ actorId: f.ids[who], actorEmail: `${who}@example.com` });
  expect(row.ip).toBe('127.0.0.1');
  return row;
}

const actions = (rows: { action: string }[]) => rows.map((row) => row.action);

describe('GET /api/users.csv', () => {
  it('writes who took the access review, of every account', async () => {
    const { res, rows } = await exported('factory', '/api/users.csv');
    expect(res.statusCode).toBe(200);
    expect(exportEntry(rows, 'factory')).toMatchObject({
      entity: 'user',
      entityId: null,
      oldValue: null,
      newValue: { file: `user-access-review-${iso(new Date()).slice(0, 10)}.csv` },
    });
  });

  it('writes no export for a refusal, nor for a HEAD request, which sends no file', async () => {
    const refused = await exported('lcmanager', '/api/users.csv');
    expect(refused.res.statusCode).toBe(403);
    expect(actions(refused.rows)).toEqual(['authorization.denied']);
    const head = await exported('admin', { method: 'HEAD', url: '/api/users.csv' });
    expect(head.res.statusCode).toBe(200);
    expect(head.rows).toEqual([]);
  });
});

describe('GET /api/reports.csv', () => {
  it('writes the filters the file was made with, not its paging nor unknown keys', async () => {
    const url =
      '/api/reports.csv?status=pending&flagged=false&sort=startTime' +
      `&lineClearanceId=${'a'.repeat(24)}&limit=5&colour=red`;
    const { res, rows } = await exported('lcmanager', url);
    expect(res.statusCode).toBe(200);
    const entry = exportEntry(rows, 'lcmanager');
    expect(entry).toMatchObject({
      entity: 'inspection',
      entityId: null,
      newValue: {
        file: expect.stringMatching(/^inspection-reports-\d{4}-\d{2}-\d{2}T\d{6}Z\.csv$/),
        filters: {
          status: 'pending',
          flagged: false,
          sort: 'startTime',
          lineClearanceId: 'a'.repeat(24),
        },
      },
    });
    expect(Object.keys(entry.newValue as object)).toEqual(['file', 'filters']);
    expect(Object.keys((entry.newValue as { filters: object }).filters)).toHaveLength(4);

    const unfiltered = await exported('operator', '/api/reports.csv');
    expect(exportEntry(unfiltered.rows, 'operator').newValue).toEqual({
      file: expect.stringMatching(/^inspection-reports-\d{4}-\d{2}-\d{2}T\d{6}Z\.csv$/),
      filters: {},
    });
  });

  it('names the file with its export time in UTC, and its export entry names the same file', async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const { res, rows } = await exported('audit', '/api/reports.csv');
    const after = Date.now();
    expect(res.statusCode).toBe(200);
    const named = /^attachment; filename="(inspection-reports-(.+)\.csv)"$/.exec(
      String(res.headers['content-disposition']),
    );
    const [, file, stamp] = named ?? [];
    expect(stamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{6}Z$/);
    const exportedAt = Date.parse(String(stamp).replace(/T(\d{2})(\d{2})(\d{2})Z$/, 'T$1:$2:$3Z'));
    expect(exportedAt).toBeGreaterThanOrEqual(before);
    expect(exportedAt).toBeLessThanOrEqual(after);
    expect(exportEntry(rows, 'audit').newValue).toEqual({ file, filters: {} });
  });

  it('writes nothing for a filter it refuses', async () => {
    const { res, rows } = await exported('audit', '/api/reports.csv?status=lost');
    expect(res.statusCode).toBe(400);
    expect(rows).toEqual([]);
  });

  it('writes nothing when the server is too busy to send it (503)', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Two turns running and eight waiting: the next export is refused.
    const holders = Array.from({ length: 10 }, () => inTurn(t.app, () => held));
    try {
      const { res, rows } = await exported('audit', '/api/reports.csv');
      expect(res.statusCode).toBe(503);
      expect(rows).toEqual([]);
    } finally {
      release();
      await Promise.all(holders);
    }
  });
});

describe('GET /api/reports/{id}/pdf', () => {
  it('writes the printed copy under its inspection, with its print time and record hash', async () => {
    const { res, rows } = await exported('audit', `/api/reports/${inspectionA}/pdf`);
    expect(res.statusCode).toBe(200);
    const entry = exportEntry(rows, 'audit');
    const report = await t.app.inject({
      url: `/api/reports/${inspectionA}`,
      headers: f.auth.admin,
    });
    expect(entry).toMatchObject({
      entity: 'inspection',
      entityId: inspectionA,
      newValue: {
        file: `inspection-${inspectionA}.pdf`,
        recordHash: report.json().recordHash,
      },
    });
    // The print time is the one on the copy's pages.
    const printedAt = (entry.newValue as { printedAt: string }).printedAt;
    const pages = await pdfPages(res.rawPayload);
    expect(pages[0]).toContain(`Printed ${printedAt.slice(0, 10)} ${printedAt.slice(11, 19)} UTC`);

    // The record's history holds the print; the next copy prints it there.
    const history = await t.app.inject({
      url: `/api/audit-log?record=${inspectionA}&action=export`,
      headers: f.auth.audit,
    });
    expect((history.json() as AuditEntry[]).map((e) => e.id)).toEqual([entry.id]);
    const next = await exported('admin', `/api/reports/${inspectionA}/pdf`);
    const text = (await pdfPages(next.res.rawPayload)).join(' ').replace(/\s+/g, ' ');
    expect(text).toContain(`audit@example.com · export inspection (entry ${entry.id})`);
  });

  it('writes no export for a report outside the caller’s scope, only the refused read', async () => {
    const { res, rows } = await exported('lcmanager2', `/api/reports/${inspectionA}/pdf`);
    expect(res.statusCode).toBe(404);
    expect(rows.map((row) => [row.action, row.newValue])).toEqual([
      [
        'authorization.denied',
        {
          reason: 'an inspection outside the records the caller may see',
          params: { id: inspectionA },
        },
      ],
    ]);
  });
});

describe('GET /api/audit-log.csv', () => {
  const ids = (body: string) =>
    body
      .split('\r\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => Number(line.split(',')[0]));

  it('writes its filters; a copy never holds its own entry, the next one does', async () => {
    const first = await exported('audit', '/api/audit-log.csv?action=export&limit=3');
    expect(first.res.statusCode).toBe(200);
    const own = exportEntry(first.rows, 'audit');
    expect(own).toMatchObject({
      entity: 'audit-log',
      entityId: null,
      newValue: { file: 'audit-trail.csv', filters: { action: 'export' } },
    });
    // Every export before it, newest first, and not itself.
    const earlier = await t.services.ctx.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(eq(auditLog.action, 'export'))
      .orderBy(asc(auditLog.id));
    const listed = ids(first.res.body);
    expect(listed).not.toContain(own.id);
    expect(listed).toEqual(
      earlier
        .map((row) => row.id)
        .filter((id) => id !== own.id)
        .reverse(),
    );
    expect(listed.length).toBeGreaterThan(3);

    const second = await exported('factory', '/api/audit-log.csv?action=export');
    const next = exportEntry(second.rows, 'factory');
    expect(ids(second.res.body)).toEqual([own.id, ...listed]);
    expect(ids(second.res.body)).not.toContain(next.id);
  });

  it('writes nothing for a record the caller may not see', async () => {
    const { res, rows } = await exported('audit', '/api/audit-log.csv?record=nothing-here');
    expect(res.statusCode).toBe(404);
    expect(rows).toEqual([]);
  });

  it('keeps the chain whole with exports and changes at once', async () => {
    const { db } = t.services.ctx;
    const [before] = await db.select({ last: max(auditLog.id) }).from(auditLog);
    const answers = await Promise.all([
      ...(['audit', 'factory', 'admin'] as const).map((who) =>
        t.app.inject({ url: '/api/audit-log.csv', headers: f.auth[who] }),
      ),
      t.app.inject({ url: '/api/reports.csv', headers: f.auth.lcmanager }),
      t.app.inject({ url: `/api/reports/${inspectionA}/pdf`, headers: f.auth.operator }),
      t.app.inject({ url: '/api/users.csv', headers: f.auth.admin }),
      t.app.inject({
        method: 'POST',
        url: '/api/devices',
        headers: f.auth.admin,
        payload: { qrCode: 'SN-EXPORTS-AT-ONCE' },
      }),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200, 200, 201]);
    const written = await db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(gt(auditLog.id, before?.last ?? 0));
    expect(actions(written).sort()).toEqual(['create', ...Array(6).fill('export')]);
    const verify = await t.app.inject({ url: '/api/audit-log/verify', headers: f.auth.audit });
    expect(verify.json() as TrailVerification).toMatchObject({ ok: true, firstBroken: null });
  });
});
