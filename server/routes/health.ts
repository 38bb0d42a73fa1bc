import path from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { HttpError } from '../http/errors.ts';
import { onReadOnlyFileSystem, storageFailure } from '../http/storage-errors.ts';
import { ErrorResponse } from '../schemas/common.ts';
import { Health } from '../schemas/health.ts';

/** The database answers but takes no writes (a standby, or default_transaction_read_only). */
class ReadsOnly extends Error {}

/**
 * Makes the database write a new file without changing any table: a sort too large for the
 * smallest work_mem spills to a temporary file, which is created (refused on a read-only folder)
 * and written (refused on a full disk), then removed. Two columns, so that it is not sorted as
 * bare values (which fit); 3000 rows spill on PGlite and PostgreSQL 15 alike (EXPLAIN ANALYZE:
 * "external merge", about 56 kB) in a few milliseconds. Tried by hand with PGlite's folder
 * read-only: `select 1` passed, and so did a rolled-back row (its table's file was already
 * open). A temporary table noticed, but leaves dead catalog rows that PGlite, which runs no
 * autovacuum, keeps: 2.7 kB a check, over 20 MB a day at one check every 10 s.
 */
async function probeDatabase(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '64kB'`);
    const result = (await tx.execute(sql`
      select current_setting('transaction_read_only') as read_only,
             (select sum(a + b) from (select g as a, -g as b from generate_series(1, 3000) g
                                      order by a desc, b) spilled) as spilled`)) as unknown as {
      rows: { read_only: string }[];
    };
    if (result.rows[0]?.read_only === 'on') throw new ReadsOnly('transaction_read_only is on');
  });
}

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config, dbKind, storage } = app.ctx;
  const pgliteDir = path.join(config.dataDir, 'pglite');

  /** Why the database failed its check, in words, when that can be told. */
  const databaseReason = (error: unknown): string | null => {
    if (error instanceof ReadsOnly) return 'it takes reads only';
    const failure = storageFailure(error);
    if (failure) return `its storage is ${failure.problem}`;
    // PGlite reports a temporary file it could not create on a read-only folder as "No such
    // file or directory" (tried by hand): its folder says what it is.
    if (dbKind === 'pglite' && onReadOnlyFileSystem(pgliteDir)) return 'its storage is read-only';
    return null;
  };
  const fileStoreReason = (error: unknown): string | null => {
    const failure = storageFailure(error);
    return failure ? `its storage is ${failure.problem}` : null;
  };

  /** What cannot write, in words; an empty list when both can. Details go to the log. */
  const check = async (): Promise<string[]> => {
    const parts = [
      { name: 'the database', probe: () => probeDatabase(db), reason: databaseReason },
      { name: 'the file store', probe: () => storage.probeWrite(), reason: fileStoreReason },
    ];
    const results = await Promise.allSettled(parts.map((part) => part.probe()));
    return results.flatMap((result, index) => {
      if (result.status === 'fulfilled') return [];
      const { name, reason } = parts[index] as (typeof parts)[number];
      app.log.error({ err: result.reason }, `health check: ${name} cannot write`);
      const why = reason(result.reason);
      return [`${name} cannot write${why ? ` (${why})` : ''}`];
    });
  };
  // The route is public: requests that arrive while a check runs share its answer, so a burst of
  // them costs one check, not one each.
  let running: Promise<string[]> | null = null;

  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: { tags: ['system'], security: [], response: { 200: Health, 503: ErrorResponse } },
    },
    async () => {
      running ??= check().finally(() => {
        running = null;
      });
      const problems = await running;
      if (problems.length > 0) {
        throw new HttpError(
          503,
          `Not healthy: ${problems.join('; ')}. The server log has the details.`,
        );
      }
      return { status: 'ok' as const, database: dbKind };
    },
  );
};
