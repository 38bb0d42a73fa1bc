// Security alerts (21 CFR 11.300(d): attempts at unauthorized use reported at once to those who run
// the system): the audit entries of such attempts, shown on the admin and factory-manager
// dashboard until someone reviews them. The trail is the only store: an alert is an entry of one
// of SECURITY_ALERT_ACTIONS, and a review is an entry naming the newest entry it covered, so the
// review is part of the GMP record and every reviewer sees the same state.

import { and, asc, count, desc, eq, gt, inArray, lte, max, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { accountLockouts, auditLog, users } from '../db/schema.ts';
import { badRequest } from '../http/errors.ts';
import { iso } from '../ids.ts';
import { SIGNED_AFTER_RESET } from '../reports/signed-after-reset.ts';
import type { SecurityAlerts, SecurityAlertsReview } from '../schemas/security-alerts.ts';
import { audit } from './audit.ts';
import { toAuditEntry } from './record-history.ts';

/**
 * What counts as an attempt at unauthorized use: an account locked by its failed passwords, an
 * address blocked by its failures (server/auth/credentials.ts), a role refusal (refusals.ts) and a
 * signature soon after another account reset the signer's password (signed-after-reset.ts).
 */
export const SECURITY_ALERT_ACTIONS = [
  'account.locked',
  'login.address-blocked',
  'authorization.denied',
  SIGNED_AFTER_RESET,
] as const;
export const ALERTS_REVIEWED = 'security-alerts.reviewed';
/** Entries an answer lists; `count` says how many there are in all. */
const ENTRIES_SHOWN = 20;
/** The audit chain's lock (migration 0007's trigger takes it for every insert). */
const AUDIT_CHAIN_LOCK = 7243001;

async function lastReview(db: Db | Tx): Promise<SecurityAlertsReview | null> {
  const [row] = await db
    .select({
      at: auditLog.at,
      email: auditLog.actorEmail,
      name: users.name,
      newValue: auditLog.newValue,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(eq(auditLog.action, ALERTS_REVIEWED))
    .orderBy(desc(auditLog.id))
    .limit(1);
  if (!row) return null;
  const { throughId } = row.newValue as { throughId: number };
  return { throughId, by: { name: row.name, email: row.email }, at: iso(row.at) };
}

/** Alert entries after `afterId` (and up to `throughId`): one range of `audit_action_idx` each. */
const alertsBetween = (afterId: number, throughId?: number) =>
  and(
    inArray(auditLog.action, [...SECURITY_ALERT_ACTIONS]),
    gt(auditLog.id, afterId),
    throughId === undefined ? undefined : lte(auditLog.id, throughId),
  );

async function countAlerts(db: Db | Tx, afterId: number, throughId?: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(auditLog)
    .where(alertsBetween(afterId, throughId));
  return row?.n ?? 0;
}

/**
 * The newest alert entries after `afterId`: the newest few of each action, each read backwards
 * along `audit_action_idx`, then merged. One query with IN could walk the whole trail by its
 * primary key instead, looking for alerts that are rare.
 */
async function newestAlerts(db: Db, afterId: number) {
  const perAction = await Promise.all(
    SECURITY_ALERT_ACTIONS.map((action) =>
      db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, action), gt(auditLog.id, afterId)))
        .orderBy(desc(auditLog.id))
        .limit(ENTRIES_SHOWN),
    ),
  );
  return perAction
    .flat()
    .sort((a, b) => b.id - a.id)
    .slice(0, ENTRIES_SHOWN)
    .map(toAuditEntry);
}

export async function securityAlerts(db: Db, now = new Date()): Promise<SecurityAlerts> {
  const reviewed = await lastReview(db);
  const afterId = reviewed?.throughId ?? 0;
  // Independent reads after the review's id: together, as the dashboard asks every minute.
  const [locked, alertCount, entries] = await Promise.all([
    db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        lockedUntil: accountLockouts.lockedUntil,
      })
      .from(accountLockouts)
      .innerJoin(users, eq(users.id, accountLockouts.userId))
      .where(gt(accountLockouts.lockedUntil, now))
      .orderBy(asc(accountLockouts.lockedUntil)),
    countAlerts(db, afterId),
    newestAlerts(db, afterId),
  ]);
  return {
    reviewed,
    count: alertCount,
    entries,
    lockedAccounts: locked.map((row) => ({
      ...row,
      lockedUntil: iso(row.lockedUntil as Date),
    })),
  };
}

/**
 * Marks the alerts up to entry `throughId` as reviewed by the request's user: one audit entry
 * with how many it covered. A review at or below the last one changes nothing (false); an id
 * beyond the newest entry is a 400.
 */
export async function reviewSecurityAlerts(
  db: Db,
  request: Pick<FastifyRequest, 'user' | 'ip'>,
  throughId: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Taken before reading the last review, so two reviews at once take turns and the newest
    // review entry is always the one that reaches furthest.
    await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
    const [newest] = await tx.select({ id: max(auditLog.id) }).from(auditLog);
    if (throughId > (newest?.id ?? 0)) {
      throw badRequest(
        `body.throughId must not be beyond the newest audit entry (${newest?.id ?? 0})`,
      );
    }
    const afterId = (await lastReview(tx))?.throughId ?? 0;
    if (throughId <= afterId) return false;
    await audit(tx, request, {
      action: ALERTS_REVIEWED,
      entity: 'security-alerts',
      newValue: { throughId, count: await countAlerts(tx, afterId, throughId), afterId },
    });
    return true;
  });
}
