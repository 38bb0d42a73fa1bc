// The audit trail (docs/audit-trail.md): filtered pages, a CSV export and the hash-chain check.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, desc, eq, gte, ilike, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { auditExport, exportFilters } from '../audit/exports.ts';
import { recordCondition, recordObjects, toAuditEntry } from '../audit/record-history.ts';
import { verifyTrail } from '../audit/verify-trail.ts';
import type { AuthUser } from '../context.ts';
import type { Db } from '../db/client.ts';
import { auditLog, inspections } from '../db/schema.ts';
import { currentUser } from '../http/auth-hook.ts';
import { csvChunks } from '../http/csv.ts';
import { sendCsvInTurn } from '../http/download.ts';
import { errorResponses } from '../http/error-responses.ts';
import { notFound } from '../http/errors.ts';
import { inTurn } from '../http/heavy-work.ts';
import { AuditEntry, AuditFacets, AuditQuery, TrailVerification } from '../schemas/audit-log.ts';
import { visibleTo } from '../services/scope.ts';

/** Who reads the whole trail: auditors, factory managers and admins (docs/permissions.md). */
const trailReaders = ['audit', 'factory_manager', 'admin'] as const;
/** Entries read at a time for the CSV, which streams the whole filtered trail. */
const CSV_PAGE_ROWS = 2000;
/** What selects the CSV's entries (it reads every page: `limit` is not its). */
const CSV_FILTERS = [
  'actor',
  'action',
  'entity',
  'entityId',
  'record',
  'from',
  'to',
  'before',
] as const;
const errors = errorResponses;

/**
 * `record`: the whole history of an inspection the caller may see (its own entries, its video's
 * and its uploads'; server/audit/record-history.ts); 404 for one it may not.
 */
async function recordFilter(db: Db, user: AuthUser, inspectionId: string): Promise<SQL> {
  const [visible] = await db
    .select({ id: inspections.id })
    .from(inspections)
    .where(
      and(
        eq(inspections.id, inspectionId),
        visibleTo(user, { owner: inspections.operatorId, line: inspections.lineClearanceId }),
      ),
    );
  const objects = visible && (await recordObjects(db, inspectionId));
  if (!objects) throw notFound('Inspection');
  return recordCondition(objects);
}

async function readTrail(
  db: Db,
  user: AuthUser,
  query: AuditQuery,
  limit: number,
): Promise<AuditEntry[]> {
  const filters: SQL[] = [];
  if (query.record !== undefined) filters.push(await recordFilter(db, user, query.record));
  if (query.before !== undefined) filters.push(lt(auditLog.id, query.before));
  if (query.actor !== undefined) {
    // Part of an email is enough ('lcmanager2' finds lcmanager2@example.com); LIKE's own
    // wildcards in what was typed match themselves.
    const actor = query.actor.trim();
    const pattern = `%${actor.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(or(ilike(auditLog.actorEmail, pattern), eq(auditLog.actorId, actor)) as SQL);
  }
  if (query.action !== undefined) filters.push(eq(auditLog.action, query.action));
  if (query.entity !== undefined) filters.push(eq(auditLog.entity, query.entity));
  if (query.entityId !== undefined) filters.push(eq(auditLog.entityId, query.entityId));
  if (query.from !== undefined) filters.push(gte(auditLog.at, new Date(query.from)));
  if (query.to !== undefined) filters.push(lte(auditLog.at, new Date(query.to)));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...filters))
    .orderBy(desc(auditLog.id))
    .limit(limit);
  return rows.map(toAuditEntry);
}

/**
 * The distinct values of an indexed column, in order: one index probe per value (a loose index
 * scan), so a trail of millions of entries answers as fast as a small one.
 */
async function distinctValues(db: Db, column: 'action' | 'entity'): Promise<string[]> {
  const name = sql.identifier(column);
  const { rows } = (await db.execute(sql`
    with recursive found(value) as (
      (select ${name} from audit_log order by ${name} limit 1)
      union all
      select (select ${name} from audit_log where ${name} > found.value order by ${name} limit 1)
      from found where found.value is not null
    )
    select value from found where value is not null`)) as unknown as {
    rows: { value: string }[];
  };
  return rows.map((row) => row.value);
}

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);

/** Every entry the query selects, newest first, a page at a time (keyset on the id). */
async function* trailPages(db: Db, user: AuthUser, query: AuditQuery) {
  let before = query.before;
  for (;;) {
    const page = await readTrail(db, user, { ...query, before }, CSV_PAGE_ROWS);
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (!last || page.length < CSV_PAGE_ROWS) return;
    before = last.id;
  }
}

const TRAIL_CSV_HEADER = [
  'id',
  'at (UTC)',
  'actor id',
  'actor email',
  'action',
  'entity',
  'entity id',
  'old value',
  'new value',
  'reason',
  'ip',
  'prev hash',
  'hash',
];

async function* trailCsvRows(pages: AsyncIterable<AuditEntry[]>) {
  for await (const page of pages) {
    yield page.map((r) => [
      r.id,
      r.at,
      r.actorId,
      r.actorEmail,
      r.action,
      r.entity,
      r.entityId,
      json(r.oldValue),
      json(r.newValue),
      r.reason,
      r.ip,
      r.prevHash,
      r.hash,
    ]);
  }
}

export const auditLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/audit-log',
    {
      config: { access: trailReaders },
      schema: {
        tags: ['audit'],
        querystring: AuditQuery,
        response: { 200: Type.Array(AuditEntry), ...errors },
      },
    },
    async (request) =>
      readTrail(db, currentUser(request), request.query, request.query.limit ?? 200),
  );

  app.get(
    '/audit-log.csv',
    {
      // A plain download link: the media cookie authorises it.
      config: { access: trailReaders, media: true },
      schema: { tags: ['audit'], querystring: AuditQuery, response: errors },
    },
    async (request, reply) => {
      const pages = trailPages(db, currentUser(request), request.query);
      // The first page is read before anything is sent: a refusal (a record the caller may not
      // see) is still an answer of its own, not a broken file. It also fixes the copy's newest
      // entry, so the export's own entry, written after it, is never in it.
      const first = await pages.next();
      async function* rows() {
        if (first.done) return;
        yield first.value;
        yield* pages;
      }
      const file = 'audit-trail.csv';
      const csv = csvChunks(TRAIL_CSV_HEADER, trailCsvRows(rows()));
      const filters = exportFilters(request.query, CSV_FILTERS);
      return sendCsvInTurn(app, reply, file, csv, () =>
        auditExport(db, request, { entity: 'audit-log', file, filters }),
      );
    },
  );

  app.get(
    '/audit-log/facets',
    {
      config: { access: trailReaders },
      schema: { tags: ['audit'], response: { 200: AuditFacets, ...errors } },
    },
    async () => ({
      actions: await distinctValues(db, 'action'),
      entities: await distinctValues(db, 'entity'),
    }),
  );

  app.get(
    '/audit-log/verify',
    {
      config: { access: trailReaders },
      schema: { tags: ['audit'], response: { 200: TrailVerification, ...errors } },
    },
    async () => inTurn(app, () => verifyTrail(db)),
  );
};
