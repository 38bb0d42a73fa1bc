// Restores a backup folder (see create-backup.ts) into an empty database and storage. Every file
// is checked against the manifest first, and nothing existing is ever overwritten.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { acquireLock } from '../db/lock.ts';
import type { BackupManifest } from './create-backup.ts';

export interface RestoreTarget {
  /** PostgreSQL to restore into (must have no tables yet), or null for PGlite in `pgliteDir`. */
  databaseUrl: string | null;
  pgliteDir: string;
  filesDir: string;
}

const isEmptyDir = (dir: string) => !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;

async function verifyFiles(folder: string, manifest: BackupManifest): Promise<void> {
  for (const file of manifest.files) {
    const full = path.join(folder, 'files', file.path);
    if (!full.startsWith(path.join(folder, 'files') + path.sep) || !fs.existsSync(full)) {
      throw new Error(`Backup is incomplete: ${file.path} is missing`);
    }
    const bytes = await fs.promises.readFile(full);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (bytes.length !== file.size || sha256 !== file.sha256) {
      throw new Error(`Backup is damaged: ${file.path} does not match its checksum`);
    }
  }
}

function pgRestore(url: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      'pg_restore',
      ['--exit-on-error', '--no-owner', '--dbname', url, file],
      (error, _out, stderr) =>
        error ? reject(new Error(`pg_restore failed: ${stderr.trim()}`)) : resolve(),
    );
  });
}

export async function restoreBackup(
  folder: string,
  target: RestoreTarget,
): Promise<BackupManifest> {
  const manifestFile = path.join(folder, 'manifest.json');
  if (!fs.existsSync(manifestFile)) throw new Error(`${folder} is not a backup (no manifest.json)`);
  const manifest = JSON.parse(await fs.promises.readFile(manifestFile, 'utf8')) as BackupManifest;
  await verifyFiles(folder, manifest);
  if (!isEmptyDir(target.filesDir)) {
    throw new Error(
      `${target.filesDir} already holds files; restore only into an empty data directory`,
    );
  }
  const dump = path.join(folder, manifest.databaseFile);
  if (target.databaseUrl) {
    if (manifest.database !== 'postgres')
      throw new Error('This backup is of PGlite; restore it without DATABASE_URL');
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ t: string | null }>(
      "select to_regclass('public.users')::text as t",
    );
    await client.end();
    if (rows[0]?.t)
      throw new Error('The target PostgreSQL database is not empty; restore into a new database');
    await pgRestore(target.databaseUrl, dump);
  } else {
    if (manifest.database !== 'pglite')
      throw new Error('This backup is of PostgreSQL; restore it with DATABASE_URL');
    if (!isEmptyDir(target.pgliteDir)) {
      throw new Error(`${target.pgliteDir} already holds a database; move it away first`);
    }
    await fs.promises.mkdir(path.dirname(target.pgliteDir), { recursive: true });
    const release = acquireLock(`${target.pgliteDir}.lock`);
    try {
      const archive = await fs.promises.readFile(dump);
      const db = new PGlite(target.pgliteDir, { loadDataDir: new Blob([archive]) });
      await db.waitReady;
      await db.close();
    } finally {
      release();
    }
  }
  if (fs.existsSync(path.join(folder, 'files'))) {
    await fs.promises.cp(path.join(folder, 'files'), target.filesDir, { recursive: true });
  }
  return manifest;
}
