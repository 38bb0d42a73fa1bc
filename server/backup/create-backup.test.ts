import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { insertUser } from '../services/users.ts';
import { createServices } from '../services.ts';
import { build, migratedPglite, type TestApp } from '../test/build.ts';
import { createBackup } from './create-backup.ts';
import { restoreBackup } from './restore-backup.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-backup-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const postgresUrl = process.env.TEST_DATABASE_URL;
const IMAGE = Buffer.from('image bytes');

/**
 * Each PGlite test starts PGlite on disk up to four times (from the migrated dump, no initdb): about
 * a second each on an idle machine, but the restore test has taken 26 s in all on two cores that
 * other work kept busy (load average 14). Three minutes each, well inside what CI allows.
 */
const pgliteBudgetMs = 180_000;

/**
 * A data directory as a stopped server leaves it (PGlite on disk, one user, one stored file),
 * made for the calling test alone; `close()` removes it.
 */
async function storedData(): Promise<TestApp> {
  const t = await build({}, { postgresUrl: null, onDisk: true });
  await insertUser(t.services.ctx.db, t.services.ctx.passwords, {
    name: 'Kept',
    email: 'kept@example.com',
    password: 'kept-password',
    roles: ['admin'],
  });
  await t.services.ctx.storage.put('floorplans/abc.png', IMAGE);
  await t.stop();
  return t;
}

/** Backs up a stopped data directory into a new folder of its own, as `npm run backup` does. */
async function backUp(dataDir: string) {
  const database = await openDatabase({
    databaseUrl: null,
    pgliteDir: path.join(dataDir, 'pglite'),
  });
  try {
    return await createBackup(
      database,
      path.join(dataDir, 'files'),
      fs.mkdtempSync(path.join(tmp, 'out-')),
    );
  } finally {
    await database.close();
  }
}

/** A fresh backup of a fresh stored data directory, which is removed again. */
async function freshBackup(): Promise<string> {
  const source = await storedData();
  try {
    return (await backUp(source.dataDir)).folder;
  } finally {
    await source.close();
  }
}

/** An empty folder of this test's own to restore into. */
const restoreTarget = () => {
  const dir = fs.mkdtempSync(path.join(tmp, 'restored-'));
  return {
    dataDir: dir,
    target: {
      databaseUrl: null,
      pgliteDir: path.join(dir, 'pglite'),
      filesDir: path.join(dir, 'files'),
    },
  };
};

describe.skipIf(postgresUrl)('backup and restore with PGlite', () => {
  it(
    'dumps the database and the files with checksums',
    async () => {
      const source = await storedData();
      try {
        const { manifest, folder } = await backUp(source.dataDir);
        expect(manifest.database).toBe('pglite');
        expect(fs.statSync(path.join(folder, manifest.databaseFile)).size).toBeGreaterThan(0);
        expect(manifest.files).toEqual([
          {
            path: 'floorplans/abc.png',
            size: 11,
            sha256: createHash('sha256').update(IMAGE).digest('hex'),
          },
        ]);
      } finally {
        await source.close();
      }
    },
    pgliteBudgetMs,
  );

  it(
    'restores into an empty data directory, and refuses a non-empty one',
    async () => {
      const folder = await freshBackup();
      const { dataDir, target } = restoreTarget();
      await restoreBackup(folder, target);
      const services = await createServices(
        loadConfig({ DATA_DIR: dataDir, SCRYPT_LOG2_N: '10', DEMO: 'off' }),
      );
      try {
        const [row] = await services.ctx.db
          .select()
          .from(users)
          .where(eq(users.email, 'kept@example.com'));
        expect(await services.ctx.passwords.verify('kept-password', row?.passwordHash ?? '')).toBe(
          true,
        );
        const chunks: Buffer[] = [];
        for await (const chunk of services.ctx.storage.read('floorplans/abc.png')) {
          chunks.push(chunk);
        }
        expect(Buffer.concat(chunks).equals(IMAGE)).toBe(true);
      } finally {
        await services.close();
      }
      await expect(restoreBackup(folder, target)).rejects.toThrow(/already holds/);
    },
    pgliteBudgetMs,
  );

  it(
    'refuses a damaged backup before touching anything',
    async () => {
      const folder = await freshBackup();
      fs.writeFileSync(path.join(folder, 'files', 'floorplans', 'abc.png'), 'tampered!!!');
      const { dataDir, target } = restoreTarget();
      await expect(restoreBackup(folder, target)).rejects.toThrow(
        'Backup is damaged: floorplans/abc.png does not match its checksum',
      );
      expect(fs.readdirSync(dataDir)).toEqual([]);
    },
    pgliteBudgetMs,
  );

  it(
    'refuses to open PGlite while another instance holds the database',
    async () => {
      const pgliteDir = path.join(fs.mkdtempSync(path.join(tmp, 'locked-')), 'pglite');
      const first = await openDatabase({
        databaseUrl: null,
        pgliteDir,
        pgliteStart: await migratedPglite(),
      });
      try {
        await expect(openDatabase({ databaseUrl: null, pgliteDir })).rejects.toThrow(
          /in use by process/,
        );
      } finally {
        await first.close();
      }
    },
    pgliteBudgetMs,
  );
});

describe.runIf(postgresUrl)('backup and restore with PostgreSQL', () => {
  it('dumps with pg_dump and restores into an empty database only', async () => {
    const source = await build();
    const target = await build();
    try {
      await source.services.ctx.db.insert(users).values({
        id: 'a'.repeat(24),
        name: 'Kept',
        email: 'pg@example.com',
        passwordHash: 'x',
        roles: ['admin'],
      });
      const database = await openDatabase({
        databaseUrl: source.services.ctx.config.databaseUrl,
        pgliteDir: null,
      });
      const { folder } = await createBackup(database, path.join(source.dataDir, 'files'), tmp);
      await database.close();
      const targetUrl = target.services.ctx.config.databaseUrl ?? '';
      const restoreTo = {
        databaseUrl: targetUrl,
        pgliteDir: '',
        filesDir: path.join(tmp, 'pg-files'),
      };
      // The target already has the schema (migrated by build): not empty, refused.
      await expect(restoreBackup(folder, restoreTo)).rejects.toThrow(/not empty/);
      const url = new URL(targetUrl);
      const fresh = `${url.pathname.slice(1)}_restore`;
      const admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${fresh}`);
      try {
        url.pathname = `/${fresh}`;
        await restoreBackup(folder, { ...restoreTo, databaseUrl: url.toString() });
        const client = new pg.Client({ connectionString: url.toString() });
        await client.connect();
        const { rows } = await client.query('select email from users');
        await client.end();
        expect(rows).toEqual([{ email: 'pg@example.com' }]);
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${fresh} WITH (FORCE)`);
        await admin.end();
      }
    } finally {
      await source.close();
      await target.close();
    }
  });
});
