// Test helper: one app per test file on a fresh database (in-memory PGlite, or a new database on
// the PostgreSQL server of TEST_DATABASE_URL), a temporary data directory, and cheap scrypt.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { buildOnce, filesUnder, hashFiles, repoRoot } from '../../tests/support/build-once.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { createServices, type Services } from '../services.ts';

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  services: Services;
  dataDir: string;
  /** The environment the app was configured with (for a server process on the same data). */
  env: Record<string, string>;
  /** Closes the app and the database, keeping the data. */
  stop(): Promise<void>;
  /** Stops, then drops the database and removes the data directory. */
  close(): Promise<void>;
}

/** A new, empty database on the PostgreSQL server of `baseUrl`, and how to drop it. */
export async function freshPostgresDatabase(
  baseUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lc_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      // pg's Pool.end() resolves before its connections have closed: a forced drop at once would
      // terminate them mid-close, and their clients raise that as an unhandled error. Wait for
      // them first; FORCE only for what still lingers after that.
      for (let attempt = 0; attempt < 100; attempt++) {
        const { rows } = await client.query<{ open: number }>(
          'SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        if (rows[0]?.open === 0) break;
        await sleep(20);
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

const migratedDump = 'pglite.tar.gz';

/**
 * An empty database with every migration applied, as a PGlite dump made once per state of the
 * migrations: each test file starts from it in about a second instead of creating a database
 * (initdb) and migrating it, which takes several.
 */
export function migratedPglite(): Promise<Uint8Array<ArrayBuffer>> {
  // Hashed and read once per test file, however many apps the file builds (the worker copies it).
  migrated ??= readMigratedPglite();
  return migrated;
}
let migrated: Promise<Uint8Array<ArrayBuffer>> | undefined;

async function readMigratedPglite(): Promise<Uint8Array<ArrayBuffer>> {
  const folder = await buildOnce({
    prefix: 'lc-test-pglite-',
    hash: hashFiles([...filesUnder('server/drizzle'), path.join(repoRoot, 'package-lock.json')]),
    doneMarker: migratedDump,
    timeoutMs: 120_000,
    make: async (scratch) => {
      const database = await openDatabase({ databaseUrl: null, pgliteDir: null });
      try {
        await database.dump(path.join(scratch, migratedDump));
      } finally {
        await database.close();
      }
    },
  });
  // Unzipped once here: PGlite takes a plain tar too, and each app then skips inflating 40 MB
  // (about a quarter of a second of the engine's start).
  return new Uint8Array(gunzipSync(fs.readFileSync(path.join(folder, migratedDump))));
}

export interface BuildOptions {
  /** A PostgreSQL server to create a fresh database on; default TEST_DATABASE_URL, else PGlite. */
  postgresUrl?: string | null;
  /**
   * Keep PGlite in DATA_DIR (so another process can open it after `stop`), not in memory; it
   * starts from the migrated dump all the same.
   */
  onDisk?: boolean;
}

export async function build(
  env: Record<string, string> = {},
  options: BuildOptions = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-server-test-'));
  const baseUrl =
    options.postgresUrl === undefined ? process.env.TEST_DATABASE_URL : options.postgresUrl;
  const postgres = baseUrl ? await freshPostgresDatabase(baseUrl) : null;
  const fullEnv: Record<string, string> = {
    DATA_DIR: dataDir,
    DIST_DIR: path.join(dataDir, 'no-dist'),
    SCRYPT_LOG2_N: '10',
    // Test files set up many users and sign in many times from one address; the tests of these
    // limits set them back.
    LOGIN_RATE_LIMIT: '1000',
    PASSWORD_RATE_LIMIT: '1000',
    PASSWORD_ADDRESS_RATE_LIMIT: '1000',
    DEMO: 'off',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...env,
  };
  const services = await createServices(loadConfig(fullEnv), {
    inMemoryDatabase: !postgres && !options.onDisk,
    pgliteStart: postgres ? undefined : await migratedPglite(),
  });
  const app = await buildApp(services.ctx);
  await app.ready();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await app.close();
    await services.close();
  };
  return {
    app,
    services,
    dataDir,
    env: fullEnv,
    stop,
    async close() {
      await stop();
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
