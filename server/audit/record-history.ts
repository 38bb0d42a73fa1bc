// The whole history of one inspection record (docs/audit-trail.md, "A record's history"): the
// trail files each entry under the object it changed, so an inspection's history is spread over
// the inspection, its video and the video's uploads. This module gathers those objects' ids and
// reads their entries: for `GET /api/audit-log?record=` and the PDF's 'Record history'.
import { and, asc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { auditLog, inspections, uploads } from '../db/schema.ts';
import { iso } from '../ids.ts';
import type { AuditEntry } from '../schemas/audit-log.ts';
import { auditReason } from './reason.ts';
import { checkEntries, type EntryCheck } from './verify-trail.ts';

/** The objects whose entries make up an inspection record's history. */
export interface RecordObjects {
  inspectionId: string;
  /** The video linked now, and any the record had before (a deleted video unlinks it). */
  videoIds: string[];
  /** Every upload of those videos, kept, verified, rejected or expired. */
  uploadIds: string[];
}

/**
 * Every object type the trail holds, one index probe each (a loose index scan over
 * `audit_entity_idx`): as an array, it lets `entity_id = any(ids)` probe that index once per
 * type and id, where PostgreSQL before 18 would read the whole index for a second column alone.
 */
const trailEntities = sql`(
  with recursive found(value) as (
    (select entity from audit_log order by entity limit 1)
    union all
    select (select entity from audit_log where entity > found.value order by entity limit 1)
    from found where found.value is not null
  )
  select value from found where value is not null)`;

const texts = (rows: { value: unknown }[]) =>
  rows.map((row) => row.value).filter((value): value is string => typeof value === 'string');

const unique = (values: (string | null | undefined)[]) => [
  ...new Set(values.filter((value): value is string => !!value)),
];

/**
 * The inspection's objects, or null when no inspection has this id. A video is the record's when
 * the inspection names it now, named it when it was created (its `create` entry), or was deleted
 * while linked to it (the `delete` entry lists the inspections it unlinked). An upload is the
 * video's when its row names the video or one of its entries does (`upload.create` and
 * `upload.complete` in the new value, `upload.reject` and `upload.expire` in the old one: a
 * refused upload's row is gone).
 */
export async function recordObjects(db: Db, inspectionId: string): Promise<RecordObjects | null> {
  const [inspection] = await db
    .select({ videoId: inspections.videoId })
    .from(inspections)
    .where(eq(inspections.id, inspectionId));
  if (!inspection) return null;
  const named = await db
    .select({ value: sql`${auditLog.newValue}->>'videoId'` })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'inspection'), eq(auditLog.entityId, inspectionId)));
  const deleted = await db
    .select({ value: auditLog.entityId })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, 'delete'),
        eq(auditLog.entity, 'video'),
        sql`${auditLog.oldValue}->'unlinkedInspections' ? ${inspectionId}`,
      ),
    );
  const videoIds = unique([inspection.videoId, ...texts(named), ...texts(deleted)]);
  if (!videoIds.length) return { inspectionId, videoIds, uploadIds: [] };

  const rows = await db
    .select({ value: uploads.id })
    .from(uploads)
    .where(inArray(uploads.videoId, videoIds));
  // Uploads come after their video: the scan of upload entries starts at its first entry.
  const [first] = await db
    .select({ id: sql<number>`min(${auditLog.id})`.mapWith(Number) })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'video'), inArray(auditLog.entityId, videoIds)));
  const logged = await db
    .selectDistinct({ value: auditLog.entityId })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, 'upload'),
        sql`${auditLog.id} >= ${first?.id ?? 0}`,
        or(
          inArray(sql`${auditLog.newValue}->>'videoId'`, videoIds),
          inArray(sql`${auditLog.oldValue}->>'videoId'`, videoIds),
        ),
      ),
    );
  return { inspectionId, videoIds, uploadIds: unique([...texts(rows), ...texts(logged)]) };
}

/** The trail's entries about these objects, as a WHERE condition. */
export function recordCondition(objects: RecordObjects): SQL {
  const ids = [objects.inspectionId, ...objects.videoIds];
  const direct = and(
    sql`${auditLog.entity} = any(array${trailEntities})`,
    inArray(auditLog.entityId, ids),
  ) as SQL;
  if (!objects.uploadIds.length) return direct;
  return or(
    direct,
    and(eq(auditLog.entity, 'upload'), inArray(auditLog.entityId, objects.uploadIds)),
  ) as SQL;
}

/** An entry as `GET /api/audit-log` answers it. */
export const toAuditEntry = (row: typeof auditLog.$inferSelect): AuditEntry => ({
  ...row,
  at: iso(row.at),
  reason: auditReason(row.newValue),
});

/**
 * The whole history of an inspection record, oldest first: its own entries (creation, capture,
 * dispositions, signatures and failed signing attempts), its video's (creation, hash
 * verification, analysis, deletion) and its uploads'. Null when no inspection has this id. Who
 * may read it is the caller's rule (the trail's readers on /audit; the report's readers in its
 * PDF, docs/audit-trail.md).
 */
export async function recordHistory(db: Db, inspectionId: string): Promise<AuditEntry[] | null> {
  const objects = await recordObjects(db, inspectionId);
  if (!objects) return null;
  const rows = await db
    .select()
    .from(auditLog)
    .where(recordCondition(objects))
    .orderBy(asc(auditLog.id));
  return rows.map(toAuditEntry);
}

/** An entry of a record's history with how it checks against the chain (`checkEntries`). */
export type CheckedEntry = AuditEntry & { chain: EntryCheck };

/**
 * The record's whole history (empty for no such inspection), each entry checked against the chain:
 * what a copy leaving the system (the PDF, the electronic copy) prints of it.
 */
export async function checkedRecordHistory(db: Db, inspectionId: string): Promise<CheckedEntry[]> {
  const history = (await recordHistory(db, inspectionId)) ?? [];
  const checks = await checkEntries(
    db,
    history.map((entry) => entry.id),
  );
  return history.map((entry) => ({ ...entry, chain: checks.get(entry.id) ?? 'hash' }));
}
