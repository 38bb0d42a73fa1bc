// A backup is one folder: the database dump, a copy of the stored files and a manifest with a
// size and SHA-256 for the dump and for every file, so a restore can prove it got what was saved.
// It holds password hashes and every record: folders are created 0700 and files 0600.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Database, openDatabase } from '../db/client.ts';
import { describeThrown, errorCode } from './errors.ts';

export interface BackupManifest {
  createdAt: string;
  database: 'pglite' | 'postgres';
  databaseFile: string;
  /** Size and SHA-256 of `databaseFile`; absent in backups made before they were recorded. */
  databaseSize?: number;
  databaseSha256?: string;
  files: { path: string; size: number; sha256: string }[];
}

/** A problem the operator has to fix (wrong DATA_DIR, damaged backup…): printed plainly. */
export class BackupError extends Error {}

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Copies the stored files (temp files skipped) into `to`, folders 0700 and files 0600. */
async function copyFiles(from: string, to: string): Promise<void> {
  await fs.promises.mkdir(to, { mode: DIR_MODE });
  await fs.promises.chmod(to, DIR_MODE);
  for (const entry of await fs.promises.readdir(from, { withFileTypes: true })) {
    // Stored objects are written by rename, so each copied file is complete.
    if (entry.name === '.tmp') continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      await copyFiles(source, target);
    } else if (entry.isFile()) {
      await fs.promises.copyFile(source, target, fs.constants.COPYFILE_EXCL);
      await fs.promises.chmod(target, FILE_MODE);
    }
  }
}

/**
 * Backs up `database` and the storage folder `filesDir` into a new folder under `targetDir`. A
 * failure (a full disk) removes what was written and throws a BackupError naming the problem.
 */
export async function createBackup(
  database: Database,
  filesDir: string,
  targetDir: string,
  now = new Date(),
): Promise<{ folder: string; manifest: BackupManifest }> {
  const name = `backup-${now.toISOString().replace(/[:.]/g, '-')}`;
  const folder = path.join(targetDir, name);
  // An existing folder of that name is an error, never written into or replaced.
  if (fs.existsSync(folder)) {
    throw new BackupError(`${folder} exists already: nothing was backed up; try again`);
  }
  // Written under another name and renamed last, so a backup-… folder is always complete, even
  // after a kill or a crash that no cleanup survives (a failure below also removes it).
  const partial = path.join(targetDir, `incomplete-${name}-${randomBytes(4).toString('hex')}`);
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
    doing = 'copying the stored files';
    const filesCopy = path.join(partial, 'files');
    if (fs.existsSync(filesDir)) await copyFiles(filesDir, filesCopy);
    doing = 'checking the copied files';
    const files: BackupManifest['files'] = [];
    const entries = fs.existsSync(filesCopy)
      ? await fs.promises.readdir(filesCopy, { recursive: true, withFileTypes: true })
      : [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const full = path.join(entry.parentPath, entry.name);
      files.push({
        path: path.relative(filesCopy, full).split(path.sep).join('/'),
        size: (await fs.promises.stat(full)).size,
        sha256: await sha256File(full),
      });
    }
    files.sort((a, b) => a.path.localeCompare(b.path));
    const manifest: BackupManifest = {
      createdAt: now.toISOString(),
      database: database.kind,
      databaseFile,
      databaseSize: (await fs.promises.stat(dumpPath)).size,
      databaseSha256: await sha256File(dumpPath),
      files,
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
  now = new Date(),
): Promise<{ folder: string; manifest: BackupManifest }> {
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
    return await createBackup(database, path.join(dataDir, 'files'), targetDir, now);
  } finally {
    await database.close();
  }
}
