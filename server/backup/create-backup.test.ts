import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { verifyTrail } from '../audit/verify-trail.ts';
import { loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { auditLog, users } from '../db/schema.ts';
import { insertUser } from '../services/users.ts';
import { createServices } from '../services.ts';
import { build, type TestApp } from '../test/build.ts';
import { BackupError, type BackupManifest, backUpDataDir, createBackup } from './create-backup.ts';
import { noteRestore, restoreBackup } from './restore-backup.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-backup-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const postgresUrl = process.env.TEST_DATABASE_URL;
const IMAGE = Buffer.from('image bytes');
afterEach(() => vi.restoreAllMocks());

/** What Node throws when a write finds the disk full. */
const diskFull = (syscall: string) =>
  Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), {
    code: 'ENOSPC',
    errno: -28,
    syscall,
  });

/** The error `promise` rejects with (undefined if it resolves). */
const rejectionOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/**
 * A PGlite test starts PGlite on disk up to twice (the restore, then the restored database); the
 * file's one stored data directory and one backup (below) two more. About a second each on an idle
 * machine, but the restore test has taken 26 s in all on two cores that other work kept busy (load
 * average 14). Three minutes each, well inside what CI allows.
 */
const pgliteBudgetMs = 180_000;

/**
 * A data directory as a stopped server leaves it (PGlite on disk, one user, one stored file);
 * `close()` removes it.
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

/**
 * The file's one stored data directory, made on first use (a PostgreSQL run needs it for one test
 * only) and never opened again: each test gets a copy (`storedDataCopy`), milliseconds instead of
 * starting PGlite and a server again.
 */
let stored: Promise<TestApp> | undefined;
afterAll(async () => {
  await (await stored?.catch(() => undefined))?.close();
});

/** The copies of it the current test made, removed after the test as the originals were. */
const copies: string[] = [];
afterEach(() => {
  for (const copy of copies.splice(0)) fs.rmSync(copy, { recursive: true, force: true });
});

/** A copy of the stored data directory (stopped), for the calling test alone. */
async function storedDataCopy(): Promise<string> {
  stored ??= storedData();
  const { dataDir } = await stored;
  const copy = fs.mkdtempSync(path.join(tmp, 'data-'));
  copies.push(copy);
  fs.cpSync(dataDir, copy, { recursive: true });
  return copy;
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

/**
 * The file's one backup (of a copy of the stored data), made on first use. Only read: a test that
 * changes a backup works on `freshBackup()`.
 */
let made: Promise<string> | undefined;
const madeBackup = () => {
  made ??= storedDataCopy().then(async (dataDir) => (await backUp(dataDir)).folder);
  return made;
};

/** A fresh backup for the calling test alone: a copy of the file's one backup, in its own folder. */
async function freshBackup(): Promise<string> {
  const original = await madeBackup();
  const folder = path.join(fs.mkdtempSync(path.join(tmp, 'out-')), path.basename(original));
  fs.cpSync(original, folder, { recursive: true });
  return folder;
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

describe('backup of a wrong DATA_DIR', () => {
  it('refuses a DATA_DIR that does not exist or holds no database, creating nothing', async () => {
    const typo = path.join(tmp, 'typo');
    const out = path.join(tmp, 'typo-out');
    await expect(backUpDataDir({ dataDir: typo, databaseUrl: null }, out)).rejects.toThrow(
      `DATA_DIR ${typo} does not exist`,
    );
    expect(fs.existsSync(typo)).toBe(false);
    const empty = fs.mkdtempSync(path.join(tmp, 'empty-'));
    await expect(backUpDataDir({ dataDir: empty, databaseUrl: null }, out)).rejects.toThrow(
      `DATA_DIR ${empty} holds no database`,
    );
    expect(fs.readdirSync(empty)).toEqual([]);
    expect(fs.existsSync(out)).toBe(false);
  });
});

describe('the trail of a backup', () => {
  it(
    'says in the live trail that a backup was made, of what',
    async () => {
      const dataDir = await storedDataCopy();
      const { folder, manifest } = await backUpDataDir(
        { dataDir, databaseUrl: null },
        fs.mkdtempSync(path.join(tmp, 'out-')),
      );
      const database = await openDatabase({
        databaseUrl: null,
        pgliteDir: path.join(dataDir, 'pglite'),
      });
      try {
        const [entry] = await database.db
          .select()
          .from(auditLog)
          .where(eq(auditLog.action, 'backup.create'));
        expect(entry?.newValue).toEqual({
          folder: path.basename(folder),
          createdAt: manifest.createdAt,
          database: 'pglite',
          databaseSha256: manifest.databaseSha256,
          files: manifest.files.length,
        });
      } finally {
        await database.close();
      }
    },
    pgliteBudgetMs,
  );
});

describe('backup on a full disk', () => {
  /**
   * An empty database (no table names a file) whose dump writes its first bytes, then finds the
   * disk full, if `full`.
   */
  const database = (full: boolean): Database => ({
    db: { execute: async () => ({ rows: [] }) } as never,
    kind: 'pglite',
    dump: async (file) => {
      await fs.promises.writeFile(file, 'the first bytes of a dump');
      if (full) throw diskFull('write');
    },
    close: async () => {},
  });

  it('removes the incomplete backup and says so in one line naming the folder', async () => {
    const out = fs.mkdtempSync(path.join(tmp, 'full-'));
    const error = await rejectionOf(createBackup(database(true), path.join(tmp, 'none'), out));
    expect(error).toBeInstanceOf(BackupError);
    expect((error as Error).message).toBe(
      `Backup failed while writing the database dump: ENOSPC: no space left in ${out}. ` +
        'The incomplete backup was removed. Free space there, or back up into another folder ' +
        '(npm run backup -- <folder>).',
    );
    expect(fs.readdirSync(out)).toEqual([]);
  });

  it('removes the incomplete backup when the disk fills while copying the files', async () => {
    const files = fs.mkdtempSync(path.join(tmp, 'files-'));
    fs.mkdirSync(path.join(files, 'floorplans'));
    fs.writeFileSync(path.join(files, 'floorplans', 'a.png'), IMAGE);
    fs.writeFileSync(path.join(files, 'floorplans', 'b.png'), IMAGE);
    const copy = fs.promises.copyFile;
    let copied = 0;
    vi.spyOn(fs.promises, 'copyFile').mockImplementation(async (from, to, mode) => {
      if (++copied === 2) {
        await fs.promises.writeFile(to, IMAGE.subarray(0, 3));
        throw diskFull('copyfile');
      }
      return copy(from, to, mode);
    });
    const out = fs.mkdtempSync(path.join(tmp, 'full-'));
    const error = await rejectionOf(createBackup(database(false), files, out));
    expect((error as Error).message).toMatch(
      `Backup failed while copying the stored files: ENOSPC: no space left in ${out}.`,
    );
    expect(fs.readdirSync(out)).toEqual([]);
  });

  it('leaves only the finished backup-… folder when it succeeds', async () => {
    const out = fs.mkdtempSync(path.join(tmp, 'fine-'));
    const now = new Date('2026-11-27T08:00:00.000Z');
    const { folder } = await createBackup(database(false), path.join(tmp, 'none'), out, { now });
    expect(folder).toBe(path.join(out, 'backup-2026-11-27T08-00-00-000Z'));
    expect(fs.readdirSync(out)).toEqual(['backup-2026-11-27T08-00-00-000Z']);
    expect(fs.readdirSync(folder).sort()).toEqual(['database.tar.gz', 'manifest.json']);
  });
});

describe.skipIf(postgresUrl)('backup and restore with PGlite', () => {
  it(
    'dumps the database and the files with checksums',
    async () => {
      // This test makes its own backup (of its own copy of the data): the creation is what it checks.
      const { manifest, folder } = await backUp(await storedDataCopy());
      expect(manifest.database).toBe('pglite');
      expect(fs.statSync(path.join(folder, manifest.databaseFile)).size).toBeGreaterThan(0);
      expect(manifest.files).toEqual([
        {
          path: 'floorplans/abc.png',
          size: 11,
          sha256: createHash('sha256').update(IMAGE).digest('hex'),
        },
      ]);
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
        // The restore is the first entry after the backup's, and the trail verifies across it.
        const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8'));
        await noteRestore(services.ctx.db, manifest);
        const [entry] = await services.ctx.db
          .select()
          .from(auditLog)
          .orderBy(desc(auditLog.id))
          .limit(1);
        expect(entry).toMatchObject({
          action: 'backup.restore',
          entity: 'system',
          newValue: { backupCreatedAt: manifest.createdAt, files: 1 },
        });
        expect((await verifyTrail(services.ctx.db)).ok).toBe(true);
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
        'Backup is damaged: files/floorplans/abc.png does not match its checksum',
      );
      expect(fs.readdirSync(dataDir)).toEqual([]);
    },
    pgliteBudgetMs,
  );

  it(
    'writes the dump checksum, folders 0700 and files 0600',
    async () => {
      // The backup as createBackup wrote it (not a copy, whose modes would be the copy's).
      const folder = await madeBackup();
      const manifest = JSON.parse(
        fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8'),
      ) as BackupManifest;
      const dump = fs.readFileSync(path.join(folder, 'database.tar.gz'));
      expect(manifest.databaseSize).toBe(dump.length);
      expect(manifest.databaseSha256).toBe(createHash('sha256').update(dump).digest('hex'));
      const modeOf = (p: string) => fs.statSync(p).mode & 0o777;
      expect(modeOf(folder)).toBe(0o700);
      expect(modeOf(path.dirname(folder))).toBe(0o700);
      const entries = fs.readdirSync(folder, { recursive: true, withFileTypes: true });
      expect(entries.length).toBeGreaterThanOrEqual(5); // dump, manifest, files/, floorplans/, abc.png
      for (const entry of entries) {
        const full = path.join(entry.parentPath, entry.name);
        expect([entry.name, modeOf(full)]).toEqual([
          entry.name,
          entry.isDirectory() ? 0o700 : 0o600,
        ]);
      }
    },
    pgliteBudgetMs,
  );

  it(
    'refuses a truncated, altered or unlisted dump and a bad manifest, writing nothing',
    async () => {
      const folder = await freshBackup();
      const variant = (change: (copy: string) => void) => {
        const copy = fs.mkdtempSync(path.join(tmp, 'variant-'));
        fs.cpSync(folder, copy, { recursive: true });
        change(copy);
        return copy;
      };
      const refuses = async (copy: string, message: RegExp) => {
        const { dataDir, target } = restoreTarget();
        await expect(restoreBackup(copy, target, { warn: () => {} })).rejects.toThrow(message);
        expect(fs.readdirSync(dataDir)).toEqual([]);
      };
      const dumpOf = (copy: string) => path.join(copy, 'database.tar.gz');
      const truncated = variant((copy) => {
        const dump = fs.readFileSync(dumpOf(copy));
        fs.writeFileSync(dumpOf(copy), dump.subarray(0, dump.length - 100));
      });
      await refuses(truncated, /Backup is damaged: database\.tar\.gz does not match its checksum/);
      const zeroed = variant((copy) => {
        const dump = fs.readFileSync(dumpOf(copy));
        dump.fill(0, dump.length - 8);
        fs.writeFileSync(dumpOf(copy), dump);
      });
      await refuses(zeroed, /database\.tar\.gz does not match its checksum/);
      const missing = variant((copy) => fs.rmSync(dumpOf(copy)));
      await refuses(missing, /database\.tar\.gz is missing/);
      const badJson = variant((copy) =>
        fs.writeFileSync(path.join(copy, 'manifest.json'), '{"createdAt": '),
      );
      await refuses(badJson, /manifest\.json is not valid JSON/);
      const escaping = variant((copy) => {
        const file = path.join(copy, 'manifest.json');
        const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest;
        manifest.files.push({ path: '../manifest.json', size: 1, sha256: '0'.repeat(64) });
        fs.writeFileSync(file, JSON.stringify(manifest));
      });
      await refuses(escaping, /manifest\.json has a file path outside files/);
      // A backup made before the dump's checksum was recorded, with a damaged dump: gzip's own
      // check refuses it, and the target is left as it was (no empty pglite/ behind).
      const oldAndDamaged = variant((copy) => {
        const file = path.join(copy, 'manifest.json');
        const {
          databaseSha256: _s,
          databaseSize: _z,
          ...old
        } = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest;
        fs.writeFileSync(file, JSON.stringify(old));
        const dump = fs.readFileSync(dumpOf(copy));
        fs.writeFileSync(dumpOf(copy), dump.subarray(0, dump.length - 100));
      });
      await refuses(oldAndDamaged, /database\.tar\.gz is not a complete gzip archive/);
    },
    pgliteBudgetMs,
  );

  it(
    'restores only the files the manifest lists, and an old backup with a warning',
    async () => {
      const folder = await freshBackup();
      fs.writeFileSync(path.join(folder, 'files', 'floorplans', 'extra.png'), 'slipped in');
      fs.writeFileSync(path.join(folder, 'files', 'extra.txt'), 'slipped in');
      const file = path.join(folder, 'manifest.json');
      const {
        databaseSha256: _s,
        databaseSize: _z,
        ...old
      } = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest;
      fs.writeFileSync(file, JSON.stringify(old));
      const { dataDir, target } = restoreTarget();
      const warnings: string[] = [];
      await restoreBackup(folder, target, { warn: (message) => warnings.push(message) });
      expect(warnings).toEqual([expect.stringMatching(/no checksum for database\.tar\.gz/)]);
      expect(fs.readdirSync(path.join(dataDir, 'files'), { recursive: true }).sort()).toEqual([
        'floorplans',
        path.join('floorplans', 'abc.png'),
      ]);
      expect(fs.readdirSync(dataDir).sort()).toEqual(['files', 'pglite']);
      const database = await openDatabase({ databaseUrl: null, pgliteDir: target.pgliteDir });
      try {
        const rows = await database.db
          .select()
          .from(users)
          .where(eq(users.email, 'kept@example.com'));
        expect(rows).toHaveLength(1);
      } finally {
        await database.close();
      }
    },
    pgliteBudgetMs,
  );

  it(
    'says a full target disk is the problem, not the backup, and leaves the target as it was',
    async () => {
      const folder = await freshBackup();
      // PGlite's file system turns Node's ENOSPC into its own ErrnoError (errno 51, no Error):
      // the writes into the staged database find the disk full after 64 KiB.
      const open = fs.openSync;
      const write = fs.writeSync;
      const close = fs.closeSync;
      const staged = new Set<number>();
      let room = 64 * 1024;
      vi.spyOn(fs, 'openSync').mockImplementation(((file, ...rest) => {
        const fd = open(file, ...rest);
        if (String(file).includes(`${path.sep}.pglite.restoring-`)) staged.add(fd);
        return fd;
      }) as typeof fs.openSync);
      vi.spyOn(fs, 'closeSync').mockImplementation((fd) => {
        staged.delete(fd);
        close(fd);
      });
      vi.spyOn(fs, 'writeSync').mockImplementation(((fd, data, ...rest) => {
        if (staged.has(fd)) {
          room -= typeof rest[1] === 'number' ? rest[1] : String(data).length;
          if (room < 0) throw diskFull('write');
        }
        return write(fd, data as never, ...(rest as []));
      }) as typeof fs.writeSync);
      const { dataDir, target } = restoreTarget();
      const error = await rejectionOf(restoreBackup(folder, target));
      expect(error).toBeInstanceOf(BackupError);
      expect((error as Error).message).toBe(
        `No space left on device while loading the database into ${target.pgliteDir} (ENOSPC): ` +
          'free space on that disk, or restore into a DATA_DIR on a larger one, then run the ' +
          'restore again. The backup is not damaged; nothing was restored.',
      );
      expect(room).toBeLessThan(0);
      expect(fs.readdirSync(dataDir)).toEqual([]);
      vi.restoreAllMocks();
      // The disk fills while the stored files are copied: the same, for the files folder.
      vi.spyOn(fs.promises, 'copyFile').mockRejectedValue(diskFull('copyfile'));
      await expect(restoreBackup(folder, target)).rejects.toThrow(
        `No space left on device while copying the stored files into ${target.filesDir} (ENOSPC)`,
      );
      expect(fs.readdirSync(dataDir)).toEqual([]);
    },
    pgliteBudgetMs,
  );

  it(
    'refuses to open PGlite while another instance holds the database',
    async () => {
      // A copy of the stored data: opening a database that exists is quicker than loading the dump.
      const pgliteDir = path.join(await storedDataCopy(), 'pglite');
      const first = await openDatabase({ databaseUrl: null, pgliteDir });
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

/** A directory for a small tmpfs, if this machine lets an unprivileged mount namespace mount one. */
const smallDisk = path.join(tmp, 'small-disk');
fs.mkdirSync(smallDisk);
const canMountTmpfs =
  process.platform === 'linux' &&
  spawnSync('unshare', ['-r', '-m', 'mount', '-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', smallDisk], {
    stdio: 'ignore',
  }).status === 0;

/**
 * Runs `npm run <script>`'s file with `args` and `env` while `smallDisk` is a fresh tmpfs of
 * `size` (seen by that process alone); answers its stderr, exit code and what it left there.
 */
function onSmallDisk(size: string, script: string, args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _url, ...inherited } = process.env;
  const run = spawnSync(
    'unshare',
    [
      '-r',
      '-m',
      'sh',
      '-c',
      'mount -t tmpfs -o size="$SIZE" tmpfs "$DISK" || exit 99; "$@"; echo "exit $?"; ls -A "$DISK"',
      'sh',
      process.execPath,
      '--import',
      'tsx',
      script,
      ...args,
    ],
    { encoding: 'utf8', env: { ...inherited, ...env, SIZE: size, DISK: smallDisk } },
  );
  const [exit, ...left] = run.stdout.trim().split('\n');
  return { stderr: run.stderr.trim(), exit, left };
}

describe.runIf(canMountTmpfs && !postgresUrl)('backup and restore on a real full disk', () => {
  it(
    'npm run backup: one line naming the folder, exit code 1, nothing left there',
    async () => {
      const dataDir = await storedDataCopy();
      const run = onSmallDisk('64k', 'server/backup.ts', [smallDisk], { DATA_DIR: dataDir });
      expect(run).toEqual({
        stderr:
          'Backup failed while writing the database dump: ENOSPC: no space left in ' +
          `${smallDisk}. The incomplete backup was removed. Free space there, or back up ` +
          'into another folder (npm run backup -- <folder>).',
        exit: 'exit 1',
        left: [],
      });
      expect(fs.existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
    },
    pgliteBudgetMs,
  );

  it(
    'npm run restore: the full disk named, not the backup, exit code 1, nothing left there',
    async () => {
      const folder = await freshBackup();
      const dataDir = path.join(smallDisk, 'data');
      const run = onSmallDisk('2m', 'server/restore.ts', [folder], { DATA_DIR: dataDir });
      expect(run).toEqual({
        stderr:
          `No space left on device while loading the database into ${dataDir}/pglite (ENOSPC): ` +
          'free space on that disk, or restore into a DATA_DIR on a larger one, then run the ' +
          'restore again. The backup is not damaged; nothing was restored.',
        exit: 'exit 1',
        left: [],
      });
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
