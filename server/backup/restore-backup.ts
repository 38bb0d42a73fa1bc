// Restores a backup folder (see create-backup.ts) into an empty database and storage. The manifest,
// the database dump and every file are checked first, and that the backup holds every file its
// database needs; only the files the manifest lists are restored; nothing existing is ever
// overwritten, and a failed restore leaves the target as it was (everything is written into
// temporary folders beside the target and renamed into place last).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { audit } from '../audit/audit.ts';
import type { Db } from '../db/client.ts';
import { acquireLock } from '../db/lock.ts';
import {
  BackupError,
  type BackupManifest,
  DIR_MODE,
  FILE_MODE,
  sha256File,
} from './create-backup.ts';
import { DISK_PROBLEMS, describeThrown, errorCode, meaningOf } from './errors.ts';
import {
  lacking,
  listed,
  type NamedFiles,
  namedFiles,
  readDumpNamingRows,
  readNamingRows,
} from './named-files.ts';

export interface RestoreTarget {
  /** PostgreSQL to restore into (must have no tables yet), or null for PGlite in `pgliteDir`. */
  databaseUrl: string | null;
  pgliteDir: string;
  filesDir: string;
}

export interface RestoreOptions {
  /**
   * Where warnings and notes go (a backup too old to have its dump's checksum, a leftover of an
   * interrupted restore removed); console.warn by default.
   */
  warn?: (message: string) => void;
  /** Restore even though the database names files the backup lacks (`--accept-missing-files`). */
  acceptMissingFiles?: boolean;
}

export interface RestoredBackup {
  manifest: BackupManifest;
  /** Files the restored database needs that the backup does not hold (warned about). */
  missingFiles: string[];
}

const isEmptyDir = (dir: string) => !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;
const SHA256 = /^[0-9a-f]{64}$/;
const isSize = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;

/** Reads and checks manifest.json; every problem names the file. */
async function readManifest(folder: string): Promise<BackupManifest> {
  const manifestFile = path.join(folder, 'manifest.json');
  if (!fs.existsSync(manifestFile)) {
    throw new BackupError(`${folder} is not a backup (no manifest.json)`);
  }
  let data: unknown;
  try {
    data = JSON.parse(await fs.promises.readFile(manifestFile, 'utf8'));
  } catch (error) {
    throw new BackupError(
      `Backup is damaged: ${manifestFile} is not valid JSON (${(error as Error).message})`,
    );
  }
  const bad = (what: string) => new BackupError(`Backup is damaged: ${manifestFile} has ${what}`);
  const m = data as Partial<BackupManifest> | null;
  if (!m || typeof m !== 'object' || Array.isArray(m)) throw bad('no manifest object');
  if (typeof m.createdAt !== 'string') throw bad('no createdAt');
  const expectedFile = { pglite: 'database.tar.gz', postgres: 'database.pgdump' }[
    m.database as string
  ];
  if (!expectedFile) throw bad('no valid database kind (pglite or postgres)');
  if (m.databaseFile !== expectedFile) throw bad(`databaseFile other than ${expectedFile}`);
  const hasSha = m.databaseSha256 !== undefined;
  const hasSize = m.databaseSize !== undefined;
  if (hasSha !== hasSize) throw bad(`only part of the checksum of ${expectedFile}`);
  if (hasSha && (typeof m.databaseSha256 !== 'string' || !SHA256.test(m.databaseSha256))) {
    throw bad(`an invalid SHA-256 for ${expectedFile}`);
  }
  if (hasSize && !isSize(m.databaseSize)) throw bad(`an invalid size for ${expectedFile}`);
  if (!Array.isArray(m.files)) throw bad('no files list');
  if (
    m.missingFiles !== undefined &&
    !(Array.isArray(m.missingFiles) && m.missingFiles.every((key) => typeof key === 'string'))
  ) {
    throw bad('a missingFiles other than a list of keys');
  }
  const seen = new Set<string>();
  for (const file of m.files as unknown[]) {
    const f = file as Partial<BackupManifest['files'][number]> | null;
    if (!f || typeof f.path !== 'string') throw bad('a files entry without a path');
    const normal = path.posix.normalize(f.path);
    if (
      normal !== f.path ||
      f.path === '' ||
      f.path.startsWith('/') ||
      f.path.split('/').includes('..') ||
      f.path.includes('\\') ||
      f.path.includes('\0')
    ) {
      throw bad(`a file path outside files/: ${JSON.stringify(f.path)}`);
    }
    if (seen.has(f.path)) throw bad(`files/${f.path} twice`);
    seen.add(f.path);
    if (!isSize(f.size) || typeof f.sha256 !== 'string' || !SHA256.test(f.sha256)) {
      throw bad(`an invalid size or SHA-256 for files/${f.path}`);
    }
  }
  return m as BackupManifest;
}

/** Checks one file of the backup against its size and SHA-256; the error names it. */
async function verifyFile(full: string, name: string, size: number, sha256: string) {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.lstat(full);
  } catch {
    throw new BackupError(`Backup is incomplete: ${name} is missing (${full})`);
  }
  if (!stat.isFile()) throw new BackupError(`Backup is damaged: ${name} is not a file (${full})`);
  if (stat.size !== size || (await sha256File(full)) !== sha256) {
    throw new BackupError(`Backup is damaged: ${name} does not match its checksum (${full})`);
  }
}

async function verifyBackup(
  folder: string,
  manifest: BackupManifest,
  warn: (message: string) => void,
): Promise<void> {
  const dump = path.join(folder, manifest.databaseFile);
  if (manifest.databaseSha256 !== undefined && manifest.databaseSize !== undefined) {
    await verifyFile(dump, manifest.databaseFile, manifest.databaseSize, manifest.databaseSha256);
  } else {
    if (!fs.existsSync(dump)) {
      throw new BackupError(`Backup is incomplete: ${manifest.databaseFile} is missing (${dump})`);
    }
    warn(
      `Warning: ${path.join(folder, 'manifest.json')} has no checksum for ${manifest.databaseFile} ` +
        '(a backup made before they were recorded): the database dump could not be checked',
    );
    if (manifest.database === 'pglite') {
      // Without a checksum, at least gzip's own CRC and length catch a truncated or altered dump
      // here, before anything is written (PGlite would fail half way, with zlib's bare message).
      try {
        zlib.gunzipSync(await fs.promises.readFile(dump));
      } catch (error) {
        throw new BackupError(
          `Backup is damaged: ${manifest.databaseFile} is not a complete gzip archive (${dump}): ${
            error instanceof Error ? error.message : String(error)
          }`,
        );
      }
    }
  }
  for (const file of manifest.files) {
    await verifyFile(
      path.join(folder, 'files', file.path),
      `files/${file.path}`,
      file.size,
      file.sha256,
    );
  }
}

/** Copies exactly the files the manifest lists into `to` and checks each copy again. */
async function copyListedFiles(folder: string, manifest: BackupManifest, to: string) {
  await fs.promises.mkdir(to, { mode: DIR_MODE });
  for (const file of manifest.files) {
    const target = path.join(to, file.path);
    await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: DIR_MODE });
    await fs.promises.copyFile(
      path.join(folder, 'files', file.path),
      target,
      fs.constants.COPYFILE_EXCL,
    );
    await fs.promises.chmod(target, FILE_MODE);
    await verifyFile(target, `files/${file.path} (copied)`, file.size, file.sha256);
  }
}

function pgRestore(url: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // One transaction: a failing restore leaves the database as empty as it was.
    execFile(
      'pg_restore',
      ['--single-transaction', '--exit-on-error', '--no-owner', '--dbname', url, file],
      (error, _out, stderr) =>
        error
          ? reject(new BackupError(`pg_restore of ${file} failed: ${stderr.trim()}`))
          : resolve(),
    );
  });
}

/**
 * A failure while writing into the target: a full, read-only or failing disk is the target's
 * problem and is said so (the backup was verified and is not to blame); null for other errors.
 */
function targetDiskProblem(error: unknown, doing: string, dir: string): BackupError | null {
  const code = errorCode(error);
  if (!code || !DISK_PROBLEMS.has(code)) return null;
  const meaning = meaningOf(code);
  const fix =
    code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG'
      ? 'free space on that disk, or restore into a DATA_DIR on a larger one'
      : 'fix that disk or its permissions, or restore into another DATA_DIR';
  return new BackupError(
    `${meaning[0]?.toUpperCase()}${meaning.slice(1)} while ${doing} into ${dir} (${code}): ` +
      `${fix}, then run the restore again. The backup is not damaged; nothing was restored.`,
  );
}

/** A new temporary folder name beside `dir` (same file system, so it can be renamed into place). */
const stagingFor = (dir: string) =>
  path.join(
    path.dirname(dir),
    `.${path.basename(dir)}.restoring-${randomBytes(6).toString('hex')}`,
  );

/**
 * Removes the staging folders beside `dir` that an interrupted restore left (a killed one): a
 * finished or failed restore leaves none, and nothing but a restore under way uses them (one
 * restore at a time). Answers the folders removed.
 */
async function removeLeftovers(dir: string): Promise<string[]> {
  const prefix = `.${path.basename(dir)}.restoring-`;
  let names: string[];
  try {
    names = await fs.promises.readdir(path.dirname(dir));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  const left = names
    .filter((name) => name.startsWith(prefix) && /^[0-9a-f]{12}$/.test(name.slice(prefix.length)))
    .map((name) => path.join(path.dirname(dir), name));
  for (const folder of left) await fs.promises.rm(folder, { recursive: true, force: true });
  return left;
}

/**
 * The files the backup's database needs that the backup lacks. Those its manifest says storage had
 * lost before the backup are warned about; any other refuses the restore (a live backup made while
 * a file changed, before backups checked this) unless the caller accepts them.
 */
function checkNamedFiles(
  named: NamedFiles,
  manifest: BackupManifest,
  options: RestoreOptions,
  warn: (message: string) => void,
): string[] {
  const missing = lacking(
    named,
    manifest.files.map((file) => file.path),
  );
  if (missing.length === 0) return [];
  const lostBefore = new Set(manifest.missingFiles ?? []);
  const unexplained = missing.filter((key) => !lostBefore.has(key));
  if (unexplained.length > 0 && !options.acceptMissingFiles) {
    throw new BackupError(
      `The backup's database names files the backup does not hold (${listed(unexplained)}): ` +
        'they changed while it was made. Nothing was restored. Restore another backup, or this ' +
        'one with --accept-missing-files (those records then lack their files; the restored ' +
        'trail lists them).',
    );
  }
  warn(
    `Warning: the restored records name ${missing.length} files the backup does not hold ` +
      `(${listed(missing)}): ${
        unexplained.length > 0
          ? 'restored without them, as --accept-missing-files asked'
          : 'storage had lost them before the backup was made'
      }; the restored trail lists them.`,
  );
  return missing;
}

/** Puts the staged folder `staged` in place of the empty or absent `dir`; returns an undo. */
async function moveIntoPlace(staged: string, dir: string): Promise<() => Promise<void>> {
  const existed = fs.existsSync(dir);
  if (existed) await fs.promises.rmdir(dir); // empty: checked before; fails otherwise
  await fs.promises.rename(staged, dir);
  return async () => {
    await fs.promises.rm(dir, { recursive: true, force: true });
    if (existed) await fs.promises.mkdir(dir, { mode: DIR_MODE });
  };
}

export async function restoreBackup(
  folder: string,
  target: RestoreTarget,
  options: RestoreOptions = {},
): Promise<RestoredBackup> {
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const manifest = await readManifest(folder);
  await verifyBackup(folder, manifest, warn);
  if (target.databaseUrl && manifest.database !== 'postgres') {
    throw new BackupError('This backup is of PGlite; restore it without DATABASE_URL');
  }
  if (!target.databaseUrl && manifest.database !== 'pglite') {
    throw new BackupError('This backup is of PostgreSQL; restore it with DATABASE_URL');
  }
  if (!isEmptyDir(target.filesDir)) {
    throw new BackupError(
      `${target.filesDir} already holds files; restore only into an empty data directory`,
    );
  }
  if (!target.databaseUrl && !isEmptyDir(target.pgliteDir)) {
    throw new BackupError(`${target.pgliteDir} already holds a database; move it away first`);
  }
  const dump = path.join(folder, manifest.databaseFile);
  // PostgreSQL's dump is read as pg_restore would write it, before anything is written.
  let missingFiles = target.databaseUrl
    ? checkNamedFiles(namedFiles(await readDumpNamingRows(dump)), manifest, options, warn)
    : [];
  for (const dir of [target.filesDir, target.pgliteDir].filter(Boolean)) {
    for (const left of await removeLeftovers(dir)) {
      warn(`Removed ${left}, left by an earlier restore that was interrupted`);
    }
  }
  // Folders this restore creates, removed again if it fails (the target is left as it was).
  const created: string[] = [];
  const undo: (() => Promise<void>)[] = [];
  const mkdirTracked = async (dir: string) => {
    const first = await fs.promises.mkdir(dir, { recursive: true, mode: DIR_MODE });
    if (first) created.push(first);
  };
  let release = () => {};
  try {
    await mkdirTracked(path.dirname(target.filesDir));
    const filesStaging = stagingFor(target.filesDir);
    created.push(filesStaging);
    try {
      await copyListedFiles(folder, manifest, filesStaging);
    } catch (error) {
      throw targetDiskProblem(error, 'copying the stored files', target.filesDir) ?? error;
    }
    if (target.databaseUrl) {
      const client = new pg.Client({ connectionString: target.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ t: string | null }>(
          "select to_regclass('public.users')::text as t",
        );
        if (rows[0]?.t) {
          throw new BackupError(
            'The target PostgreSQL database is not empty; restore into a new database',
          );
        }
      } finally {
        await client.end();
      }
      undo.push(await moveIntoPlace(filesStaging, target.filesDir));
      await pgRestore(target.databaseUrl, dump);
    } else {
      await mkdirTracked(path.dirname(target.pgliteDir));
      release = acquireLock(`${target.pgliteDir}.lock`);
      const pgliteStaging = stagingFor(target.pgliteDir);
      created.push(pgliteStaging);
      const archive = await fs.promises.readFile(dump);
      let named: NamedFiles;
      try {
        const db = new PGlite(pgliteStaging, { loadDataDir: new Blob([archive]) });
        await db.waitReady;
        try {
          named = namedFiles(
            await readNamingRows(
              async (text) => (await db.query<Record<string, unknown>>(text)).rows,
            ),
          );
        } finally {
          await db.close();
        }
      } catch (error) {
        throw (
          targetDiskProblem(error, 'loading the database', target.pgliteDir) ??
          new BackupError(
            `Backup is damaged: ${manifest.databaseFile} could not be loaded (${dump}): ${describeThrown(error)}`,
          )
        );
      }
      missingFiles = checkNamedFiles(named, manifest, options, warn);
      await fs.promises.chmod(pgliteStaging, DIR_MODE);
      undo.push(await moveIntoPlace(pgliteStaging, target.pgliteDir));
      undo.push(await moveIntoPlace(filesStaging, target.filesDir));
    }
  } catch (error) {
    for (const step of undo.reverse()) await step().catch(() => {});
    for (const dir of created.reverse()) {
      await fs.promises.rm(dir, { recursive: true, force: true }).catch(() => {});
    }
    throw error;
  } finally {
    release();
  }
  return { manifest, missingFiles };
}

/**
 * The restore in the restored trail (docs/server.md, "Backup"): entries after the backup are gone
 * and their numbers will be reused, so the first entry after them says why. The chain verifies
 * across it; an auditor comparing a head hash written down earlier reads the reason here.
 */
export async function noteRestore(
  db: Db,
  manifest: BackupManifest,
  missingFiles: readonly string[] = [],
): Promise<void> {
  await audit(db, null, {
    action: 'backup.restore',
    entity: 'system',
    newValue: {
      backupCreatedAt: manifest.createdAt,
      database: manifest.database,
      databaseSha256: manifest.databaseSha256 ?? null,
      files: manifest.files.length,
      ...(missingFiles.length > 0 && { missingFiles }),
    },
  });
}
