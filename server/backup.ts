// `npm run backup [-- <target folder>]`: dumps the database and copies the stored files.
// With the embedded PGlite the server must be stopped first (the database lock says so);
// with DATABASE_URL it runs while the server is up (pg_dump takes a consistent snapshot).
// A DATA_DIR without a database is refused (exit code 1): a wrong path never "succeeds".
import path from 'node:path';
import { BackupError, backUpDataDir } from './backup/create-backup.ts';
import { ConfigError, loadConfig } from './config.ts';
import { LockError } from './db/lock.ts';

async function main() {
  const config = loadConfig();
  const target = path.resolve(process.argv[2] ?? path.join(config.dataDir, 'backups'));
  const { folder, manifest } = await backUpDataDir(config, target);
  console.log(
    `Backup written to ${folder} (${manifest.database} database, ${manifest.files.length} files)`,
  );
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError || error instanceof LockError || error instanceof BackupError
      ? error.message
      : error,
  );
  process.exit(1);
});
