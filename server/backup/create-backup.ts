// A backup is one folder: the database dump, a copy of the stored files and a manifest with a
// size and SHA-256 for the dump and for every file, so a restore can prove it got what was saved.
// Its files hold every file its database needs (named-files.ts), or it is not kept. It holds
// password hashes and every record: folders are created 0700 and files 0600.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { audit } from '../audit/audit.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { assertKey, assertPrefix } from '../storage/storage.ts';
import { describeThrown, errorCode } from './errors.ts';
import {
  lacking,
  listed,
  type NamedFiles,
  namedFiles,
  needs,
  queryOf,
  readDumpNamingRows,
  readNamingRows,
  unnamed,
} from './named-files.ts';

export interface BackupManifest {
  createdAt: string;
  database: 'pglite' | 'postgres';
  databaseFile: string;
  /** Size and SHA-256 of `databaseFile`; absent in backups made before they were recorded. */
  databaseSize?: number;
  databaseSha256?: string;
  files: { path: string; size: number; sha256: string }[];
  /**
   * Files the database needs that storage had lost before the backup (it did not change while the
   * backup ran): a restore warns about these instead of refusing. Absent when none.
   */
  missingFiles?: string[];
  /** Stored files no record names (left by a killed upload or analysis): kept, never deleted. */
  unnamedFiles?: string[];
}

/** A problem the operator has to fix (wrong DATA_DIR, damaged backup…): printed plainly. */
export class BackupError extends Error {}

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

export interface BackupOptions {
  /** The backup's time and name; now by default. */
  now?: Date;
  /** Runs after each attempt's dump, before the files are copied (tests: a change meanwhile). */
  afterDump?: () => Promise<void>;
}

export interface Backup {
  folder: string;
  manifest: BackupManifest;
}

/**
 * Attempts at a backup whose files hold every file its database needs. A live backup (PostgreSQL)
 * fails one when a file is deleted after its commit between the dump and the copy, as a floor-plan
 * replacement does; that takes milliseconds, so the next attempt, a moment later, holds.
 */
const ATTEMPTS = 3;
const RETRY_DELAY_MS = 500;

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const isGone = (error: unknown) => errorCode(error) === 'ENOENT';

/** Copies one stored file, 0600, unless it was deleted meanwhile (a live backup). */
async function copyFile(from: string, to: string): Promise<void> {
  try {
    await fs.promises.copyFile(from, to, fs.constants.COPYFILE_EXCL);
  } catch (error) {
    if (isGone(error)) return;
    throw error;
  }
  await fs.promises.chmod(to, FILE_MODE);
}

/**
 * Copies the stored files (temporary files skipped) into `to`, folders 0700 and files 0600. What
 * is deleted meanwhile is skipped: the check of the files the database names judges it.
 */
async function copyFiles(from: string, to: string): Promise<void> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(from, { withFileTypes: true });
  } catch (error) {
    if (isGone(error)) return;
    throw error;
  }
  await fs.promises.mkdir(to, { mode: DIR_MODE });
  await fs.promises.chmod(to, DIR_MODE);
  for (const entry of entries) {
    // Stored objects are written by rename, so each copied file is complete.
    if (entry.name === '.tmp') continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await copyFiles(source, target);
    else if (entry.isFile()) await copyFile(source, target);
  }
}

/** The files under `dir` as storage keys (`a/b.png`), or none when it does not exist. */
async function listFiles(dir: string): Promise<string[]> {
  if (!fs.existsSync(dir)) return [];
  return (await fs.promises.readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

/** A key or `folder/` that the database gave, if it can be a stored one (nothing outside files/). */
function isStorable(entry: string): boolean {
  try {
    if (entry.endsWith('/')) assertPrefix(entry.slice(0, -1));
    else assertKey(entry);
    return true;
  } catch {
    return false;
  }
}

/**
 * Compares the copy with what the dumped database needs. What it lacks that storage holds now is
 * copied now; what storage lacks too is lost if the database still needs it (read after storage
 * was looked at), or else it changed while the backup ran: then this attempt cannot be kept.
 */
async function checkNamedFiles(
  database: Database,
  named: NamedFiles,
  filesDir: string,
  filesCopy: string,
): Promise<{ present: string[]; changed: string[]; lost: string[] }> {
  let present = await listFiles(filesCopy);
  const absent = lacking(named, present).filter(isStorable);
  for (const entry of absent) {
    const source = path.join(filesDir, entry);
    const target = path.join(filesCopy, entry);
    if (!fs.existsSync(source)) continue;
    await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: DIR_MODE });
    if (entry.endsWith('/')) await copyFiles(source, target);
    else await copyFile(source, target);
  }
  if (absent.length > 0) present = await listFiles(filesCopy);
  const still = lacking(named, present);
  if (still.length === 0) return { present, changed: [], lost: [] };
  const needed = namedFiles(await readNamingRows(queryOf(database.db)));
  return {
    present,
    changed: still.filter((entry) => !needs(needed, entry)),
    lost: still.filter((entry) => needs(needed, entry)),
  };
}

/**
 * Backs up `database` and the storage folder `filesDir` into a new folder under `targetDir`. A
 * failure (a full disk) removes what was written and throws a BackupError naming the problem; so
 * does a database that still names files that changed while the backup ran after a few attempts.
 */
export async function createBackup(
  database: Database,
  filesDir: string,
  targetDir: string,
  options: BackupOptions = {},
): Promise<Backup> {
  const now = options.now ?? new Date();
  const name = `backup-${now.toISOString().replace(/[:.]/g, '-')}`;
  const folder = path.join(targetDir, name);
  // An existing folder of that name is an error, never written into or replaced.
  if (fs.existsSync(folder)) {
    throw new BackupError(`${folder} exists already: nothing was backed up; try again`);
  }
  let changed: string[] = [];
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (attempt > 1) await sleep(RETRY_DELAY_MS);
    const made = await attemptBackup(database, filesDir, targetDir, { ...options, folder, now });
    if ('manifest' in made) return made;
    changed = made.changed;
  }
  throw new BackupError(
    `The database names files that changed while the backup ran (${listed(changed)}); ` +
      'nothing was kept: run the backup again',
  );
}

async function attemptBackup(
  database: Database,
  filesDir: string,
  targetDir: string,
  { folder, now, afterDump }: BackupOptions & { folder: string; now: Date },
): Promise<Backup | { changed: string[] }> {
  // Written under another name and renamed last, so a backup-… folder is always complete, even
  // after a kill or a crash that no cleanup survives (a failure below also removes it).
  const random = randomBytes(4).toString('hex');
  const partial = path.join(targetDir, `incomplete-${path.basename(folder)}-${random}`);
  let doing = 'creating the backup folder';
  try {
    await fs.promises.mkdir(targetDir, { recursive: true, mode: DIR_MODE });
    await fs.promises.mkdir(partial, { mode: DIR_MODE });
    await fs.promises.chmod(partial, DIR_MODE);
    const databaseFile = database.kind === 'pglite' ? 'database.tar.gz' : 'database.pgdump';
    const dumpPath = path.join(partial, databaseFile);
    doing = 'writing the database dump';
    await database.dump(dumpPath);
    await fs.promises.chmod(dumpPath, FILE_MODE);
    doing = 'reading the files the database names';
    // PostgreSQL is dumped live: the names come from the dump itself. PGlite's lock, held by the
    // backup, keeps any server out: read now, they are the dump's.
    const named = namedFiles(
      database.kind === 'postgres'
        ? await readDumpNamingRows(dumpPath)
        : await readNamingRows(queryOf(database.db)),
    );
    await afterDump?.();
    doing = 'copying the stored files';
    const filesCopy = path.join(partial, 'files');
    if (fs.existsSync(filesDir)) await copyFiles(filesDir, filesCopy);
    doing = 'checking the files the database names';
    const { present, changed, lost } = await checkNamedFiles(database, named, filesDir, filesCopy);
    if (changed.length > 0) {
      await fs.promises.rm(partial, { recursive: true, force: true });
      return { changed };
    }
    doing = 'checking the copied files';
    const files: BackupManifest['files'] = [];
    for (const file of present) {
      const full = path.join(filesCopy, file);
      files.push({
        path: file,
        size: (await fs.promises.stat(full)).size,
        sha256: await sha256File(full),
      });
    }
    const unnamedFiles = unnamed(named, present);
    const manifest: BackupManifest = {
      createdAt: now.toISOString(),
      database: database.kind,
      databaseFile,
      databaseSize: (await fs.promises.stat(dumpPath)).size,
      databaseSha256: await sha256File(dumpPath),
      files,
      ...(lost.length > 0 && { missingFiles: lost }),
      ...(unnamedFiles.length > 0 && { unnamedFiles }),
    };
    doing = 'writing the manifest';
    const manifestPath = path.join(partial, 'manifest.json');
    await fs.promises.writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: FILE_MODE,
      flag: 'wx',
    });
    await fs.promises.chmod(manifestPath, FILE_MODE);
    doing = 'naming the finished backup';
    await fs.promises.rename(partial, folder);
    return { folder, manifest };
  } catch (error) {
    await fs.promises.rm(partial, { recursive: true, force: true }).catch(() => {});
    throw backupFailure(error, doing, targetDir);
  }
}

/** A failed backup in one line: what went wrong, where, and that nothing partial was left. */
function backupFailure(error: unknown, doing: string, targetDir: string): unknown {
  if (error instanceof BackupError) return error;
  const code = errorCode(error);
  if (!code && error instanceof Error) return error; // not a system error: a bug, keep its stack
  const full = code === 'ENOSPC' || code === 'EDQUOT';
  const problem = full
    ? `${code}: ${code === 'ENOSPC' ? 'no space left' : 'disk quota exceeded'} in ${targetDir}`
    : `${describeThrown(error)} (in ${targetDir})`;
  return new BackupError(
    `Backup failed while ${doing}: ${problem}. The incomplete backup was removed. ` +
      (full
        ? 'Free space there, or back up into another folder (npm run backup -- <folder>).'
        : 'Fix that, then run the backup again.'),
  );
}

/**
 * What `npm run backup` does: refuses a DATA_DIR that holds no database (a mistyped path must
 * fail, never back up, or create, an empty database), then backs it up into `targetDir`.
 */
export async function backUpDataDir(
  config: { dataDir: string; databaseUrl: string | null },
  targetDir: string,
  options: BackupOptions = {},
): Promise<Backup> {
  const { dataDir, databaseUrl } = config;
  if (!fs.existsSync(dataDir) || !fs.statSync(dataDir).isDirectory()) {
    throw new BackupError(
      `DATA_DIR ${dataDir} does not exist: check DATA_DIR (nothing was backed up)`,
    );
  }
  const pgliteDir = path.join(dataDir, 'pglite');
  if (!databaseUrl && !fs.existsSync(path.join(pgliteDir, 'PG_VERSION'))) {
    throw new BackupError(
      `DATA_DIR ${dataDir} holds no database (no PGlite database in ${pgliteDir}): ` +
        'check DATA_DIR, or set DATABASE_URL for PostgreSQL (nothing was backed up)',
    );
  }
  const database = await openDatabase({ databaseUrl, pgliteDir: databaseUrl ? null : pgliteDir });
  try {
    const backup = await createBackup(database, path.join(dataDir, 'files'), targetDir, options);
    // The live trail says that a backup was made, of what (Annex 11 §7.2); the backup itself
    // holds the trail up to its dump.
    await audit(database.db, null, {
      action: 'backup.create',
      entity: 'system',
      newValue: {
        folder: path.basename(backup.folder),
        createdAt: backup.manifest.createdAt,
        database: backup.manifest.database,
        databaseSha256: backup.manifest.databaseSha256 ?? null,
        files: backup.manifest.files.length,
        ...(backup.manifest.missingFiles?.length && {
          missingFiles: backup.manifest.missingFiles.length,
        }),
      },
    });
    return backup;
  } finally {
    await database.close();
  }
}
