// `npm run backup [-- <target folder>]`: dumps the database and copies the stored files.
// With the embedded PGlite the server must be stopped first (the database lock says so);
// with DATABASE_URL it runs while the server is up (a file changed meanwhile makes it try again).
// A DATA_DIR without a database is refused (exit code 1): a wrong path never "succeeds". A backup
// written although storage had lost files the database needs exits with 2 (listed in its manifest).
import path from 'node:path';
import { BackupError, backUpDataDir } from './backup/create-backup.ts';
import { listed } from './backup/named-files.ts';
import { ConfigError, loadConfig } from './config.ts';
import { LockError } from './db/lock.ts';

async function main() {
  const config = loadConfig();
  const target = path.resolve(process.argv[2] ?? path.join(config.dataDir, 'backups'));
  const { folder, manifest } = await backUpDataDir(config, target);
  const unnamed = manifest.unnamedFiles?.length ?? 0;
  console.log(
    `Backup written to ${folder} (${manifest.database} database, ${manifest.files.length} files` +
      `${unnamed > 0 ? `; ${unnamed} files no record names` : ''})`,
  );
  const missing = manifest.missingFiles ?? [];
  if (missing.length > 0) {
    console.error(
      `Warning: the database names ${missing.length} files that storage had lost before the ` +
        `backup (${listed(missing)}); they are listed in manifest.json as missingFiles, and a ` +
        'restore of this backup warns about them.',
    );
    process.exitCode = 2;
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError || error instanceof LockError || error instanceof BackupError
      ? error.message
      : error,
  );
  process.exit(1);
});
