// Known browsers (docs/permissions.md "Sign-in lockout"): a stranger who locks an account by its
// email does not lock its owner out of the browser the owner signed in from, nor out of signing;
// the stranger stays locked, and a known browser's own wrong passwords spend its entry.
import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLockouts, auditLog, knownBrowserFailures } from '../db/schema.ts';
import { WRONG_PASSWORD } from '../reports/signing.ts';
import { build, type TestApp } from '../test/build.ts';
import { createUser, PASSWORD, pendingInspection, type TestUser } from '../test/fixtures.ts';
import { createCredentialGuard } from './credentials.ts';
import { createKnownBrowsers, KNOWN_BROWSER_COOKIE, MAX_ENTRIES } from './known-browser.ts';

/** The signing key of the test apps (JWT_SECRET), so a guard of the test's agrees with theirs. */
const KEY = 'a-test-secret-of-at-least-32-characters!';

/** The Set-Cookie headers of an answer, each as sent. */
const setCookies = (res: { headers: Record<string, unknown> }) =>
  [res.headers['set-cookie'] ?? []].flat().map(String);
/** The known-browser cookie an answer set, as a browser sends it back; null when none. */
const knownCookie = (res: { headers: Record<string, unknown> }) =>
  setCookies(res)
    .find((cookie) => cookie.startsWith(`${KNOWN_BROWSER_COOKIE}=`))
    ?.split(';')[0] ?? null;

describe('the known-browser cookie', () => {
  const DAY_MS = 24 * 3600_000;
  const browsers = createKnownBrowsers(randomBytes(32), 90);
  const at = new Date('2026-03-01T08:00:00Z');
  const request = (cookie?: string | null, protocol = 'http') =>
    ({ headers: cookie ? { cookie } : {}, protocol }) as never;
  /** The cookie `remember` sets, from a browser that sent `cookie`. */
  const remembered = (userId: string, cookie?: string | null, protocol = 'http') => {
    const sent: string[] = [];
    const reply = { header: (_: string, value: string) => sent.push(value) } as never;
    browsers.remember(request(cookie, protocol), reply, userId, at);
    return { header: sent[0] ?? '', cookie: sent[0]?.split(';')[0] ?? null };
  };

  it('is HttpOnly, SameSite=Strict, for /api, kept KNOWN_BROWSER_DAYS, and Secure over HTTPS', () => {
    expect(remembered('a'.repeat(24)).header).toMatch(
      /^lc_known=[\w.~-]+; Path=\/api; HttpOnly; SameSite=Strict; Max-Age=7776000$/,
    );
    expect(remembered('a'.repeat(24), null, 'https').header).toMatch(/; Max-Age=7776000; Secure$/);
  });

  it('names its account, and holds until its days are over', () => {
    const { cookie } = remembered('a'.repeat(24));
    const entry = browsers.entryFor(request(cookie), 'a'.repeat(24), at);
    expect(entry).toMatchObject({ userId: 'a'.repeat(24), entryId: expect.any(String) });
    expect(browsers.entryFor(request(cookie), 'b'.repeat(24), at)).toBeNull();
    const later = (ms: number) => new Date(at.getTime() + ms);
    expect(browsers.entryFor(request(cookie), 'a'.repeat(24), later(90 * DAY_MS - 1000))).toEqual(
      entry,
    );
    expect(browsers.entryFor(request(cookie), 'a'.repeat(24), later(90 * DAY_MS))).toBeNull();
    // A setting lowered since: the entry's life is the setting's now.
    const shorter = createKnownBrowsers(randomBytes(32), 1);
    expect(shorter.entryFor(request(cookie), 'a'.repeat(24), later(DAY_MS))).toBeNull();
  });

  it('ignores a tampered, foreign or malformed entry', () => {
    const cookie = remembered('a'.repeat(24)).cookie ?? '';
    const value = cookie.slice(`${KNOWN_BROWSER_COOKIE}=`.length);
    const [userId, entryId, issued, mac = ''] = value.split('.');
    const flipped = `${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    const forged = [
      `${userId}.${entryId}.${issued}.${flipped}`,
      `${'b'.repeat(24)}.${entryId}.${issued}.${mac}`,
      `${userId}.${entryId}.${Number(issued) + 86_400}.${mac}`,
      `${userId}.${entryId}.${issued}.${mac.slice(0, 10)}`,
      `${userId}.${entryId}.${issued}`,
      'garbage',
      '',
      '....',
      `${userId}.${entryId}.1e9.${mac}`,
    ];
    for (const text of forged) {
      expect(browsers.entryFor(request(`lc_known=${text}`), 'a'.repeat(24), at)).toBeNull();
      expect(browsers.entryFor(request(`lc_known=${text}`), 'b'.repeat(24), at)).toBeNull();
    }
    // Another server's key (another deployment's cookie) proves nothing here.
    const other = createKnownBrowsers(randomBytes(32), 90);
    expect(other.entryFor(request(cookie), 'a'.repeat(24), at)).toBeNull();
  });

  it(`keeps the ${MAX_ENTRIES} accounts signed in last, newest first, once each`, () => {
    const ids = Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => String(i).padStart(24, '0'));
    let cookie: string | null = null;
    for (const id of ids) cookie = remembered(id, cookie).cookie;
    const known = (id: string) => browsers.entryFor(request(cookie), id, at) !== null;
    expect(ids.map(known)).toEqual([false, ...ids.slice(1).map(() => true)]);
    // Signing in again to a known account moves it first without a second entry.
    const again = remembered(ids[1] ?? '', cookie).cookie ?? '';
    expect(again.split('~')).toHaveLength(MAX_ENTRIES);
    expect(again.split('~')[0]).toMatch(new RegExp(`^lc_known=${ids[1]}\\.`));
  });

  it('sets and accepts nothing at 0 days', () => {
    const off = createKnownBrowsers(randomBytes(32), 0);
    const sent: string[] = [];
    off.remember(request(), { header: (_: string, v: string) => sent.push(v) } as never, 'a', at);
    expect(sent).toEqual([]);
    const { cookie } = remembered('a'.repeat(24));
    expect(off.entryFor(request(cookie), 'a'.repeat(24), at)).toBeNull();
  });
});

describe.each([
  ['on', {}],
  ['off', { KNOWN_BROWSER_DAYS: '0' }],
])('known browsers %s', (setting, env) => {
  const on = setting === 'on';
  let t: TestApp;
  let counter = 0;
  beforeAll(async () => {
    t = await build({ JWT_SECRET: KEY, ...env });
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, cookie?: string | null) =>
    t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: cookie ? { cookie } : {},
      payload: { email, password },
    });
  /** An LC manager, its bearer header and the cookie its sign-in left in its browser. */
  async function owner() {
    const user = await createUser(t, `owner${counter++}`, ['lc_manager']);
    const res = await login(user.email, PASSWORD);
    expect(res.statusCode).toBe(200);
    return {
      user,
      auth: { authorization: `Bearer ${res.json().token}` },
      browser: knownCookie(res),
    };
  }
  /** A stranger's five wrong passwords, from a client that never signed in: the account locks. */
  async function lockOut(user: TestUser) {
    for (let i = 0; i < 5; i++)
      expect((await login(user.email, `guess-${i}`)).statusCode).toBe(401);
    expect((await trail(user.id)).map((entry) => entry.action)).toContain('account.locked');
  }
  const trail = async (userId: string) =>
    (
      await t.services.ctx.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.entityId, userId))
        .orderBy(asc(auditLog.id))
    ).map((row) => ({ action: row.action, newValue: row.newValue as Record<string, unknown> }));
  const lockedUntil = async (userId: string) =>
    (
      await t.services.ctx.db
        .select({ until: accountLockouts.lockedUntil })
        .from(accountLockouts)
        .where(eq(accountLockouts.userId, userId))
    )[0]?.until ?? null;
  const reject = (
    id: string,
    signer: { user: TestUser; auth: { authorization: string } },
    cookie: string | null,
    password: string,
  ) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/inspections/${id}/reject`,
      headers: { ...signer.auth, ...(cookie ? { cookie } : {}) },
      payload: { notes: 'Loose labels under the sealer', userId: signer.user.email, password },
    });

  it(`${on ? 'sets' : 'does not set'} the cookie at a sign-in, after the media cookie`, async () => {
    const { user } = await owner();
    const res = await login(user.email, PASSWORD);
    const cookies = setCookies(res);
    expect(cookies[0]).toMatch(/^lc_media=/);
    if (on) {
      expect(cookies).toHaveLength(2);
      expect(cookies[1]).toMatch(
        /^lc_known=[\w.~-]+; Path=\/api; HttpOnly; SameSite=Strict; Max-Age=7776000$/,
      );
    } else {
      expect(cookies).toHaveLength(1);
    }
  });

  it(`a stranger's lock ${on ? 'leaves the owner signing in and signing' : 'stops the owner too'}; the stranger stays locked`, async () => {
    const { user, auth, browser } = await owner();
    const inspection = await pendingInspection(t, user.id);
    await lockOut(user);
    const until = await lockedUntil(user.id);
    const fromBrowser = await login(user.email, PASSWORD, browser);
    expect(fromBrowser.statusCode).toBe(on ? 200 : 401);
    const signed = await reject(inspection, { user, auth }, browser, PASSWORD);
    if (on) {
      expect(signed.json()).toMatchObject({ status: 'rejected', reviewerId: user.id });
      // A password change from the browser is not refused by the lock either.
      const change = await t.app.inject({
        method: 'POST',
        url: '/api/change-password',
        headers: { ...auth, cookie: browser ?? '' },
        payload: { currentPassword: PASSWORD, newPassword: 'a-new-one-of-mine-9' },
      });
      expect(change.statusCode).toBe(200);
    } else {
      expect(signed.statusCode).toBe(403);
      expect(signed.json().message).toMatch(/^Your account is locked after too many wrong/);
    }
    // The lock stands for everyone else: not lifted, not audited as an unlock.
    expect(await lockedUntil(user.id)).toEqual(until);
    const stranger = await login(user.email, on ? 'a-new-one-of-mine-9' : PASSWORD);
    expect(stranger.statusCode).toBe(401);
    const actions = (await trail(user.id)).map((entry) => entry.action);
    expect(actions).not.toContain('account.unlocked');
    expect(actions.filter((action) => action === 'account.locked')).toHaveLength(1);
    if (on) {
      expect((await trail(user.id)).find((entry) => entry.action === 'login')?.newValue).toBeNull();
      expect((await trail(user.id)).findLast((entry) => entry.action === 'login')).toEqual({
        action: 'login',
        newValue: { knownBrowser: true, lockedUntil: until?.toISOString() },
      });
    }
  });

  it.runIf(on)(
    "a known browser's five wrong passwords spend its entry; then it is locked like any other",
    async () => {
      const { user, auth, browser } = await owner();
      const inspection = await pendingInspection(t, user.id);
      await lockOut(user);
      // Wrong passwords at signing: the lock is not said, it does not apply to this browser.
      for (let i = 0; i < 4; i++) {
        const res = await reject(inspection, { user, auth }, browser, `typo-${i}`);
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe(WRONG_PASSWORD);
      }
      // The fifth spends the entry: from now on the account's lock is this browser's too.
      const fifth = await reject(inspection, { user, auth }, browser, 'typo-4');
      expect(fifth.json().message).toMatch(
        new RegExp(
          `^${WRONG_PASSWORD}\\. That was too many wrong passwords: your account is locked until `,
        ),
      );
      const refused = await reject(inspection, { user, auth }, browser, PASSWORD);
      expect(refused.json().message).toMatch(/^Your account is locked after too many wrong/);
      expect((await login(user.email, PASSWORD, browser)).statusCode).toBe(401);
      const entries = (await trail(user.id)).filter((entry) => entry.action !== 'login.failed');
      expect(entries.map((entry) => [entry.action, entry.newValue])).toEqual([
        ['login', null],
        ['account.locked', expect.objectContaining({ lock: 1 })],
        ...Array.from({ length: 5 }, () => [
          'signature.password-failed',
          { reason: 'wrong password', knownBrowser: true },
        ]),
        ['login.known-browser-spent', { failures: 5, windowSeconds: 900 }],
        ['signature.password-failed', { reason: 'account locked' }],
      ]);
      expect((await trail(user.id)).filter((e) => e.action === 'login.failed')).toHaveLength(6);
    },
  );

  it.runIf(on)('a spent browser counts toward the account lock, as an unknown one', async () => {
    const { user, browser } = await owner();
    const answers = [];
    for (let i = 0; i < 10; i++)
      answers.push((await login(user.email, `typo-${i}`, browser)).statusCode);
    expect(answers).toEqual(Array(10).fill(401));
    const actions = (await trail(user.id)).map((entry) => entry.action);
    // The first five spent the entry (the account unlocked meanwhile), the next five locked it.
    expect(actions.indexOf('login.known-browser-spent')).toBe(6);
    expect(actions.slice(-1)).toEqual(['account.locked']);
    expect((await login(user.email, PASSWORD, browser)).statusCode).toBe(401);
  });

  it.runIf(on)(
    'forgets counters past their window, and spent entries past their life',
    async () => {
      const { db, passwords, config } = t.services.ctx;
      const { user } = await owner();
      const time = new Date();
      const ago = (ms: number) => new Date(time.getTime() - ms);
      const [minute, day] = [60_000, 24 * 3600_000];
      await db.insert(knownBrowserFailures).values(
        [
          ['window-over', ago(16 * minute), null],
          ['counting', ago(minute), null],
          ['spent-lately', ago(89 * day), ago(89 * day)],
          ['spent-long-ago', ago(91 * day), ago(91 * day)],
        ].map(([entryId, windowStartedAt, spentAt]) => ({
          entryId: entryId as string,
          userId: user.id,
          failures: 3,
          windowStartedAt: windowStartedAt as Date,
          spentAt: spentAt as Date | null,
        })),
      );
      // Another process's guard (same key): its first counted failure prunes.
      const guard = createCredentialGuard(db, passwords, config, Buffer.from(KEY), () => time);
      const sent: string[] = [];
      const reply = { header: (_: string, value: string) => sent.push(value) } as never;
      guard.rememberBrowser({ headers: {}, protocol: 'http' } as never, reply, user.id);
      const request = { ip: '192.0.2.9', user: null, headers: { cookie: sent[0]?.split(';')[0] } };
      await guard.check(request as never, { userId: user.id }, 'typo', 'e-signature');
      const kept = await db
        .select({ entryId: knownBrowserFailures.entryId })
        .from(knownBrowserFailures)
        .where(eq(knownBrowserFailures.userId, user.id));
      const entryId = sent[0]?.split('.')[1];
      expect(kept.map((row) => row.entryId).sort()).toEqual(
        ['counting', 'spent-lately', entryId].sort(),
      );
    },
  );

  it('ignores a cookie of another account, a tampered one or garbage: the lock holds, no 500', async () => {
    const { user } = await owner();
    const other = await owner();
    await lockOut(user);
    const value = (other.browser ?? 'lc_known=x').slice(`${KNOWN_BROWSER_COOKIE}=`.length);
    const [, entryId, issued, mac] = value.split('.');
    for (const cookie of [
      other.browser,
      `lc_known=${user.id}.${entryId}.${issued}.${mac}`,
      'lc_known=garbage',
      'lc_known=~~~; lc_known=....',
      `lc_known=${'x'.repeat(8000)}`,
      'lc_known',
    ]) {
      expect((await login(user.email, PASSWORD, cookie)).statusCode).toBe(401);
    }
    // The other account's browser is still known to its own account.
    expect((await login(other.user.email, PASSWORD, other.browser)).statusCode).toBe(200);
    expect(await lockedUntil(user.id)).not.toBeNull();
  });
});
