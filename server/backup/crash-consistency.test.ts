// Backup and restore against changes and kills. A backup holds every file its database needs
// (named-files.ts): a file replaced between the dump and the copy, as a floor-plan replacement
// during a live PostgreSQL backup does, makes the backup try again or fail; a restore refuses a
// backup whose database names files it lacks, and removes what an interrupted restore left. On
// PGlite, or on PostgreSQL with TEST_DATABASE_URL (the dump's names then come from its pg_dump file).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { type Database, type Db, openDatabase } from '../db/client.ts';
import { auditLog, floorplans } from '../db/schema.ts';
import { LocalStorage } from '../storage/local-storage.ts';
import { build, freshPostgresDatabase, type TestApp } from '../test/build.ts';
import { createBackup } from './create-backup.ts';
import { noteRestore, type RestoreTarget, restoreBackup } from './restore-backup.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-backup-consistency-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
/** What each test made (data, databases), removed after it, last made first. */
const made: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const remove of made.splice(0).reverse()) await remove();
});
const postgresUrl = process.env.TEST_DATABASE_URL;
const IMAGE = Buffer.from('floor plan image bytes');
/** PGlite on disk starts a few times a test; two cores other work keeps busy are slow. */
const budgetMs = 180_000;

const planKey = () => `floorplans/${randomBytes(12).toString('hex')}.png`;

/**
 * On PGlite, the file's one data directory as a stopped server leaves it (started from the migrated
 * dump, stopped), made on first use and never opened again: each test opens a copy of its own,
 * which costs milliseconds where starting a server costs seconds.
 */
let stoppedPglite: Promise<TestApp> | undefined;
afterAll(async () => {
  await (await stoppedPglite?.catch(() => undefined))?.close();
});

/**
 * A data directory as a stopped server leaves it, for the calling test alone (PGlite: a copy of
 * the file's one; PostgreSQL: a server on a new database, stopped), and how to remove it.
 */
async function stoppedData(): Promise<{
  dataDir: string;
  databaseUrl: string | null;
  remove(): Promise<void>;
}> {
  if (postgresUrl) {
    const t = await build({}, { onDisk: true });
    await t.stop();
    return { dataDir: t.dataDir, databaseUrl: t.env.DATABASE_URL ?? null, remove: t.close };
  }
  stoppedPglite ??= build({}, { onDisk: true }).then(async (t) => {
    await t.stop();
    return t;
  });
  const dataDir = fs.mkdtempSync(path.join(tmp, 'data-'));
  fs.cpSync((await stoppedPglite).dataDir, dataDir, { recursive: true });
  return {
    dataDir,
    databaseUrl: null,
    remove: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

/**
 * Stored data with one line's floor plan, and the database opened as `npm run backup` opens it
 * (PGlite: the server stopped; PostgreSQL: a connection of its own). `replacePlan` does what a
 * replacement does: the new image stored, the row switched, the old image deleted after the commit.
 */
async function storedPlan() {
  const { dataDir, databaseUrl, remove } = await stoppedData();
  const database: Database = await openDatabase({
    databaseUrl,
    pgliteDir: databaseUrl ? null : path.join(dataDir, 'pglite'),
  });
  const filesDir = path.join(dataDir, 'files');
  const storage = new LocalStorage(filesDir);
  let current = planKey();
  await storage.put(current, IMAGE);
  await database.db.insert(floorplans).values({
    id: 'f'.repeat(24),
    name: 'Line 1',
    imageKey: current,
    lineId: 'l'.repeat(24),
    contentType: 'image/png',
  });
  made.push(async () => {
    await database.close();
    await remove();
  });
  return {
    database,
    filesDir,
    storage,
    current: () => current,
    async replacePlan() {
      const next = planKey();
      await storage.put(next, IMAGE);
      await database.db.update(floorplans).set({ imageKey: next });
      await storage.delete(current);
      current = next;
    },
  };
}

/**
 * The file's one backup of stored plan data, made on first use, and its plan's image key: for the
 * tests that restore a backup and do not check how it was made.
 */
let planBackup: Promise<{ folder: string; key: string }> | undefined;

/** A copy of that backup for the calling test alone (it may change it), and the plan's key. */
async function backupCopy(): Promise<{ folder: string; key: string }> {
  planBackup ??= (async () => {
    const data = await storedPlan();
    const out = fs.mkdtempSync(path.join(tmp, 'out-'));
    const { folder } = await createBackup(data.database, data.filesDir, out);
    return { folder, key: data.current() };
  })();
  const { folder, key } = await planBackup;
  const copy = path.join(fs.mkdtempSync(path.join(tmp, 'out-')), path.basename(folder));
  fs.cpSync(folder, copy, { recursive: true });
  return { folder: copy, key };
}

/** An empty target to restore into (PostgreSQL: a new database), and how to open it after. */
async function restoreTarget() {
  const dataDir = fs.mkdtempSync(path.join(tmp, 'restored-'));
  const target: RestoreTarget = {
    databaseUrl: null,
    pgliteDir: path.join(dataDir, 'pglite'),
    filesDir: path.join(dataDir, 'files'),
  };
  if (postgresUrl) {
    const database = await freshPostgresDatabase(postgresUrl);
    target.databaseUrl = database.url;
    made.push(database.drop);
  }
  return {
    dataDir,
    target,
    /** Runs `use` on the restored database, opened as the server opens it. */
    async withDatabase<T>(use: (db: Db) => Promise<T>): Promise<T> {
      const restored = await openDatabase({
        databaseUrl: target.databaseUrl,
        pgliteDir: target.databaseUrl ? null : target.pgliteDir,
      });
      try {
        return await use(restored.db);
      } finally {
        await restored.close();
      }
    },
    /** The floor-plan image keys of the restored database. */
    planKeys(): Promise<string[]> {
      return this.withDatabase(async (db) =>
        (await db.select({ key: floorplans.imageKey }).from(floorplans)).map((row) => row.key),
      );
    },
  };
}

describe('a backup while a file the database names changes', () => {
  it(
    'tries again, and keeps a backup whose database names only files it holds',
    async () => {
      const data = await storedPlan();
      const restored = await restoreTarget();
      const first = data.current();
      let dumps = 0;
      const out = fs.mkdtempSync(path.join(tmp, 'out-'));
      const { folder, manifest } = await createBackup(data.database, data.filesDir, out, {
        // The plan is replaced between the first dump and its copy, never again.
        afterDump: async () => {
          if (++dumps === 1) await data.replacePlan();
        },
      });
      expect(dumps).toBe(2);
      expect(manifest.files.map((file) => file.path)).toEqual([data.current()]);
      expect(fs.readdirSync(out)).toEqual([path.basename(folder)]);
      await restoreBackup(folder, restored.target);
      const keys = await restored.planKeys();
      expect(keys).toEqual([data.current()]);
      expect(keys).not.toContain(first);
      expect(fs.existsSync(path.join(restored.target.filesDir, data.current()))).toBe(true);
    },
    budgetMs,
  );

  it(
    'fails naming the file when it changes at every attempt, keeping nothing',
    async () => {
      const data = await storedPlan();
      const named: string[] = [];
      const out = fs.mkdtempSync(path.join(tmp, 'out-'));
      const error = await createBackup(data.database, data.filesDir, out, {
        afterDump: async () => {
          named.push(data.current());
          await data.replacePlan();
        },
      }).catch((thrown: unknown) => thrown);
      expect((error as Error).message).toBe(
        `The database names files that changed while the backup ran (${named.at(-1)}); ` +
          'nothing was kept: run the backup again',
      );
      expect(named).toHaveLength(3);
      expect(fs.readdirSync(out)).toEqual([]);
    },
    budgetMs,
  );

  it(
    'copies a needed file the copy missed but storage holds, and counts files no record names',
    async () => {
      const data = await storedPlan();
      await data.storage.put('floorplans/orphan.png', IMAGE);
      fs.writeFileSync(path.join(data.filesDir, '.tmp', 'left-by-a-kill'), IMAGE);
      // The plan is away while the files are walked (its copy finds it gone), back after.
      const copy = fs.promises.copyFile;
      let away = true;
      vi.spyOn(fs.promises, 'copyFile').mockImplementation(async (from, to, mode) => {
        if (away && String(from).endsWith(data.current())) {
          away = false;
          throw Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT' });
        }
        return copy(from, to, mode);
      });
      const out = fs.mkdtempSync(path.join(tmp, 'out-'));
      const { manifest } = await createBackup(data.database, data.filesDir, out);
      expect(away).toBe(false);
      expect(manifest.files.map((file) => file.path).sort()).toEqual(
        [data.current(), 'floorplans/orphan.png'].sort(),
      );
      expect(manifest.unnamedFiles).toEqual(['floorplans/orphan.png']);
      expect(manifest.missingFiles).toBeUndefined();
    },
    budgetMs,
  );
});

describe('a file storage lost before the backup', () => {
  it(
    'is listed in the manifest; a restore warns, and the restored trail lists it',
    async () => {
      const data = await storedPlan();
      const restored = await restoreTarget();
      const lost = data.current();
      await data.storage.delete(lost);
      const out = fs.mkdtempSync(path.join(tmp, 'out-'));
      const { folder, manifest } = await createBackup(data.database, data.filesDir, out);
      expect(manifest.missingFiles).toEqual([lost]);
      const warnings: string[] = [];
      const result = await restoreBackup(folder, restored.target, {
        warn: (message) => warnings.push(message),
      });
      expect(result.missingFiles).toEqual([lost]);
      expect(warnings).toEqual([
        `Warning: the restored records name 1 files the backup does not hold (${lost}): ` +
          'storage had lost them before the backup was made; the restored trail lists them.',
      ]);
      const entry = await restored.withDatabase(async (db) => {
        await noteRestore(db, result.manifest, result.missingFiles);
        return (await db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0];
      });
      expect(entry).toMatchObject({ action: 'backup.restore', newValue: { missingFiles: [lost] } });
    },
    budgetMs,
  );
});

describe('a restore of a backup whose database names files it lacks', () => {
  it(
    'refuses, naming them and writing nothing, unless they are accepted',
    async () => {
      const { folder, key } = await backupCopy();
      const refused = await restoreTarget();
      const accepted = await restoreTarget();
      // As a live backup made before the check could be: the file gone from files/ and the list.
      fs.rmSync(path.join(folder, 'files', key));
      const manifestFile = path.join(folder, 'manifest.json');
      const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
      manifest.files = [];
      fs.writeFileSync(manifestFile, JSON.stringify(manifest));
      await expect(restoreBackup(folder, refused.target)).rejects.toThrow(
        `The backup's database names files the backup does not hold (${key}): they changed ` +
          'while it was made. Nothing was restored. Restore another backup, or this one with ' +
          '--accept-missing-files',
      );
      expect(fs.readdirSync(refused.dataDir)).toEqual([]);
      const warnings: string[] = [];
      const result = await restoreBackup(folder, accepted.target, {
        acceptMissingFiles: true,
        warn: (message) => warnings.push(message),
      });
      expect(result.missingFiles).toEqual([key]);
      expect(warnings).toEqual([expect.stringContaining('as --accept-missing-files asked')]);
      expect(await accepted.planKeys()).toEqual([key]);
    },
    budgetMs,
  );
});

describe('a restore after one that was killed', () => {
  it(
    'removes the staging folders the killed one left, and says so',
    async () => {
      const { folder, key } = await backupCopy();
      const restored = await restoreTarget();
      const leftFiles = path.join(restored.dataDir, '.files.restoring-0123456789ab');
      const leftDatabase = path.join(restored.dataDir, '.pglite.restoring-ba9876543210');
      fs.mkdirSync(path.join(leftFiles, 'floorplans'), { recursive: true });
      fs.writeFileSync(path.join(leftFiles, 'floorplans', 'half.png'), IMAGE);
      fs.mkdirSync(leftDatabase);
      fs.writeFileSync(path.join(leftDatabase, 'PG_VERSION'), '17\n');
      const warnings: string[] = [];
      await restoreBackup(folder, restored.target, { warn: (message) => warnings.push(message) });
      expect(warnings.sort()).toEqual(
        [leftFiles, leftDatabase]
          .map((left) => `Removed ${left}, left by an earlier restore that was interrupted`)
          .sort(),
      );
      expect(fs.readdirSync(restored.dataDir).sort()).toEqual(
        postgresUrl ? ['files'] : ['files', 'pglite'],
      );
      expect(await restored.planKeys()).toEqual([key]);
    },
    budgetMs,
  );
});
