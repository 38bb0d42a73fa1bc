import fs from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, users } from '../db/schema.ts';
import { SET_OWN_PASSWORD_FIRST } from '../http/auth-hook.ts';
import { insertUser } from '../services/users.ts';
import { build, type TestApp } from '../test/build.ts';
import { createUser, PASSWORD, pendingInspection, type TestUser } from '../test/fixtures.ts';

let t: TestApp;
let op: TestUser;

beforeAll(async () => {
  t = await build();
  op = await createUser(t, 'op', ['operator']);
});
afterAll(() => t.close());

const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });

function decode(token: string) {
  const [, payload = ''] = token.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
}

describe('POST /api/login', () => {
  it('answers a token carrying id, name, email and roles, and sets the media cookie', async () => {
    const res = await login('OP@test.example', PASSWORD);
    expect(res.statusCode).toBe(200);
    const { token } = res.json();
    expect(decode(token)).toMatchObject({
      id: op.id,
      name: 'Test op',
      email: 'op@test.example',
      roles: ['operator'],
    });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain('lc_media=');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
  });

  it('answers 401 with the spec message for a wrong password or unknown email', async () => {
    for (const res of [await login(op.email, 'wrong-password'), await login('x@y.z', PASSWORD)]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Invalid email or password' });
    }
  });

  it('answers 400 when email or password is missing', async () => {
    for (const payload of [
      {},
      { email: op.email },
      { password: 'x' },
      { email: '', password: '' },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/login', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Email and password are required' });
    }
  });

  it('takes no body larger than an email and a password need (413, nothing parsed)', async () => {
    const payload = { email: op.email, password: PASSWORD, padding: 'x'.repeat(20_000) };
    const res = await t.app.inject({ method: 'POST', url: '/api/login', payload });
    expect(res.statusCode).toBe(413);
  });

  it('records logins and failures in the audit log', async () => {
    await login(op.email, 'bad-password-again');
    const rows = await t.services.ctx.db.query.auditLog.findMany();
    const actions = rows.filter((r) => r.actorEmail === op.email).map((r) => r.action);
    expect(actions).toContain('login');
    expect(actions).toContain('login.failed');
  });
});

describe('GET /api/me', () => {
  it('answers id, name, email, roles, and whether the password is the user’s own', async () => {
    const res = await t.app.inject({ url: '/api/me', headers: op.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: op.id,
      name: 'Test op',
      email: op.email,
      roles: ['operator'],
      ownPassword: true,
      passwordExpiredAfterDays: null,
      idleMinutes: 30,
    });
  });

  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ url: '/api/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Authentication required' });
  });
});

describe('token attacks', () => {
  const secret = () => {
    const file = `${t.dataDir}/jwt-secret`;
    return new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim());
  };
  const claims = () => ({ id: op.id, name: 'x', email: op.email, roles: ['admin'], tv: 0 });
  const me = (token: string) =>
    t.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } });

  it('rejects alg none', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(
      JSON.stringify({ ...claims(), sub: op.id, iss: 'line-clearance', iat: 1, exp: 9e9 }),
    ).toString('base64url');
    expect((await me(`${header}.${body}.`)).statusCode).toBe(401);
  });

  it('rejects a token whose roles were tampered with', async () => {
    const [h, p, s] = op.token.split('.');
    const tampered = { ...decode(op.token), roles: ['admin'] };
    const forged = `${h}.${Buffer.from(JSON.stringify(tampered)).toString('base64url')}.${s}`;
    expect(p).not.toBe(forged.split('.')[1]);
    expect((await me(forged)).statusCode).toBe(401);
  });

  /** Signs the claims like the server does, with one thing changed per test. */
  const forge = (options: {
    alg?: string;
    key?: Uint8Array;
    iat?: number;
    exp?: number | string;
    aud?: string;
  }) =>
    new SignJWT({ ...claims(), sid: 'forged-session' })
      .setProtectedHeader({ alg: options.alg ?? 'HS256' })
      .setSubject(op.id)
      .setIssuer('line-clearance')
      .setAudience(options.aud ?? 'api')
      .setIssuedAt(options.iat)
      .setExpirationTime(options.exp ?? '1h')
      .sign(options.key ?? secret());

  it('accepts a token forged with the right key, algorithm and claims (control)', async () => {
    expect((await me(await forge({}))).statusCode).toBe(200);
  });

  it('rejects an expired token and a wrong signature', async () => {
    expect((await me(await forge({ iat: 1_000, exp: 2_000 }))).statusCode).toBe(401);
    const key = new TextEncoder().encode('another-secret-of-at-least-32-characters');
    expect((await me(await forge({ key }))).statusCode).toBe(401);
  });

  it('rejects a media token as the bearer token', async () => {
    expect((await me(await forge({ aud: 'media' }))).statusCode).toBe(401);
  });

  it('rejects an HS512 token signed with the right key (algorithm allow-list)', async () => {
    expect((await me(await forge({ alg: 'HS512' }))).statusCode).toBe(401);
  });
});

describe('POST /api/change-password', () => {
  const changePassword = (currentPassword: string, newPassword: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/change-password',
      headers: op.auth,
      payload: { currentPassword, newPassword },
    });

  it('answers 401 with the spec message when the current password is wrong', async () => {
    const res = await changePassword('nope-nope', 'fresh-gasket-1');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Current password is incorrect' });
  });

  it('answers 400 naming the field for a short new password', async () => {
    const res = await changePassword(PASSWORD, 'short');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^body\.newPassword /);
  });

  it('changes nothing when its audit entry cannot be written', async () => {
    // The audit log refuses this one entry, as a full disk or a lost connection would.
    const { db } = t.services.ctx;
    await db.execute(sql`create function refuse_password_audit() returns trigger language plpgsql
      as $$ begin raise exception 'audit log unavailable'; end $$`);
    await db.execute(sql`create trigger refuse_password_audit before insert on audit_log
      for each row when (new.action = 'password.change') execute function refuse_password_audit()`);
    try {
      const res = await changePassword(PASSWORD, 'fresh-gasket-1');
      expect(res.statusCode).toBe(500);
    } finally {
      await db.execute(sql`drop trigger refuse_password_audit on audit_log`);
      await db.execute(sql`drop function refuse_password_audit()`);
    }
    expect((await t.app.inject({ url: '/api/me', headers: op.auth })).statusCode).toBe(200);
    expect((await login(op.email, 'fresh-gasket-1')).statusCode).toBe(401);
  });

  it('changes the password, revokes older tokens and returns a fresh one', async () => {
    const res = await changePassword(PASSWORD, 'fresh-gasket-1');
    expect(res.statusCode).toBe(200);
    const { token } = res.json();
    expect((await t.app.inject({ url: '/api/me', headers: op.auth })).statusCode).toBe(401);
    const fresh = await t.app.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(fresh.statusCode).toBe(200);
    expect((await login(op.email, PASSWORD)).statusCode).toBe(401);
    expect((await login(op.email, 'fresh-gasket-1')).statusCode).toBe(200);
  });
});

describe('POST /api/change-password: a password of one’s own (docs/signatures.md, rule 3)', () => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const change = (token: string, currentPassword: string, newPassword: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/change-password',
      headers: bearer(token),
      payload: { currentPassword, newPassword },
    });
  const signIn = async (email: string, password: string) => {
    const res = await login(email, password);
    expect(res.statusCode).toBe(200);
    return res.json() as { token: string; ownPassword: boolean };
  };
  const passwordSetBy = async (id: string) =>
    (
      await t.services.ctx.db
        .select({ passwordSetBy: users.passwordSetBy })
        .from(users)
        .where(eq(users.id, id))
    )[0]?.passwordSetBy;

  /** An LC manager whose password the factory manager reset to one the factory manager knows. */
  async function resetLcManager(key: string, name: string, email: string) {
    const factory = await createUser(t, `${key}-factory`, ['factory_manager']);
    const { db, passwords } = t.services.ctx;
    const lc = await insertUser(db, passwords, {
      name,
      email,
      password: PASSWORD,
      roles: ['lc_manager'],
    });
    const reset = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${lc.id}`,
      headers: factory.auth,
      payload: { name, email, password: 'Temp-seal-123' },
    });
    expect(reset.statusCode).toBe(200);
    expect(await passwordSetBy(lc.id)).toBe(factory.id);
    return {
      id: lc.id,
      email,
      factoryId: factory.id,
      token: (await signIn(email, 'Temp-seal-123')).token,
    };
  }

  /** A pending inspection on a line the LC manager manages, and its attempt to reject it. */
  async function tryToSign(lc: { id: string; email: string }, token: string, password: string) {
    const id = await pendingInspection(t, lc.id);
    return t.app.inject({
      method: 'PATCH',
      url: `/api/inspections/${id}/reject`,
      headers: bearer(token),
      payload: { userId: lc.email, password, notes: 'Loose labels under the sealer' },
    });
  }

  it('refuses keeping the password a manager chose: 400, still marked, still signs nothing', async () => {
    const lc = await resetLcManager('keep', 'Ana Keeper', 'ana.keeper@plant.example');
    const res = await change(lc.token, 'Temp-seal-123', 'Temp-seal-123');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The new password must differ from the current one' });
    expect(await passwordSetBy(lc.id)).toBe(lc.factoryId);
    // The session goes on (nothing was revoked), and it still may only set its own password.
    const me = await t.app.inject({ url: '/api/me', headers: bearer(lc.token) });
    expect(me.json().ownPassword).toBe(false);
    const signed = await tryToSign(lc, lc.token, 'Temp-seal-123');
    expect(signed.statusCode).toBe(403);
    expect(signed.json().message).toBe(SET_OWN_PASSWORD_FIRST);
  });

  it('refuses a new password made of the account’s email or name, in any case', async () => {
    const lc = await resetLcManager('personal', 'Daniel Okafor', 'd.okafor@plant.example');
    const email = 'The new password must not contain your email address or the part before the @';
    const name = 'The new password must not contain your name';
    for (const [newPassword, message] of [
      ['d.okafor@plant.example', email],
      ['D.OKAFOR@PLANT.EXAMPLE', email],
      ['my-D.Okafor-2026', email],
      ['Okafor-line-2026', name],
      ['sealer-daniel-7', name],
      ['xx-daniel okafor', name],
    ]) {
      const res = await change(lc.token, 'Temp-seal-123', newPassword as string);
      expect(res.statusCode, newPassword).toBe(400);
      expect(res.json(), newPassword).toEqual({ message });
    }
    expect(await passwordSetBy(lc.id)).toBe(lc.factoryId);
  });

  it('refuses a password a guesser tries first (NIST SP 800-63B), saying why at its field', async () => {
    const lc = await resetLcManager('guessable', 'Gus Guess', 'gus.guess@plant.example');
    for (const newPassword of [
      '12345678',
      'Password1!',
      'qwertyui',
      'aaaaaaaa',
      'LineClearance1',
    ]) {
      const res = await change(lc.token, 'Temp-seal-123', newPassword);
      expect(res.statusCode, newPassword).toBe(400);
      expect(res.json().message, newPassword).toMatch(
        /^The new password is too common or too easy to guess \(.*\); choose another$/,
      );
    }
    // Nothing changed: the manager's password still signs in, still marked as the manager's.
    expect(await passwordSetBy(lc.id)).toBe(lc.factoryId);
    await signIn('gus.guess@plant.example', 'Temp-seal-123');
  });

  it('lets parts shorter than 3 characters be in the password', async () => {
    const { db, passwords } = t.services.ctx;
    const email = 'li@plant.example';
    await insertUser(db, passwords, {
      name: 'Li Na',
      email,
      password: PASSWORD,
      roles: ['operator'],
    });
    const { token } = await signIn(email, PASSWORD);
    expect((await change(token, PASSWORD, 'Linaria-blooms-2026')).statusCode).toBe(200);
  });

  it('checks the current password first: a wrong one answers 401 whatever the new one is', async () => {
    const lc = await resetLcManager('order', 'Mira Order', 'mira.order@plant.example');
    for (const newPassword of ['wrong-current-1', 'Mira-Order-2026', 'mira.order-2026']) {
      const res = await change(lc.token, 'wrong-current-1', newPassword);
      expect(res.statusCode, newPassword).toBe(401);
      expect(res.json()).toEqual({ message: 'Current password is incorrect' });
    }
  });

  it('accepts a password of one’s own: unmarked, and its user signs again', async () => {
    const lc = await resetLcManager('own', 'Sam Owner', 'sam.owner@plant.example');
    const res = await change(lc.token, 'Temp-seal-123', 'Sealing-station-7');
    expect(res.statusCode).toBe(200);
    expect(await passwordSetBy(lc.id)).toBeNull();
    const signed = await tryToSign(lc, res.json().token, 'Sealing-station-7');
    expect(signed.statusCode).toBe(200);
    expect(signed.json()).toMatchObject({ status: 'rejected', reviewerId: lc.id });
  });
});

describe('sign-out after inactivity (SESSION_IDLE_MINUTES, 30 by default)', () => {
  const minutes = (n: number) => n * 60_000;
  let start = 0;
  /** Sets the test's clock to `elapsed` after the sign-in. */
  const sinceSignIn = (elapsed: number) => vi.setSystemTime(start + elapsed);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const me = (token: string) => t.app.inject({ url: '/api/me', headers: bearer(token) });
  const renew = (token: string) =>
    t.app.inject({ method: 'POST', url: '/api/session/renew', headers: bearer(token) });
  const signIn = async (key: string) => {
    const user = await createUser(t, key, ['lc_manager']);
    vi.useFakeTimers({ toFake: ['Date'] });
    start = Math.ceil(Date.now() / 1000) * 1000;
    vi.setSystemTime(start);
    const res = await login(user.email, PASSWORD);
    expect(res.json()).toMatchObject({ idleMinutes: 30 });
    return { user, token: res.json().token as string };
  };
  const logoutEntries = (userId: string) =>
    t.services.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'logout'), eq(auditLog.entityId, userId)));
  afterEach(() => vi.useRealTimers());

  it('refuses a bearer token older than the idle limit, with the same 401 as any expired token', async () => {
    const { token } = await signIn('idle-expiry');
    sinceSignIn(minutes(30) - 1000);
    expect((await me(token)).statusCode).toBe(200);
    sinceSignIn(minutes(30));
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Invalid or expired token' });
    expect((await renew(token)).statusCode).toBe(401);
  });

  it('renewal answers a token of the same session living the idle limit again', async () => {
    const { token } = await signIn('idle-renew');
    sinceSignIn(minutes(20));
    const res = await renew(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ idleMinutes: 30 });
    const renewed = res.json().token as string;
    const [was, now] = [decode(token), decode(renewed)];
    expect(now).toMatchObject({ sid: was.sid, ss: start / 1000, id: was.id, roles: was.roles });
    expect(now.exp).toBe((start + minutes(50)) / 1000);
    sinceSignIn(minutes(45));
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(renewed)).statusCode).toBe(200);
  });

  it('renewal never reaches past the absolute end (TOKEN_TTL_SECONDS from the sign-in): then 401', async () => {
    let { token } = await signIn('idle-absolute');
    const end = start + t.services.ctx.config.tokenTtlSeconds * 1000;
    for (let elapsed = minutes(25); start + elapsed < end; elapsed += minutes(25)) {
      sinceSignIn(elapsed);
      const res = await renew(token);
      expect(res.statusCode, `renewal ${elapsed / 60_000} minutes in`).toBe(200);
      token = res.json().token;
      expect(decode(token).exp).toBe(Math.min(start + elapsed + minutes(30), end) / 1000);
    }
    vi.setSystemTime(end);
    expect((await renew(token)).statusCode).toBe(401);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('renewal after logout is 401; the logout names the reason, idle, in its audit entry', async () => {
    const { user, token } = await signIn('idle-logout');
    sinceSignIn(minutes(10));
    const renewed = (await renew(token)).json().token as string;
    sinceSignIn(minutes(40));
    const idleLogout = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/logout',
        headers: bearer(renewed),
        payload: { reason: 'idle' },
      });
    // The app signs out at the idle limit, as the token runs out: its logout still counts.
    expect((await idleLogout()).statusCode).toBe(200);
    // A second tab signing out at the same limit finds the session ended: one entry, not two.
    expect((await idleLogout()).statusCode).toBe(200);
    vi.useRealTimers();
    expect(await logoutEntries(user.id)).toEqual([
      expect.objectContaining({
        actorId: user.id,
        newValue: { session: decode(token).sid, reason: 'idle' },
      }),
    ]);
    vi.useFakeTimers({ toFake: ['Date'] });
    sinceSignIn(minutes(40));
    expect((await renew(renewed)).statusCode).toBe(401);
  });

  it('a token that ran out long before ends nothing and writes nothing at logout', async () => {
    const { user, token } = await signIn('idle-long-gone');
    sinceSignIn(minutes(32));
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: bearer(token),
      payload: { reason: 'idle' },
    });
    expect(out.statusCode).toBe(200);
    expect(await logoutEntries(user.id)).toEqual([]);
  });

  it('renewal after a password change (token version) is 401', async () => {
    const { token } = await signIn('idle-version');
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/change-password',
      headers: bearer(token),
      payload: { currentPassword: PASSWORD, newPassword: 'another-gasket-3' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await renew(token)).statusCode).toBe(401);
    const fresh = changed.json().token as string;
    expect((await renew(fresh)).statusCode).toBe(200);
  });

  it('renewal needs a bearer token: without one, or with the media cookie, 401; an API key, 403', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/api/session/renew' });
    expect(none.statusCode).toBe(401);
    const user = await createUser(t, 'renew-cookie', ['operator']);
    const signedIn = await login(user.email, PASSWORD);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
    const media = await t.app.inject({
      method: 'POST',
      url: '/api/session/renew',
      headers: { cookie },
    });
    expect(media.statusCode).toBe(401);
    // A service account's key never ends by idleness, and is no session to renew.
    const admin = await createUser(t, 'renew-admin', ['admin']);
    const account = await t.app.inject({
      method: 'POST',
      url: '/api/service-accounts',
      headers: admin.auth,
      payload: { name: 'Renewal probe' },
    });
    const key = account.json().key as string;
    const service = await t.app.inject({
      method: 'POST',
      url: '/api/session/renew',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(service.statusCode).toBe(403);
  });
});

describe('POST /api/logout', () => {
  it('refuses a reason it does not know, naming the field, and ends nothing', async () => {
    const user = await createUser(t, 'bad-reason', ['operator']);
    const { token } = (await login(user.email, PASSWORD)).json();
    for (const payload of [{ reason: 'bored' }, { reason: 1 }, []]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/logout',
        headers: { authorization: `Bearer ${token}` },
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message, JSON.stringify(payload)).toMatch(/^body/);
    }
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { authorization: `Bearer ${token}` },
      payload: { reason: 'bored' },
    });
    expect(bad.json()).toEqual({ message: 'body.reason must be one of: user, idle' });
    const still = await t.app.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(still.statusCode).toBe(200);
  });

  it('expires the media cookie', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/logout' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/^lc_media=; Path=\/api; .*Max-Age=0/);
  });
  it('names the user whose session ended in its audit entry (not "system")', async () => {
    const user = await createUser(t, 'leaving', ['lc_manager']);
    const { token } = (await login(user.email, PASSWORD)).json();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    const entries = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'logout'), eq(auditLog.entityId, user.id)));
    expect(entries).toEqual([
      expect.objectContaining({ actorId: user.id, actorEmail: user.email, entity: 'user' }),
    ]);
    // Logging out without a reason is the user's own choice.
    expect(entries[0]?.newValue).toEqual({ session: decode(token).sid, reason: 'user' });
  });
});

describe('the media cookie', () => {
  /** The media token a response set, and the cookie's attributes. */
  function mediaCookie(res: { headers: Record<string, unknown> }) {
    const header = String(res.headers['set-cookie'] ?? '');
    const token = /^lc_media=([^;]+);/.exec(header)?.[1];
    if (!token) throw new Error(`no media cookie in '${header}'`);
    return { token, header };
  }
  const signIn = async () => {
    const user = await createUser(t, `media-${Math.random().toString(36).slice(2)}`, ['admin']);
    const res = await login(user.email, PASSWORD);
    return { bearer: res.json().token as string, ...mediaCookie(res) };
  };

  it('holds a short-lived media-only token, not the bearer token', async () => {
    const { bearer, token, header } = await signIn();
    expect(token).not.toBe(bearer);
    expect(header).toContain('Path=/api');
    expect(header).toContain(`Max-Age=${t.services.ctx.config.mediaTokenTtlSeconds}`);
    const claims = decode(token);
    expect(claims.aud).toBe('media');
    expect(Number(claims.exp) - Number(claims.iat)).toBe(
      t.services.ctx.config.mediaTokenTtlSeconds,
    );
    // Replayed as a bearer token it opens nothing; as the cookie only media routes.
    const asBearer = await t.app.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(asBearer.statusCode).toBe(401);
    const cookie = { cookie: `lc_media=${token}` };
    expect((await t.app.inject({ url: '/api/me', headers: cookie })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/users', headers: cookie })).statusCode).toBe(401);
    const media = await t.app.inject({ url: '/api/videos/not-there.mp4', headers: cookie });
    expect(media.statusCode).toBe(404);
  });

  it('is set again by /api/me and change-password, with its Path', async () => {
    const { bearer } = await signIn();
    const auth = { authorization: `Bearer ${bearer}` };
    const me = await t.app.inject({ url: '/api/me', headers: auth });
    expect(mediaCookie(me).header).toMatch(/; Path=\/api; HttpOnly; SameSite=Strict; /);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/change-password',
      headers: auth,
      payload: { currentPassword: PASSWORD, newPassword: 'another-gasket-2' },
    });
    expect(changed.statusCode).toBe(200);
    const renewed = mediaCookie(changed);
    expect(renewed.header).toContain('Path=/api');
    // The renewed token belongs to the new token version: it opens media, the old one does not.
    const cookie = { cookie: `lc_media=${renewed.token}` };
    expect(
      (await t.app.inject({ url: '/api/videos/not-there.mp4', headers: cookie })).statusCode,
    ).toBe(404);
  });

  it('a browser call renews it when missing or old; other clients get none', async () => {
    const { bearer, token } = await signIn();
    const auth = { authorization: `Bearer ${bearer}` };
    const plain = await t.app.inject({ url: '/api/line-clearances', headers: auth });
    expect(plain.headers['set-cookie']).toBeUndefined();
    const browser = { ...auth, 'sec-fetch-site': 'same-origin' };
    const fresh = await t.app.inject({
      url: '/api/line-clearances',
      headers: { ...browser, cookie: `lc_media=${token}` },
    });
    expect(fresh.headers['set-cookie']).toBeUndefined();
    const missing = await t.app.inject({ url: '/api/line-clearances', headers: browser });
    expect(decode(mediaCookie(missing).token)).toMatchObject({
      aud: 'media',
      sub: decode(bearer).sub,
    });
  });

  it('an expired cookie opens no file; the renewal the app makes (GET /api/me) gives a fresh one', async () => {
    const { bearer } = await signIn();
    const { id, tv, sid, sub } = decode(bearer);
    const key = new TextEncoder().encode(fs.readFileSync(`${t.dataDir}/jwt-secret`, 'utf8').trim());
    const now = Math.floor(Date.now() / 1000);
    /** A media token of this session, as the server signs one, issued and expiring when told. */
    const mediaToken = (iat: number, exp: number) =>
      new SignJWT({ id, tv, sid })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(sub))
        .setIssuer('line-clearance')
        .setAudience('media')
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
    const file = (token: string) =>
      t.app.inject({ url: '/api/videos/not-there.mp4', headers: { cookie: `lc_media=${token}` } });
    // Control: the same token, still within its life, opens the route (404: no such file).
    expect((await file(await mediaToken(now - 60, now + 60))).statusCode).toBe(404);
    // Issued 16 minutes ago: past its 15 minutes, as on a page left idle.
    const expired = await mediaToken(now - 16 * 60, now - 60);
    expect((await file(expired)).statusCode).toBe(401);

    const renewal = await t.app.inject({
      url: '/api/me',
      headers: {
        authorization: `Bearer ${bearer}`,
        cookie: `lc_media=${expired}`,
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(renewal.statusCode).toBe(200);
    const renewed = mediaCookie(renewal);
    expect(renewed.header).toContain(`Max-Age=${t.services.ctx.config.mediaTokenTtlSeconds}`);
    expect(decode(renewed.token)).toMatchObject({ aud: 'media', sid, sub });
    expect(Number(decode(renewed.token).exp)).toBeGreaterThanOrEqual(
      now + t.services.ctx.config.mediaTokenTtlSeconds,
    );
    expect((await file(renewed.token)).statusCode).toBe(404);
  });

  it('logout revokes the session: its bearer and media tokens stop working at once', async () => {
    const { bearer, token } = await signIn();
    const other = await signIn();
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { authorization: `Bearer ${bearer}`, cookie: `lc_media=${token}` },
    });
    expect(out.statusCode).toBe(200);
    const me = await t.app.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(me.statusCode).toBe(401);
    const media = await t.app.inject({
      url: '/api/videos/not-there.mp4',
      headers: { cookie: `lc_media=${token}` },
    });
    expect(media.statusCode).toBe(401);
    // Another session (another device) goes on.
    const still = await t.app.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${other.bearer}` },
    });
    expect(still.statusCode).toBe(200);
  });
});

describe('GET /api/health', () => {
  it('answers ok with the database kind', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
    });
  });
});
