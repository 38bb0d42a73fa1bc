// `npm run backup [-- <target folder>]`: dumps the database and copies the stored files.
// With the embedded PGlite the server must be stopped first (the database lock says so);
// with DATABASE_URL it runs while the server is up (pg_dump takes a consistent snapshot).
import path from 'node:path';
import { createBackup } from './backup/create-backup.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { LockError } from './db/lock.ts';

async function main() {
  const config = loadConfig();
  const target = path.resolve(process.argv[2] ?? path.join(config.dataDir, 'backups'));
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
  try {
    const { folder, manifest } = await createBackup(
      database,
      path.join(config.dataDir, 'files'),
      target,
    );
    console.log(
      `Backup written to ${folder} (${manifest.database} database, ${manifest.files.length} files)`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof LockError ? error.message : error);
  process.exit(1);
});
