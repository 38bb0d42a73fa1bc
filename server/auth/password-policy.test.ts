// Password history (PASSWORD_HISTORY) and age (PASSWORD_MAX_AGE_DAYS), 21 CFR 11.300(b): through
// the API, with back-dated users.password_changed_at for the age.
import fs from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLockouts, auditLog, passwordHistory, users } from '../db/schema.ts';
import { SET_OWN_PASSWORD_FIRST } from '../http/auth-hook.ts';
import { insertUser } from '../services/users.ts';
import { build, type TestApp } from '../test/build.ts';
import { createUser, PASSWORD, type TestUser } from '../test/fixtures.ts';

/** Default history (5), passwords expire after 90 days. */
let t: TestApp;
/** PASSWORD_HISTORY=0, passwords never expire (the default age). */
let off: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await build({ PASSWORD_MAX_AGE_DAYS: '90' });
  off = await build({ PASSWORD_HISTORY: '0' });
  admin = await createUser(t, 'admin', ['admin']);
});
afterAll(async () => {
  await t.close();
  await off.close();
});

const DAY = 86_400_000;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const login = (app: TestApp, email: string, password: string) =>
  app.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });

async function signIn(app: TestApp, email: string, password: string) {
  const res = await login(app, email, password);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { token: string; ownPassword: boolean; passwordExpiredAfterDays: unknown };
}

const change = (app: TestApp, token: string, currentPassword: string, newPassword: string) =>
  app.app.inject({
    method: 'POST',
    url: '/api/change-password',
    headers: bearer(token),
    payload: { currentPassword, newPassword },
  });

/** A user whose password is its own, signed in. */
async function ownUser(app: TestApp, key: string) {
  const { db, passwords } = app.services.ctx;
  const row = await insertUser(db, passwords, {
    name: `Pat ${key}`,
    email: `${key}@policy.example`,
    password: PASSWORD,
    roles: ['operator'],
  });
  return { id: row.id, email: row.email, token: (await signIn(app, row.email, PASSWORD)).token };
}

/** Changes the password through each of `next` in turn; answers the last session's token. */
async function changeThrough(app: TestApp, token: string, from: string, next: string[]) {
  let current = from;
  let session = token;
  for (const password of next) {
    const res = await change(app, session, current, password);
    expect(res.statusCode, `${current} → ${password}: ${res.body}`).toBe(200);
    session = res.json().token;
    current = password;
  }
  return session;
}

const kept = (app: TestApp, userId: string) =>
  app.services.ctx.db
    .select()
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, userId))
    .orderBy(passwordHistory.id);

const userRow = async (app: TestApp, id: string) => {
  const [row] = await app.services.ctx.db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error('no user');
  return row;
};

const backDate = (app: TestApp, id: string, days: number) =>
  app.services.ctx.db
    .update(users)
    .set({ passwordChangedAt: new Date(Date.now() - days * DAY) })
    .where(eq(users.id, id));

describe('PASSWORD_HISTORY: a new password of one’s own is none of the last 5', () => {
  const passwords = ['History-one-1', 'History-two-2', 'History-three-3', 'History-four-4'];

  it('refuses the 5th-last (400, the field named), accepts the 6th-last', async () => {
    const user = await ownUser(t, 'boundary');
    // PASSWORD, then the four: the current one is the last, PASSWORD the 5th-last.
    let token = await changeThrough(t, user.token, PASSWORD, passwords);
    const reused = await change(t, token, 'History-four-4', PASSWORD);
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({
      message: 'The new password must differ from your last 5 passwords',
    });
    for (const former of passwords.slice(0, 3)) {
      expect((await change(t, token, 'History-four-4', former)).statusCode, former).toBe(400);
    }
    // One more change, and PASSWORD is the 6th-last.
    token = await changeThrough(t, token, 'History-four-4', ['History-five-5']);
    expect((await change(t, token, 'History-five-5', PASSWORD)).statusCode).toBe(200);
  });

  it('keeps only scrypt hashes, as stored, and no more than the history needs', async () => {
    const user = await ownUser(t, 'bounded');
    const before = (await userRow(t, user.id)).passwordHash;
    const more = [...passwords, 'History-five-5', 'History-six-6'];
    await changeThrough(t, user.token, PASSWORD, more);
    const rows = await kept(t, user.id);
    // With the current one, the last 5 passwords.
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.passwordHash).toMatch(/^scrypt\$10\$8\$1\$[^$]+\$[^$]+$/);
      for (const password of [PASSWORD, ...more]) expect(row.passwordHash).not.toContain(password);
    }
    expect(rows.map((row) => row.passwordHash)).not.toContain(before);
    const { passwords: hasher } = t.services.ctx;
    expect(await hasher.verify('History-two-2', rows[0]?.passwordHash ?? '')).toBe(true);
    expect(await hasher.verify('History-five-5', rows[3]?.passwordHash ?? '')).toBe(true);
  });

  it('a refused reuse is no failed password check: it locks nothing and is not audited as one', async () => {
    const user = await ownUser(t, 'no-lockout');
    const token = await changeThrough(t, user.token, PASSWORD, ['History-one-1']);
    // More than LOGIN_MAX_FAILURES (5).
    for (let i = 0; i < 7; i++) {
      expect((await change(t, token, 'History-one-1', PASSWORD)).statusCode).toBe(400);
    }
    const { db } = t.services.ctx;
    expect(
      await db.select().from(accountLockouts).where(eq(accountLockouts.userId, user.id)),
    ).toEqual([]);
    const failed = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, user.id), eq(auditLog.action, 'password.change-failed')));
    expect(failed).toEqual([]);
    expect((await login(t, user.email, 'History-one-1')).statusCode).toBe(200);
  });

  it('a manager’s reset is not checked, but the password it replaces is kept for the user’s next one', async () => {
    const user = await ownUser(t, 'reset');
    const token = await changeThrough(t, user.token, PASSWORD, ['History-one-1']);
    const before = await userRow(t, user.id);
    const stored = (await t.app.inject({ url: '/api/users', headers: admin.auth }))
      .json()
      .find((u: { _id: string }) => u._id === user.id);
    // The manager may set a former password of the user: it does not know them.
    const reset = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: admin.auth,
      payload: { ...stored, password: PASSWORD },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await kept(t, user.id)).at(-1)?.passwordHash).toBe(before.passwordHash);
    const after = await userRow(t, user.id);
    expect(after.passwordChangedAt.getTime()).toBeGreaterThan(before.passwordChangedAt.getTime());
    expect(after.passwordSetBy).toBe(admin.id);
    expect((await change(t, token, 'History-one-1', 'Whatever-new-9')).statusCode).toBe(401);
    // The user's first own password after the reset: its former ones are refused.
    const session = await signIn(t, user.email, PASSWORD);
    expect(session).toMatchObject({ ownPassword: false, passwordExpiredAfterDays: null });
    const back = await change(t, session.token, PASSWORD, 'History-one-1');
    expect(back.statusCode).toBe(400);
    expect(back.json().message).toBe('The new password must differ from your last 5 passwords');
    expect((await change(t, session.token, PASSWORD, 'History-two-2')).statusCode).toBe(200);
    // The reset password is in the history now.
    expect(await kept(t, user.id)).toHaveLength(3);
  });

  it('0 keeps no history: a former password may come back, only the current one is refused', async () => {
    const user = await ownUser(off, 'forgetful');
    const token = await changeThrough(off, user.token, PASSWORD, ['History-one-1']);
    expect((await change(off, token, 'History-one-1', 'History-one-1')).statusCode).toBe(400);
    await changeThrough(off, token, 'History-one-1', [PASSWORD]);
    expect(await kept(off, user.id)).toEqual([]);
  });

  it('a change leaves the user’s record version as it was (an open edit form stays valid)', async () => {
    const user = await ownUser(t, 'version');
    const before = (await userRow(t, user.id)).version;
    await changeThrough(t, user.token, PASSWORD, ['History-one-1']);
    expect((await userRow(t, user.id)).version).toBe(before);
  });
});

describe('PASSWORD_MAX_AGE_DAYS: an older password signs in, then must be replaced first', () => {
  it('signs in, says why, audits it, and serves nothing else until the change', async () => {
    const user = await ownUser(t, 'expired');
    const { db } = t.services.ctx;
    await backDate(t, user.id, 91);
    const session = await signIn(t, user.email, PASSWORD);
    expect(session).toMatchObject({ ownPassword: false, passwordExpiredAfterDays: 90 });
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, user.id), eq(auditLog.action, 'login')))
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(entry?.newValue).toMatchObject({ passwordExpired: true, maxAgeDays: 90 });
    // As for a new user: only what setting the password needs.
    const refused = await t.app.inject({
      url: '/api/line-clearances',
      headers: bearer(session.token),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(SET_OWN_PASSWORD_FIRST);
    const me = await t.app.inject({ url: '/api/me', headers: bearer(session.token) });
    expect(me.json()).toMatchObject({ ownPassword: false, passwordExpiredAfterDays: 90 });
    // The session from before the expiry ends: it comes back through a sign-in that asks.
    expect((await t.app.inject({ url: '/api/me', headers: bearer(user.token) })).statusCode).toBe(
      401,
    );
    // Signing in again asks again.
    expect(await signIn(t, user.email, PASSWORD)).toMatchObject({ passwordExpiredAfterDays: 90 });

    const changed = await change(t, session.token, PASSWORD, 'Fresh-password-1');
    expect(changed.statusCode).toBe(200);
    const fresh = bearer(changed.json().token);
    expect((await t.app.inject({ url: '/api/line-clearances', headers: fresh })).statusCode).toBe(
      200,
    );
    const row = await userRow(t, user.id);
    expect(row.passwordSetBy).toBeNull();
    expect(Date.now() - row.passwordChangedAt.getTime()).toBeLessThan(60_000);
    expect(await signIn(t, user.email, 'Fresh-password-1')).toMatchObject({
      ownPassword: true,
      passwordExpiredAfterDays: null,
    });
  });

  it('a password 89 days old is still good; with the default (0) none ever ages', async () => {
    const young = await ownUser(t, 'young');
    await backDate(t, young.id, 89);
    expect(await signIn(t, young.email, PASSWORD)).toMatchObject({
      ownPassword: true,
      passwordExpiredAfterDays: null,
    });
    const old = await ownUser(off, 'never-ages');
    await backDate(off, old.id, 3650);
    expect(await signIn(off, old.email, PASSWORD)).toMatchObject({
      ownPassword: true,
      passwordExpiredAfterDays: null,
    });
  });

  it('a password a manager chose stays the manager’s, whatever its age', async () => {
    const user = await ownUser(t, 'chosen');
    const stored = (await t.app.inject({ url: '/api/users', headers: admin.auth }))
      .json()
      .find((u: { _id: string }) => u._id === user.id);
    await t.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: admin.auth,
      payload: { ...stored, password: 'Temp-seal-123' },
    });
    await backDate(t, user.id, 200);
    expect(await signIn(t, user.email, 'Temp-seal-123')).toMatchObject({
      ownPassword: false,
      passwordExpiredAfterDays: null,
    });
    expect((await userRow(t, user.id)).passwordSetBy).toBe(admin.id);
  });
});

describe('migration 0017', () => {
  it('dates existing passwords by the trail’s last change, reset or creation, else the account’s creation', async () => {
    const { db } = off.services.ctx;
    const [changed, reset, created, untold] = await Promise.all(
      ['m-changed', 'm-reset', 'm-created', 'm-untold'].map((key) =>
        createUser(off, key, ['operator']),
      ),
    );
    const at = (iso: string) => new Date(iso);
    await db.insert(auditLog).values([
      { action: 'create', entity: 'user', entityId: changed?.id, at: at('2025-01-01T00:00:00Z') },
      {
        action: 'password.change',
        entity: 'user',
        entityId: changed?.id,
        at: at('2025-03-01T00:00:00Z'),
      },
      { action: 'login', entity: 'user', entityId: changed?.id, at: at('2025-04-01T00:00:00Z') },
      { action: 'create', entity: 'user', entityId: reset?.id, at: at('2025-01-02T00:00:00Z') },
      {
        action: 'update',
        entity: 'user',
        entityId: reset?.id,
        newValue: { passwordReset: true },
        at: at('2025-05-01T00:00:00Z'),
      },
      {
        action: 'update',
        entity: 'user',
        entityId: reset?.id,
        newValue: { passwordReset: false },
        at: at('2025-06-01T00:00:00Z'),
      },
      { action: 'create', entity: 'user', entityId: created?.id, at: at('2025-01-03T00:00:00Z') },
    ]);
    const versions = await db.select({ id: users.id, version: users.version }).from(users);
    const migration = fs.readFileSync(
      new URL('../drizzle/0017_password-aging-and-history.sql', import.meta.url),
      'utf8',
    );
    const fills = migration
      .split('--> statement-breakpoint')
      .filter((statement) => /UPDATE "users"/.test(statement));
    expect(fills).toHaveLength(1);
    await db.execute(sql.raw(fills[0] as string));

    const dated = async (user: TestUser | undefined) =>
      (await userRow(off, user?.id ?? '')).passwordChangedAt.toISOString();
    expect(await dated(changed)).toBe('2025-03-01T00:00:00.000Z');
    expect(await dated(reset)).toBe('2025-05-01T00:00:00.000Z');
    expect(await dated(created)).toBe('2025-01-03T00:00:00.000Z');
    const untoldRow = await userRow(off, untold?.id ?? '');
    expect(untoldRow.passwordChangedAt).toEqual(untoldRow.createdAt);
    // Dating passwords changes no record's version.
    expect(await db.select({ id: users.id, version: users.version }).from(users)).toEqual(versions);
  });
});
