// Writes to the append-only audit log. Callers pass the transaction that makes the change, so
// the record and its audit entry commit (or fail) together.
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

export interface AuditEntryInput {
  action: string;
  entity: string;
  entityId?: string | null;
  oldValue?: unknown;
  newValue?: unknown;
  /** Overrides the request's user (e.g. a failed login names the email tried). */
  actorEmail?: string | null;
}

export async function audit(
  db: Db | Tx,
  request: FastifyRequest | null,
  entry: AuditEntryInput,
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: request?.user?.id ?? null,
    actorEmail: entry.actorEmail ?? request?.user?.email ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    oldValue: entry.oldValue ?? null,
    newValue: entry.newValue ?? null,
    ip: request?.ip ?? null,
  });
}
