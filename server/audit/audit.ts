// Writes to the append-only audit log. Callers pass the transaction that makes the change, so
// the record and its audit entry commit (or fail) together.
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import { capOptional, capText, AUDIT_TEXT_LIMITS as MAX } from './limits.ts';

export interface AuditEntryInput {
  action: string;
  entity: string;
  entityId?: string | null;
  oldValue?: unknown;
  newValue?: unknown;
  /** Overrides the request's user (e.g. a failed login names the email tried). */
  actorEmail?: string | null;
  /** When the change happened, where the record keeps its own time (a signature's); else now. */
  at?: Date;
}

export async function audit(
  db: Db | Tx,
  /** The request, or who acted outside one (the demo loader's submitting operator: no ip). */
  request: (Pick<FastifyRequest, 'user'> & { ip?: string }) | null,
  entry: AuditEntryInput,
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: request?.user?.id ?? null,
    actorEmail: capOptional(entry.actorEmail ?? request?.user?.email ?? null, MAX.actorEmail),
    action: capText(entry.action, MAX.action),
    entity: capText(entry.entity, MAX.entity),
    entityId: capOptional(entry.entityId ?? null, MAX.entityId),
    oldValue: entry.oldValue ?? null,
    newValue: entry.newValue ?? null,
    ip: capOptional(request?.ip ?? null, MAX.ip),
    ...(entry.at ? { at: entry.at } : {}),
  });
}
