// A backup is one folder: the database dump, a copy of the stored files and a manifest with a
// SHA-256 per file, so a restore can prove it got what was saved.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/client.ts';

export interface BackupManifest {
  createdAt: string;
  database: 'pglite' | 'postgres';
  databaseFile: string;
  files: { path: string; size: number; sha256: string }[];
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Backs up `database` and the storage folder `filesDir` into a new folder under `targetDir`. */
export async function createBackup(
  database: Database,
  filesDir: string,
  targetDir: string,
  now = new Date(),
): Promise<{ folder: string; manifest: BackupManifest }> {
  const folder = path.join(targetDir, `backup-${now.toISOString().replace(/[:.]/g, '-')}`);
  await fs.promises.mkdir(folder, { recursive: true });
  const databaseFile = database.kind === 'pglite' ? 'database.tar.gz' : 'database.pgdump';
  await database.dump(path.join(folder, databaseFile));
  const filesCopy = path.join(folder, 'files');
  if (fs.existsSync(filesDir)) {
    // Stored objects are written by rename, so each copied file is complete; temp files are skipped.
    await fs.promises.cp(filesDir, filesCopy, {
      recursive: true,
      filter: (source) => path.basename(source) !== '.tmp',
    });
  }
  const files: BackupManifest['files'] = [];
  const entries = fs.existsSync(filesCopy)
    ? await fs.promises.readdir(filesCopy, { recursive: true, withFileTypes: true })
    : [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.push({
      path: path.relative(filesCopy, full),
      size: (await fs.promises.stat(full)).size,
      sha256: await sha256(full),
    });
  }
  files.sort((a, b) => a.path.localeCompare(b.path));
  const manifest: BackupManifest = {
    createdAt: now.toISOString(),
    database: database.kind,
    databaseFile,
    files,
  };
  await fs.promises.writeFile(
    path.join(folder, 'manifest.json'),
    `${JSON.stringify(manifest, null, 2)}\n`,
  );
  return { folder, manifest };
}
