// Opens the database (embedded PGlite by default, PostgreSQL with a URL) and applies the checked-in
// migrations. Both drivers give the same Drizzle API, typed here as one `Db`.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
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

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = drizzlePg({ client: pool, schema });
    try {
      await migratePg(db, { migrationsFolder });
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
    // one session, and a transaction has it to itself (pglite-worker.ts).
    pool = new pg.Pool({ max: 4, idleTimeoutMillis: 0, stream: () => connect() });
    const db = drizzlePg({ client: pool, schema });
    await migratePg(db, { migrationsFolder });
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
