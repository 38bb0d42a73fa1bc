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
import { build } from '../test/build.ts';
import { createBackup } from './create-backup.ts';
import { restoreBackup } from './restore-backup.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-backup-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const postgresUrl = process.env.TEST_DATABASE_URL;
const IMAGE = Buffer.from('image bytes');

describe.skipIf(postgresUrl)('backup and restore with PGlite', () => {
  const dataDir = path.join(tmp, 'data');
  const out = path.join(tmp, 'out');
  let folder = '';

  it('dumps the database and the files with checksums', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, SCRYPT_LOG2_N: '10', DEMO: 'off' });
    const services = await createServices(config);
    await insertUser(services.ctx.db, services.ctx.passwords, {
      name: 'Kept',
      email: 'kept@example.com',
      password: 'kept-password',
      roles: ['admin'],
    });
    await services.ctx.storage.put('floorplans/abc.png', IMAGE);
    await services.close();

    const database = await openDatabase({
      databaseUrl: null,
      pgliteDir: path.join(dataDir, 'pglite'),
    });
    const backup = await createBackup(database, path.join(dataDir, 'files'), out);
    await database.close();
    folder = backup.folder;
    expect(backup.manifest.database).toBe('pglite');
    expect(backup.manifest.files).toEqual([
      {
        path: 'floorplans/abc.png',
        size: 11,
        sha256: createHash('sha256').update(IMAGE).digest('hex'),
      },
    ]);
  });

  it('restores into an empty data directory, and refuses a non-empty one', async () => {
    const restored = path.join(tmp, 'restored');
    const target = {
      databaseUrl: null,
      pgliteDir: path.join(restored, 'pglite'),
      filesDir: path.join(restored, 'files'),
    };
    await restoreBackup(folder, target);
    const services = await createServices(
      loadConfig({ DATA_DIR: restored, SCRYPT_LOG2_N: '10', DEMO: 'off' }),
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
      for await (const chunk of services.ctx.storage.read('floorplans/abc.png')) chunks.push(chunk);
      expect(Buffer.concat(chunks).equals(IMAGE)).toBe(true);
    } finally {
      await services.close();
    }
    await expect(restoreBackup(folder, target)).rejects.toThrow(/already holds/);
  });

  it('refuses a damaged backup before touching anything', async () => {
    fs.writeFileSync(path.join(folder, 'files', 'floorplans', 'abc.png'), 'tampered!!!');
    const target = path.join(tmp, 'never');
    await expect(
      restoreBackup(folder, {
        databaseUrl: null,
        pgliteDir: path.join(target, 'pglite'),
        filesDir: path.join(target, 'files'),
      }),
    ).rejects.toThrow('Backup is damaged: floorplans/abc.png does not match its checksum');
    expect(fs.existsSync(target)).toBe(false);
  });

  it('refuses to open PGlite while another instance holds the database', async () => {
    const dir = path.join(tmp, 'locked');
    const first = await openDatabase({ databaseUrl: null, pgliteDir: path.join(dir, 'pglite') });
    try {
      await expect(
        openDatabase({ databaseUrl: null, pgliteDir: path.join(dir, 'pglite') }),
      ).rejects.toThrow(/in use by process/);
    } finally {
      await first.close();
    }
  });
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
