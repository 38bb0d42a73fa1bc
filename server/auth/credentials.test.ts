import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../db/schema.ts';
import { changes } from '../schemas/audit-changes.ts';
import { build, type TestApp } from '../test/build.ts';
import { createUser, PASSWORD, type TestUser } from '../test/fixtures.ts';
import { createCredentialGuard } from './credentials.ts';

let t: TestApp;
let admin: TestUser;
let counter = 0;
const LOCK_SECONDS = 3;
const lockOver = () => sleep(LOCK_SECONDS * 1000 + 300);
/** Another guard's cookie key (no test here sends a known-browser cookie). */
const BROWSER_KEY = randomBytes(32);

beforeAll(async () => {
  // The defaults but a three-second first lock, so a test can wait for it to expire.
  t = await build({ LOGIN_LOCK_SECONDS: String(LOCK_SECONDS), LOGIN_RATE_LIMIT: '50' });
  admin = await createUser(t, 'admin', ['admin']);
});
afterAll(() => t.close());

const fresh = () => createUser(t, `user${counter++}`, ['operator']);
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
const answer = async (email: string, password: string) => {
  const res = await login(email, password);
  return { status: res.statusCode, body: res.json() };
};
const auditOf = async (userId: string) =>
  (
    await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, userId))
      // In the order written: without it PostgreSQL may answer them in any order.
      .orderBy(asc(auditLog.id))
  ).map((row) => ({
    action: row.action,
    newValue: row.newValue as Record<string, unknown> | null,
  }));
const REFUSED = { status: 401, body: { message: 'Invalid email or password' } };

describe('sign-in lockout', () => {
  it('six wrong passwords lock that account only, with the same answer, until it expires', async () => {
    const victim = await fresh();
    const bystander = await fresh();
    for (let i = 0; i < 5; i++) expect(await answer(victim.email, `wrong-${i}`)).toEqual(REFUSED);
    const listed = await t.app.inject({ url: '/api/users', headers: admin.auth });
    const row = listed.json().find((u: { _id: string }) => u._id === victim.id);
    expect(Date.parse(row.lockedUntil)).toBeGreaterThan(Date.now());
    // Locked: the right password gets the answer of a wrong one and of an unknown email.
    expect(await answer(victim.email, 'wrong-5')).toEqual(REFUSED);
    expect(await answer(victim.email, PASSWORD)).toEqual(REFUSED);
    expect(await answer('nobody@test.example', PASSWORD)).toEqual(REFUSED);
    // Same address, another account: not affected.
    expect((await login(bystander.email, PASSWORD)).statusCode).toBe(200);
    expect((await auditOf(victim.id)).filter((e) => e.action === 'account.locked')).toEqual([
      {
        action: 'account.locked',
        newValue: expect.objectContaining({ seconds: LOCK_SECONDS, lock: 1 }),
      },
    ]);
    await lockOver();
    expect((await login(victim.email, PASSWORD)).statusCode).toBe(200);
    expect((await auditOf(victim.id)).map((e) => e.action)).toContain('account.unlocked');
  });

  it('locks for a growing time while no sign-in succeeds', async () => {
    const user = await fresh();
    for (let i = 0; i < 5; i++) await login(user.email, 'wrong-password');
    await lockOver();
    for (let i = 0; i < 5; i++) await login(user.email, 'wrong-password');
    const locks = (await auditOf(user.id)).filter((e) => e.action === 'account.locked');
    expect(locks.map((e) => e.newValue?.seconds)).toEqual([LOCK_SECONDS, 2 * LOCK_SECONDS]);
  });

  it('audits each failure before the lock or address block it causes', async () => {
    const { db, passwords, config } = t.services.ctx;
    const inOrder = async (where: ReturnType<typeof eq>) =>
      (await db.select().from(auditLog).where(where).orderBy(asc(auditLog.id))).map(
        (row) => row.action,
      );
    const user = await fresh();
    for (let i = 0; i < 5; i++) await login(user.email, 'wrong-password');
    expect(await inOrder(eq(auditLog.entityId, user.id))).toEqual([
      ...Array(5).fill('login.failed'),
      'account.locked',
    ]);
    // An address over its limit (two here) is blocked after the failure that reached it.
    const guard = createCredentialGuard(
      db,
      passwords,
      { ...config, loginRateLimit: 2 },
      BROWSER_KEY,
    );
    const request = { ip: '192.0.2.77', user: null } as never;
    for (let i = 0; i < 2; i++)
      await guard.check(request, { email: 'x@nowhere.example' }, 'x', 'login');
    expect(await inOrder(eq(auditLog.ip, '192.0.2.77'))).toEqual([
      'login.failed',
      'login.failed',
      'login.address-blocked',
    ]);
  });

  it('an admin unlocks from the users list, audited', async () => {
    const user = await fresh();
    for (let i = 0; i < 5; i++) await login(user.email, 'wrong-password');
    expect((await login(user.email, PASSWORD)).statusCode).toBe(401);
    const unlock = await t.app.inject({
      method: 'POST',
      url: `/api/users/${user.id}/unlock`,
      headers: admin.auth,
    });
    expect(unlock.json()).toEqual({ message: 'Account unlocked' });
    expect((await login(user.email, PASSWORD)).statusCode).toBe(200);
    expect(await auditOf(user.id)).toContainEqual({
      action: 'account.unlocked',
      newValue: expect.objectContaining({ reason: 'unlocked by an administrator' }),
    });
  });

  it('keeps the reason an admin gives for an unlock, and refuses one that says nothing', async () => {
    const user = await fresh();
    for (let i = 0; i < 5; i++) await login(user.email, 'wrong-password');
    const unlock = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/users/${user.id}/unlock`,
        headers: admin.auth,
        payload,
      });
    const vague = await unlock({ reason: 'ok' });
    expect(vague.statusCode).toBe(400);
    expect(vague.json().message).toBe(
      'body.reason must say why the account is unlocked (at least 3 different words)',
    );
    expect((await unlock({ reason: 'Identity confirmed by phone call' })).statusCode).toBe(200);
    expect(await auditOf(user.id)).toContainEqual({
      action: 'account.unlocked',
      newValue: expect.objectContaining({ reason: 'Identity confirmed by phone call' }),
    });
  });

  it('an unlock reads as the lock lifted: lockedUntil from its time to none', async () => {
    const unlocks = async (userId: string) =>
      (await t.services.ctx.db.select().from(auditLog).where(eq(auditLog.entityId, userId)))
        .filter((row) => row.action === 'account.unlocked')
        .map((row) => changes(row.oldValue, row.newValue).map((change) => change.line));
    const lockedUntil = async (userId: string) => {
      const [entry] = (await auditOf(userId)).filter((e) => e.action === 'account.locked');
      return entry?.newValue?.lockedUntil;
    };
    // From an address of its own: ten more failures from the tests' would block theirs.
    const wrong = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email, password: 'wrong-password' },
        remoteAddress: '192.0.2.80',
      });
    const byAdmin = await fresh();
    for (let i = 0; i < 5; i++) await wrong(byAdmin.email);
    const until = await lockedUntil(byAdmin.id);
    await t.app.inject({
      method: 'POST',
      url: `/api/users/${byAdmin.id}/unlock`,
      headers: admin.auth,
      payload: { reason: 'Identity confirmed by phone call' },
    });
    expect(await unlocks(byAdmin.id)).toEqual([[`lockedUntil: ${until} → —`]]);
    // A lock that ran out, lifted by the next good sign-in.
    const expired = await fresh();
    for (let i = 0; i < 5; i++) await wrong(expired.email);
    const ended = await lockedUntil(expired.id);
    await lockOver();
    expect((await login(expired.email, PASSWORD)).statusCode).toBe(200);
    expect(await unlocks(expired.id)).toEqual([[`lockedUntil: ${ended} → —`]]);
  });

  it('wrong current passwords of a password change count toward the lock', async () => {
    const user = await fresh();
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/change-password',
        headers: user.auth,
        payload: { currentPassword: `guess-${i}`, newPassword: 'new-password-1' },
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await login(user.email, PASSWORD)).statusCode).toBe(401);
  });

  it('keeps the lock in the database: another process sees it', async () => {
    const user = await fresh();
    for (let i = 0; i < 5; i++) await login(user.email, 'wrong-password');
    const { db, passwords, config } = t.services.ctx;
    const otherProcess = createCredentialGuard(db, passwords, config, BROWSER_KEY);
    const request = { ip: '127.0.0.1', user: null, headers: {} } as never;
    const check = await otherProcess.check(request, { email: user.email }, PASSWORD, 'login');
    expect(check).toEqual({
      ok: false,
      status: 401,
      reason: 'account locked',
      lockedUntil: expect.any(Date),
    });
  });

  it('a deactivated account cannot sign in; its tokens die', async () => {
    const user = await fresh();
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: admin.auth,
      payload: { name: 'Gone', email: user.email, status: 'deactivated' },
    });
    expect(put.json()).toMatchObject({ status: 'deactivated' });
    expect(await answer(user.email, PASSWORD)).toEqual(REFUSED);
    expect((await t.app.inject({ url: '/api/me', headers: user.auth })).statusCode).toBe(401);
  });
});
