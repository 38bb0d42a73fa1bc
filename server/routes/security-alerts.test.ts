import { asc, gt, max } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../audit/audit.ts';
import { auditLog } from '../db/schema.ts';
import type { AuditEntry } from '../schemas/audit-log.ts';
import type { SecurityAlerts } from '../schemas/security-alerts.ts';
import { build, type TestApp } from '../test/build.ts';
import { createRoleUsers, type RoleUsers } from '../test/fixtures.ts';

let t: TestApp;
let u: RoleUsers;

beforeAll(async () => {
  t = await build();
  u = await createRoleUsers(t);
});
afterAll(() => t.close());

type Auth = { authorization: string };

async function alerts(auth: Auth): Promise<SecurityAlerts> {
  const res = await t.app.inject({ url: '/api/security-alerts', headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json();
}
const review = (auth: Auth, throughId: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/security-alerts/review',
    headers: auth,
    payload: { throughId },
  });
async function newestEntryId(): Promise<number> {
  const [row] = await t.services.ctx.db.select({ id: max(auditLog.id) }).from(auditLog);
  return row?.id ?? 0;
}
/** The trail's entries written after entry `afterId`. */
const entriesAfter = (afterId: number) =>
  t.services.ctx.db
    .select()
    .from(auditLog)
    .where(gt(auditLog.id, afterId))
    .orderBy(asc(auditLog.id));
const failSignIn = (email: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'wrong-one' } });

describe('security alerts', () => {
  it('are empty on a quiet trail', async () => {
    expect(await alerts(u.admin.auth)).toEqual({
      reviewed: null,
      count: 0,
      entries: [],
      lockedAccounts: [],
    });
  });

  it('show the lockout after five failed sign-ins of one account, and a 403', async () => {
    for (let i = 0; i < 4; i++) await failSignIn(u.operator.email);
    // Failures alone are not alerts: the lock they lead to is.
    expect((await alerts(u.admin.auth)).count).toBe(0);
    await failSignIn(u.operator.email);
    const locked = await alerts(u.factory.auth);
    expect(locked.count).toBe(1);
    expect(locked.entries).toMatchObject([
      { action: 'account.locked', entity: 'user', entityId: u.operator.id },
    ]);
    const [lock] = locked.entries as [AuditEntry];
    expect(lock.hash).toMatch(/^[0-9a-f]{64}$/);
    const { lockedUntil } = lock.newValue as { lockedUntil: string };
    expect(locked.lockedAccounts).toEqual([
      { id: u.operator.id, name: 'Test operator', email: u.operator.email, lockedUntil },
    ]);

    const refused = await t.app.inject({ url: '/api/security-alerts', headers: u.lc.auth });
    expect(refused.statusCode).toBe(403);
    const both = await alerts(u.admin.auth);
    expect(both.count).toBe(2);
    expect(both.entries.map((entry) => [entry.action, entry.actorEmail, entry.entityId])).toEqual([
      ['authorization.denied', u.lc.email, 'GET /api/security-alerts'],
      ['account.locked', u.operator.email, u.operator.id],
    ]);
  });

  it('a review clears them for everyone, with one trail entry; a later event shows again', async () => {
    const before = await alerts(u.admin.auth);
    const throughId = before.entries[0]?.id as number;
    const lastBefore = await newestEntryId();

    const res = await review(u.admin.auth, throughId);
    expect(res.statusCode).toBe(200);
    const written = await entriesAfter(lastBefore);
    expect(written).toMatchObject([
      {
        action: 'security-alerts.reviewed',
        actorId: u.admin.id,
        actorEmail: u.admin.email,
        newValue: { throughId, count: 2, afterId: 0 },
      },
    ]);
    const after = res.json() as SecurityAlerts;
    expect(after).toMatchObject({
      reviewed: { throughId, by: { name: 'Test admin', email: u.admin.email } },
      count: 0,
      entries: [],
    });
    expect(after.reviewed?.at).toBe(written[0]?.at.toISOString());
    // The lock is still on: the account stays listed until it ends or is unlocked.
    expect(after.lockedAccounts.map((account) => account.id)).toEqual([u.operator.id]);
    expect(await alerts(u.factory.auth)).toEqual(after);

    await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${u.admin.id}`,
      headers: u.audit.auth,
    });
    const again = await alerts(u.factory.auth);
    expect(again.count).toBe(1);
    expect(again.entries).toMatchObject([
      { action: 'authorization.denied', actorEmail: u.audit.email },
    ]);
    expect(again.reviewed?.throughId).toBe(throughId);
  });

  it('a stale review changes nothing and writes nothing', async () => {
    const before = await alerts(u.admin.auth);
    const throughId = before.reviewed?.throughId as number;
    const lastBefore = await newestEntryId();
    for (const stale of [throughId, throughId - 1]) {
      const res = await review(u.factory.auth, stale);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(before);
    }
    expect(await entriesAfter(lastBefore)).toEqual([]);
  });

  it('refuses a throughId beyond the newest entry, naming the field', async () => {
    const before = await alerts(u.admin.auth);
    const lastBefore = await newestEntryId();
    const res = await review(u.admin.auth, lastBefore + 1);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^body\.throughId /);
    for (const invalid of [0, 'x', 1.5]) {
      const refused = await review(u.admin.auth, invalid);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toMatch(/throughId/);
    }
    expect(await entriesAfter(lastBefore)).toEqual([]);
    expect(await alerts(u.admin.auth)).toEqual(before);
  });

  it('counts every alert and lists the newest 20, blocked addresses among them', async () => {
    const before = await alerts(u.admin.auth);
    for (let i = 1; i <= 25; i++) {
      await audit(t.services.ctx.db, null, {
        action: 'login.address-blocked',
        entity: 'address',
        entityId: `10.0.0.${i}`,
        newValue: { failures: 50, windowSeconds: 60 },
      });
    }
    const many = await alerts(u.admin.auth);
    expect(many.count).toBe(before.count + 25);
    expect(many.entries).toHaveLength(20);
    expect(many.entries[0]?.entityId).toBe('10.0.0.25');
    expect(many.entries.map((entry) => entry.id)).toEqual(
      many.entries.map((entry) => entry.id).sort((a, b) => b - a),
    );
    // Reviewing through the newest covers the ones the list left out too.
    const res = await review(u.factory.auth, many.entries[0]?.id);
    expect(res.json()).toMatchObject({
      count: 0,
      reviewed: { by: { name: 'Test factory', email: u.factory.email } },
    });
  });

  it('is for admins and factory managers only', async () => {
    expect((await t.app.inject({ url: '/api/security-alerts' })).statusCode).toBe(401);
    expect((await review(u.operator2.auth, 1)).statusCode).toBe(403);
  });
});
