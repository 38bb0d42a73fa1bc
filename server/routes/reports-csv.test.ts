// The /reports CSV export's file name: two saved exports are told apart by when they were made.
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../db/schema.ts';
import { build, type TestApp } from '../test/build.ts';
import { createRoleUsers, type RoleUsers } from '../test/fixtures.ts';

let t: TestApp;
let u: RoleUsers;

beforeAll(async () => {
  t = await build();
  u = await createRoleUsers(t);
});
afterAll(() => t.close());

describe('GET /api/reports.csv', () => {
  it('names the file with its export time in UTC, and its export entry names the same file', async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const res = await t.app.inject({ url: '/api/reports.csv', headers: u.audit.auth });
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

    const [entry] = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'export'), eq(auditLog.actorId, u.audit.id)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(entry?.newValue).toEqual({ file, filters: {} });
  });
});
