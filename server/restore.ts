// `npm run restore -- <backup folder> [--accept-missing-files]`: restores a backup into an empty
// DATA_DIR (or an empty DATABASE_URL database). Checks the manifest, the dump's and every file's
// SHA-256, and that the backup holds every file its database needs, first; never overwrites
// anything, and a failed restore leaves DATA_DIR as it was.
import path from 'node:path';
import { noteRestore, restoreBackup } from './backup/restore-backup.ts';
import { loadConfig } from './config.ts';
import { createServices } from './services.ts';

const ACCEPT = '--accept-missing-files';

async function main() {
  const args = process.argv.slice(2);
  const folder = args.find((arg) => arg !== ACCEPT);
  if (!folder || args.length > (args.includes(ACCEPT) ? 2 : 1)) {
    throw new Error(`Usage: npm run restore -- <backup folder> [${ACCEPT}]`);
  }
  const config = loadConfig();
  const { manifest, missingFiles } = await restoreBackup(
    path.resolve(folder),
    {
      databaseUrl: config.databaseUrl,
      pgliteDir: path.join(config.dataDir, 'pglite'),
      filesDir: path.join(config.dataDir, 'files'),
    },
    { acceptMissingFiles: args.includes(ACCEPT) },
  );
  // The restored trail says so (the entries after the backup are gone, their numbers reused).
  const services = await createServices(config);
  try {
    await noteRestore(services.ctx.db, manifest, missingFiles);
  } finally {
    await services.close();
  }
  const without = missingFiles.length > 0 ? `; ${missingFiles.length} named files missing` : '';
  console.log(
    `Restored the backup of ${manifest.createdAt} (${manifest.files.length} files${without})`,
  );
}

main().catch((error: unknown) => {
  // Configuration, lock and backup problems are the operator's to fix: print them plainly.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
