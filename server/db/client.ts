// Opens the database (embedded PGlite by default, PostgreSQL with a URL) and applies the checked-in
// migrations. Both drivers give the same Drizzle API, typed here as one `Db`.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { audit } from '../audit/audit.ts';
import { acquireLock } from './lock.ts';
import { type PgliteThread, startPgliteThread } from './pglite-thread.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The handle given to a transaction callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Writes a full dump: PGlite's data directory as .tar.gz, or pg_dump's custom format. */
  dump(targetFile: string): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface DatabaseOptions {
  databaseUrl: string | null;
  /** PGlite data directory; null keeps the database in memory (tests). */
  pgliteDir: string | null;
  /**
   * A PGlite dump to start a new database from (tests: one migrated copy for every file); ignored
   * when pgliteDir already holds a database, which is opened as it is.
   */
  pgliteStart?: Uint8Array<ArrayBuffer>;
}

/** How many of the checked-in migrations the database has; 0 for a new one (no table yet). */
async function appliedMigrations(db: NodePgDatabase<typeof schema>): Promise<number> {
  const { rows } = (await db
    .execute(sql`
    select count(*)::int as applied from drizzle.__drizzle_migrations`)
    .catch(() => ({
      rows: [{ applied: 0 }],
    }))) as unknown as { rows: { applied: number }[] };
  return rows[0]?.applied ?? 0;
}

/**
 * Applies the pending migrations. On a database that had some (an upgrade: EU GMP Annex 11 §10,
 * changes to the system are recorded), the trail says which were applied and when; a new
 * database's first migrations are its creation, not a change.
 */
async function migrateRecorded(db: NodePgDatabase<typeof schema>): Promise<void> {
  const before = await appliedMigrations(db);
  await migratePg(db, { migrationsFolder });
  const after = await appliedMigrations(db);
  if (before === 0 || after === before) return;
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { tag: string }[] };
  await audit(db as unknown as Db, null, {
    action: 'system.upgrade',
    entity: 'system',
    oldValue: { migrations: before },
    newValue: {
      migrations: after,
      applied: journal.entries.slice(before, after).map((entry) => entry.tag),
    },
  });
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = drizzlePg({ client: pool, schema });
    try {
      await migrateRecorded(db);
    } catch (error) {
      await pool.end();
      throw error;
    }
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      dump: (targetFile) => pgDump(options.databaseUrl ?? '', targetFile),
      close: () => pool.end(),
    };
  }
  let release = () => {};
  if (options.pgliteDir) {
    fs.mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
    release = acquireLock(`${options.pgliteDir}.lock`);
  }
  let thread: PgliteThread | undefined;
  let pool: pg.Pool | undefined;
  try {
    const existing = options.pgliteDir && fs.existsSync(path.join(options.pgliteDir, 'PG_VERSION'));
    thread = await startPgliteThread({
      dataDir: options.pgliteDir,
      start: existing ? undefined : options.pgliteStart,
    });
    const connect = thread.connect;
    // Several connections, kept open, so queries wait at the worker instead of in the pool and
    // the engine does not idle between them; the worker runs them one at a time on PGlite's
    // one session, and a transaction has it to itself (pglite-worker.js).
    pool = new pg.Pool({ max: 4, idleTimeoutMillis: 0, stream: () => connect() });
    const db = drizzlePg({ client: pool, schema });
    await migrateRecorded(db);
    const opened = { thread, pool };
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      dump: async (targetFile) => {
        await fs.promises.writeFile(targetFile, Buffer.from(await opened.thread.dump()));
      },
      close: async () => {
        await opened.pool.end();
        await opened.thread.close();
        release();
      },
    };
  } catch (error) {
    await pool?.end().catch(() => {});
    await thread?.close().catch(() => {});
    release();
    throw error;
  }
}

/** pg_dump (PostgreSQL client tools) in custom format, restorable with pg_restore. */
function pgDump(url: string, targetFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('pg_dump', ['--format=custom', '--file', targetFile, url], (error, _out, stderr) => {
      if (!error) return resolve();
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      reject(
        new Error(
          missing
            ? 'pg_dump was not found: install the PostgreSQL client tools (apt-get install postgresql-client)'
            : `pg_dump failed: ${stderr.trim()}`,
        ),
      );
    });
  });
}
