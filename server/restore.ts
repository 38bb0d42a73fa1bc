// `npm run restore -- <backup folder>`: restores a backup into an empty DATA_DIR (or an empty
// DATABASE_URL database). Checks the manifest, the dump's and every file's SHA-256 first; never
// overwrites anything, and a failed restore leaves DATA_DIR as it was.
import path from 'node:path';
import { noteRestore, restoreBackup } from './backup/restore-backup.ts';
import { loadConfig } from './config.ts';
import { createServices } from './services.ts';

async function main() {
  const folder = process.argv[2];
  if (!folder) throw new Error('Usage: npm run restore -- <backup folder>');
  const config = loadConfig();
  const manifest = await restoreBackup(path.resolve(folder), {
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
    filesDir: path.join(config.dataDir, 'files'),
  });
  // The restored trail says so (the entries after the backup are gone, their numbers reused).
  const services = await createServices(config);
  try {
    await noteRestore(services.ctx.db, manifest);
  } finally {
    await services.close();
  }
  console.log(`Restored the backup of ${manifest.createdAt} (${manifest.files.length} files)`);
}

main().catch((error: unknown) => {
  // Configuration, lock and backup problems are the operator's to fix: print them plainly.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
