// Optimistic concurrency for the records an edit form sends back whole (users, line clearances,
// devices, floor-plan configurations): the form sends the version it opened, and a save of an
// older copy is refused in words naming who changed the record and when, so nobody's change is
// silently undone (EU GMP Annex 11; docs/api-contract.md "Versions"). The version itself is
// counted by a trigger (migration 0016).
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { byWhomWhen } from '../audit/who-when.ts';
import type { Db, Tx } from '../db/client.ts';
import { auditLog, devices, floorplanConfigs, lineClearances, users } from '../db/schema.ts';
import { badRequest, conflict, type HttpError, notFound } from '../http/errors.ts';
import { holderName } from './users.ts';

/** Each versioned table under the trail's name for its records. */
const tables = {
  user: users,
  'line-clearance': lineClearances,
  device: devices,
  'floorplan-config': floorplanConfigs,
} as const;

export type VersionedEntity = keyof typeof tables;

/** The stored record a request means to change: how a refusal names it, and its version now. */
interface StoredVersion {
  id: string;
  name: string;
  version: number;
}

/** What an edit form should do once refused (a wizard says it in its own words). */
const REOPEN_FORM = 'Close this form and open it again to see the changes.';

/** An update's WHERE: the row, and only at the version the request names (API scripts name none). */
export function atVersion(entity: VersionedEntity, id: string, version: number | undefined): SQL {
  const table = tables[entity];
  return and(
    eq(table.id, id),
    version === undefined ? undefined : eq(table.version, version),
  ) as SQL;
}

/**
 * The 409 for a save of an older copy: 'Bottling Line 2 was changed by Adriana Novak on
 * 2026-11-26 at 02:41 UTC since you opened it. …'. Who and when come from the trail's entry that
 * made the stored version; a change made outside the application (none) is said without them.
 */
async function changedSince(
  db: Db | Tx,
  request: Pick<FastifyRequest, 'user'>,
  entity: VersionedEntity,
  stored: StoredVersion,
  advice = REOPEN_FORM,
): Promise<HttpError> {
  const [entry] = await db
    .select({ at: auditLog.at, actorId: auditLog.actorId, actorEmail: auditLog.actorEmail })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, entity),
        eq(auditLog.entityId, stored.id),
        sql`${auditLog.newValue}->>'version' = ${String(stored.version)}`,
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(1);
  if (!entry) return conflict(`${stored.name} was changed since you opened it. ${advice}`);
  const who =
    entry.actorId === request.user?.id
      ? 'you'
      : entry.actorId
        ? await holderName(db, entry.actorId)
        : (entry.actorEmail ?? 'someone');
  return conflict(
    `${stored.name} was changed ${byWhomWhen(who, entry.at)} since you opened it. ${advice}`,
  );
}

/** The version a request's body names, if any (every versioned save sends it as `version`). */
const namedVersion = (body: unknown): number | undefined => {
  const version = (body as { version?: unknown } | null | undefined)?.version;
  return typeof version === 'number' ? version : undefined;
};

/**
 * Why an update guarded by `atVersion` changed no row: the record is gone (404 naming `what`), the
 * request names a version the record never had (400), or another save committed first (the 409),
 * read in the update's transaction.
 */
export async function notUpdated(
  tx: Tx,
  request: Pick<FastifyRequest, 'user' | 'body'>,
  entity: VersionedEntity,
  id: string,
  what: string,
  advice?: string,
): Promise<HttpError> {
  const table = tables[entity];
  const [row] = await tx
    .select({ id: table.id, name: table.name, version: table.version })
    .from(table)
    .where(eq(table.id, id));
  if (!row) return notFound(what);
  const named = namedVersion(request.body);
  // Versions only grow: a later one was never this record's, and nobody changed it since.
  if (named !== undefined && named > row.version) {
    return badRequest(
      `body.version (${named}) is not a version of ${row.name}, whose latest version is ${row.version}`,
    );
  }
  return changedSince(tx, request, entity, row, advice);
}
