// Every check of a user's password goes through here: sign-in, the current password of a password
// change, and an e-signature's password re-entry. Failures are counted in the database (so several
// API processes agree): per account, LOGIN_MAX_FAILURES within the window lock the account for
// LOGIN_LOCK_SECONDS, doubling with each further lock until a sign-in succeeds or an admin
// unlocks; per client address, LOGIN_RATE_LIMIT failures a minute answer 429 until the minute is
// over. Successful checks never count. The answer never tells a locked or deactivated account from
// a wrong password or an unknown email: each costs one hash and gets the same refusal.
// A browser the account signed in from before (known-browser.ts) is not refused by the account's
// lock: its failures count against its own entry, with the same limit and window, and an entry at
// the limit is spent, the browser then counted as any other client.
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { audit } from '../audit/audit.ts';
import { withReason } from '../audit/change-reason.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { accountLockouts, addressFailures, knownBrowserFailures, users } from '../db/schema.ts';
import { HttpError } from '../http/errors.ts';
import { type BrowserEntry, createKnownBrowsers } from './known-browser.ts';
import type { HashLane, PasswordHasher } from './password.ts';

export type UserRow = typeof users.$inferSelect;

/** Why the password is asked for; decides the hash lane and the audit action of a failure. */
export type PasswordPurpose = 'login' | 'password-change' | 'e-signature';

/** Why a check refused the password (audited; a sign-in's answer never says which). */
export type FailureReason =
  | 'unknown account'
  | 'account deactivated'
  | 'account locked'
  | 'wrong password';

export type CredentialCheck =
  /**
   * `lockPassed`: the end of the account's lock that a known browser's entry let this check past
   * (the lock stays for everyone else).
   */
  | { ok: true; user: UserRow; lockPassed: Date | null }
  /**
   * 401: why, and until when the account is locked (before this check, or by this failure); a
   * sign-in never says either, a signed-in user entering its password again may be told.
   */
  | { ok: false; status: 401; reason: FailureReason; lockedUntil: Date | null }
  /** 429: the address is over its limit. */
  | { ok: false; status: 429; retryAfterSeconds: number };

/**
 * A refused check as the route's answer: 429 with Retry-After while the address is over its limit,
 * else `wrong` (the route's own answer for a wrong password).
 */
export function refuseCheck(reply: FastifyReply, check: CredentialCheck, wrong: HttpError): never {
  if (!check.ok && check.status === 429) {
    reply.header('retry-after', String(check.retryAfterSeconds));
    throw new HttpError(
      429,
      `Too many failed attempts from this address; try again in ${check.retryAfterSeconds} s`,
    );
  }
  throw wrong;
}

export interface CredentialGuard {
  /**
   * Checks `password` for the account with this email (sign-in) or id (a signed-in user entering
   * its password again). Counts and audits a failure; clears the account's failures on success.
   */
  check(
    request: FastifyRequest,
    who: { email: string } | { userId: string },
    password: string,
    purpose: PasswordPurpose,
  ): Promise<CredentialCheck>;
  /** Lifts a lock (audited as the request's user's action); false when the account was not locked. */
  unlock(request: FastifyRequest, userId: string, reason: string | null): Promise<boolean>;
  /** After a sign-in: the browser is known for the account (a new entry in its cookie). */
  rememberBrowser(request: FastifyRequest, reply: FastifyReply, userId: string): void;
}

const FAILED_ACTION: Record<PasswordPurpose, string> = {
  login: 'login.failed',
  'password-change': 'password.change-failed',
  'e-signature': 'signature.password-failed',
};
const LANE: Record<PasswordPurpose, HashLane> = {
  login: 'sign-in',
  'password-change': 'other',
  'e-signature': 'other',
};
const ADDRESS_WINDOW_MS = 60_000;
const MAX_LOCK_SECONDS = 24 * 3600;
/** Address counters older than this are deleted (at most once a minute). */
const ADDRESS_ROWS_KEPT_MS = 3600_000;

type Settings = Pick<
  Config,
  | 'loginRateLimit'
  | 'loginMaxFailures'
  | 'loginFailureWindowSeconds'
  | 'loginLockSeconds'
  | 'knownBrowserDays'
>;

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * An `account.unlocked` entry's old and new value: the lock's end before, none after, so the trail
 * reads `lockedUntil: {time} → —` (the lock lifted), with why on both sides as a change's reason.
 */
const liftedLock = (reason: string, lockedUntil: Date | null) =>
  withReason(reason, { lockedUntil: lockedUntil?.toISOString() ?? null }, { lockedUntil: null });

/** The ON CONFLICT update of a failure counter: back to 1 once its window is over, else one more. */
function countInWindow(
  columns: { failures: PgColumn; windowStartedAt: PgColumn },
  windowStart: Date,
  time: Date,
) {
  const over = sql`${columns.windowStartedAt} <= ${at(windowStart)}`;
  return {
    failures: sql`case when ${over} then 1 else ${columns.failures} + 1 end`,
    windowStartedAt: sql`case when ${over} then ${at(time)} else ${columns.windowStartedAt} end`,
  };
}

/** `browserKey`: the server's signing key, which known-browser cookies are signed with. */
export function createCredentialGuard(
  db: Db,
  passwords: PasswordHasher,
  settings: Settings,
  browserKey: Uint8Array,
  now: () => Date = () => new Date(),
): CredentialGuard {
  // Unknown emails still cost one hash, so response time does not reveal which accounts exist.
  let dummyHash: Promise<string> | null = null;
  let prunedAt = 0;
  let browsersPrunedAt = 0;
  const browsers = createKnownBrowsers(browserKey, settings.knownBrowserDays);
  const failureWindowMs = settings.loginFailureWindowSeconds * 1000;

  /** The request's entry for the account, unless it was spent. */
  async function knownBrowser(
    request: FastifyRequest,
    userId: string,
    time: Date,
  ): Promise<BrowserEntry | null> {
    const entry = browsers.entryFor(request, userId, time);
    if (!entry) return null;
    const [row] = await db
      .select({ spentAt: knownBrowserFailures.spentAt })
      .from(knownBrowserFailures)
      .where(eq(knownBrowserFailures.entryId, entry.entryId));
    return row?.spentAt ? null : entry;
  }

  /**
   * Counts a wrong password against the browser's entry; spends it at the limit. The end of the
   * account's lock when that now applies to this browser (it was spent while the account is locked).
   */
  async function countBrowserFailure(
    request: FastifyRequest,
    user: UserRow,
    entry: BrowserEntry,
    lockedUntil: Date | null,
    time: Date,
  ): Promise<Date | null> {
    const windowStart = new Date(time.getTime() - failureWindowMs);
    await db
      .insert(knownBrowserFailures)
      .values({ entryId: entry.entryId, userId: user.id, failures: 1, windowStartedAt: time })
      .onConflictDoUpdate({
        target: knownBrowserFailures.entryId,
        set: countInWindow(knownBrowserFailures, windowStart, time),
      });
    // One statement spends it, so two processes counting at once spend it (and audit it) once.
    const [spent] = await db
      .update(knownBrowserFailures)
      .set({ spentAt: time })
      .where(
        and(
          eq(knownBrowserFailures.entryId, entry.entryId),
          isNull(knownBrowserFailures.spentAt),
          sql`${knownBrowserFailures.failures} >= ${settings.loginMaxFailures}`,
        ),
      )
      .returning({ failures: knownBrowserFailures.failures });
    if (spent) {
      await audit(db, request, {
        action: 'login.known-browser-spent',
        entity: 'user',
        entityId: user.id,
        actorEmail: user.email,
        newValue: { failures: spent.failures, windowSeconds: settings.loginFailureWindowSeconds },
      });
    }
    await pruneBrowserFailures(time);
    return spent ? lockedUntil : null;
  }

  /**
   * Counters whose window is over count from 0 anyway; a spent entry is kept while it could still
   * be sent (it was set before it was spent), then goes.
   */
  async function pruneBrowserFailures(time: Date): Promise<void> {
    if (time.getTime() - browsersPrunedAt < ADDRESS_WINDOW_MS) return;
    browsersPrunedAt = time.getTime();
    const entryLifeMs = settings.knownBrowserDays * 24 * 3600_000;
    await db
      .delete(knownBrowserFailures)
      .where(
        or(
          and(
            isNull(knownBrowserFailures.spentAt),
            lt(knownBrowserFailures.windowStartedAt, new Date(time.getTime() - failureWindowMs)),
          ),
          lt(knownBrowserFailures.spentAt, new Date(time.getTime() - entryLifeMs)),
        ),
      );
  }

  /** Seconds until the address may try again, or 0. */
  async function addressBlockedFor(address: string, time: Date): Promise<number> {
    const [row] = await db
      .select()
      .from(addressFailures)
      .where(
        and(
          eq(addressFailures.address, address),
          gt(addressFailures.windowStartedAt, new Date(time.getTime() - ADDRESS_WINDOW_MS)),
        ),
      );
    if (!row || row.failures < settings.loginRateLimit) return 0;
    return Math.ceil((row.windowStartedAt.getTime() + ADDRESS_WINDOW_MS - time.getTime()) / 1000);
  }

  async function countAddressFailure(request: FastifyRequest, time: Date): Promise<void> {
    const windowStart = new Date(time.getTime() - ADDRESS_WINDOW_MS);
    const [row] = await db
      .insert(addressFailures)
      .values({ address: request.ip, failures: 1, windowStartedAt: time })
      .onConflictDoUpdate({
        target: addressFailures.address,
        set: countInWindow(addressFailures, windowStart, time),
      })
      .returning({ failures: addressFailures.failures });
    if (row?.failures === settings.loginRateLimit) {
      await audit(db, request, {
        action: 'login.address-blocked',
        entity: 'address',
        entityId: request.ip,
        newValue: { failures: row.failures, windowSeconds: ADDRESS_WINDOW_MS / 1000 },
      });
    }
    if (time.getTime() - prunedAt > ADDRESS_WINDOW_MS) {
      prunedAt = time.getTime();
      await db
        .delete(addressFailures)
        .where(
          lt(addressFailures.windowStartedAt, new Date(time.getTime() - ADDRESS_ROWS_KEPT_MS)),
        );
    }
  }

  /** Counts a wrong password; the end of the lock it caused, if it locked the account. */
  async function countAccountFailure(
    request: FastifyRequest,
    user: UserRow,
    time: Date,
  ): Promise<Date | null> {
    const windowStart = new Date(time.getTime() - settings.loginFailureWindowSeconds * 1000);
    await db
      .insert(accountLockouts)
      .values({ userId: user.id, failures: 1, windowStartedAt: time })
      .onConflictDoUpdate({
        target: accountLockouts.userId,
        set: countInWindow(accountLockouts, windowStart, time),
      });
    // One statement decides the lock, so two processes counting at once lock only once.
    const [locked] = await db
      .update(accountLockouts)
      .set({
        lockedUntil: sql`${at(time)} + make_interval(secs => least(${settings.loginLockSeconds}::float8 * power(2, ${accountLockouts.locks}), ${MAX_LOCK_SECONDS}::float8))`,
        locks: sql`${accountLockouts.locks} + 1`,
        failures: 0,
      })
      .where(
        and(
          eq(accountLockouts.userId, user.id),
          sql`${accountLockouts.failures} >= ${settings.loginMaxFailures}`,
          sql`(${accountLockouts.lockedUntil} is null or ${accountLockouts.lockedUntil} <= ${at(time)})`,
        ),
      )
      .returning({ lockedUntil: accountLockouts.lockedUntil, locks: accountLockouts.locks });
    if (locked?.lockedUntil) {
      await audit(db, request, {
        action: 'account.locked',
        entity: 'user',
        entityId: user.id,
        actorEmail: user.email,
        newValue: {
          lockedUntil: locked.lockedUntil.toISOString(),
          seconds: Math.round((locked.lockedUntil.getTime() - time.getTime()) / 1000),
          lock: locked.locks,
          failures: settings.loginMaxFailures,
        },
      });
    }
    return locked?.lockedUntil ?? null;
  }

  return {
    async check(request, who, password, purpose) {
      const time = now();
      const retryAfterSeconds = await addressBlockedFor(request.ip, time);
      if (retryAfterSeconds > 0) return { ok: false, status: 429, retryAfterSeconds };

      const [user] = await db
        .select()
        .from(users)
        .where('email' in who ? eq(users.email, who.email) : eq(users.id, who.userId));
      const [lockout] = user
        ? await db.select().from(accountLockouts).where(eq(accountLockouts.userId, user.id))
        : [];
      const accountLockedUntil =
        lockout?.lockedUntil && lockout.lockedUntil > time ? lockout.lockedUntil : null;
      const browser = user ? await knownBrowser(request, user.id, time) : null;
      // The account's lock is the unknown clients': a known browser has its own counter.
      const locked = accountLockedUntil !== null && !browser;
      dummyHash ??= passwords.hash('not-a-real-password', 'sign-in');
      const stored = user?.passwordHash ?? (await dummyHash);
      const matches = await passwords.verify(password, stored, LANE[purpose]);

      if (user && matches && !locked && user.status === 'active') {
        if (browser) {
          // Its own counter starts again; the account's lock and failures stay, since whoever
          // caused them may still be trying.
          await db
            .delete(knownBrowserFailures)
            .where(eq(knownBrowserFailures.entryId, browser.entryId));
          return { ok: true, user, lockPassed: accountLockedUntil };
        }
        if (lockout) {
          await db.delete(accountLockouts).where(eq(accountLockouts.userId, user.id));
          if (lockout.lockedUntil) {
            await audit(db, request, {
              action: 'account.unlocked',
              entity: 'user',
              entityId: user.id,
              actorEmail: user.email,
              ...liftedLock('lock expired', lockout.lockedUntil),
            });
          }
        }
        return { ok: true, user, lockPassed: null };
      }

      const reason: FailureReason = !user
        ? 'unknown account'
        : user.status !== 'active'
          ? 'account deactivated'
          : locked
            ? 'account locked'
            : 'wrong password';
      const againstBrowser = browser && reason === 'wrong password' ? browser : null;
      // The failure is audited before what it causes (a lock, an address block), so the trail
      // reads in causal order.
      await audit(db, request, {
        action: FAILED_ACTION[purpose],
        entity: 'user',
        entityId: user?.id ?? null,
        actorEmail: 'email' in who ? who.email : (user?.email ?? null),
        newValue: againstBrowser ? { reason, knownBrowser: true } : { reason },
      });
      await countAddressFailure(request, time);
      const lockedUntil =
        user && againstBrowser
          ? await countBrowserFailure(request, user, againstBrowser, accountLockedUntil, time)
          : user && reason === 'wrong password'
            ? await countAccountFailure(request, user, time)
            : locked
              ? accountLockedUntil
              : null;
      return { ok: false, status: 401, reason, lockedUntil };
    },

    async unlock(request, userId, reason) {
      const [removed] = await db
        .delete(accountLockouts)
        .where(eq(accountLockouts.userId, userId))
        .returning();
      const wasLocked = Boolean(removed?.lockedUntil && removed.lockedUntil > now());
      if (wasLocked) {
        await audit(db, request, {
          action: 'account.unlocked',
          entity: 'user',
          entityId: userId,
          ...liftedLock(reason ?? 'unlocked by an administrator', removed?.lockedUntil ?? null),
        });
      }
      return wasLocked;
    },

    rememberBrowser(request, reply, userId) {
      browsers.remember(request, reply, userId, now());
    },
  };
}
