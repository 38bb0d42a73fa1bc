// A copy of records leaving the system is traceable (21 CFR 11.10(b), EU GMP Annex 11 §8): every
// export the server answers with a file writes one `export` entry, as its first byte goes
// (docs/audit-trail.md, "Exports").
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { audit } from './audit.ts';

export interface ExportCopy {
  /** What the copy holds: the object type of its records ('user', 'inspection', 'audit-log'). */
  entity: string;
  /** The one record copied (a report's PDF); none for a list. */
  entityId?: string;
  /** The file's name as sent. */
  file: string;
  /** The filters the file was made with; none for an export that takes none. */
  filters?: Record<string, unknown>;
  /** What else names the copy (a PDF's print time and record hash). */
  details?: Record<string, unknown>;
}

/**
 * The entry for a copy about to be sent. A HEAD request runs the same handler but sends no file,
 * so it writes nothing.
 */
export async function auditExport(
  db: Db,
  request: FastifyRequest,
  copy: ExportCopy,
): Promise<void> {
  if (request.method === 'HEAD') return;
  await audit(db, request, {
    action: 'export',
    entity: copy.entity,
    entityId: copy.entityId ?? null,
    newValue: {
      file: copy.file,
      ...(copy.filters && { filters: copy.filters }),
      ...copy.details,
    },
  });
}

/**
 * The named filters the query sets. A query keeps keys its schema does not declare, which filter
 * nothing and are not the copy's.
 */
export function exportFilters<Q extends object>(
  query: Q,
  names: readonly (keyof Q & string)[],
): Record<string, unknown> {
  const set = names.filter((name) => query[name] !== undefined);
  return Object.fromEntries(set.map((name) => [name, query[name]]));
}
