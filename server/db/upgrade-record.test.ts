// An upgrade is recorded in the audit trail (EU GMP Annex 11 §10): a database made by an older
// release, opened by this one, gets the missing migrations and one entry naming them. On PGlite,
// or on PostgreSQL with TEST_DATABASE_URL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from '../test/build.ts';
import { openDatabase } from './client.ts';
import { startPgliteThread } from './pglite-thread.ts';
import { auditLog } from './schema.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-upgrade-record-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const migrations = path.join(import.meta.dirname, '..', 'drizzle');
const journal = JSON.parse(fs.readFileSync(path.join(migrations, 'meta', '_journal.json'), 'utf8'));
const tags: string[] = journal.entries.map((entry: { tag: string }) => entry.tag);

/** The checked-in migrations as an older release had them: the first `count`. */
function olderRelease(count: number): string {
  const folder = path.join(tmp, `release-${count}`);
  fs.mkdirSync(path.join(folder, 'meta'), { recursive: true });
  for (const tag of tags.slice(0, count)) {
    fs.copyFileSync(path.join(migrations, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  }
  const older = { ...journal, entries: journal.entries.slice(0, count) };
  fs.writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify(older));
  return folder;
}

/** A database migrated by an older release; answers how this release opens it. */
async function madeByOlderRelease(count: number) {
  const postgresUrl = process.env.TEST_DATABASE_URL;
  if (postgresUrl) {
    const database = await freshPostgresDatabase(postgresUrl);
    cleanups.push(() => database.drop());
    const pool = new pg.Pool({ connectionString: database.url });
    await migrate(drizzle({ client: pool }), { migrationsFolder: olderRelease(count) });
    await pool.end();
    return { databaseUrl: database.url, pgliteDir: null };
  }
  const pgliteDir = path.join(tmp, `pglite-${count}`);
  const thread = await startPgliteThread({ dataDir: pgliteDir });
  const pool = new pg.Pool({ max: 1, stream: () => thread.connect() });
  await migrate(drizzle({ client: pool }), { migrationsFolder: olderRelease(count) });
  await pool.end();
  await thread.close();
  return { databaseUrl: null, pgliteDir };
}

describe('opening a database an older release made', () => {
  it('applies the missing migrations and records them in the trail, once', async () => {
    const older = tags.length - 3;
    const options = await madeByOlderRelease(older);
    const opened = await openDatabase(options);
    const upgrades = () =>
      opened.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'system.upgrade'))
        .orderBy(desc(auditLog.id));
    try {
      const [entry, ...others] = await upgrades();
      expect(others).toEqual([]);
      expect(entry).toMatchObject({
        entity: 'system',
        actorId: null,
        oldValue: { migrations: older },
        newValue: { migrations: tags.length, applied: tags.slice(older) },
      });
    } finally {
      await opened.close();
    }
    // Opened again at the same release: nothing to apply, nothing recorded.
    const again = await openDatabase(options);
    try {
      const entries = await again.db
        .select({ id: auditLog.id })
        .from(auditLog)
        .where(eq(auditLog.action, 'system.upgrade'));
      expect(entries).toHaveLength(1);
    } finally {
      await again.close();
    }
  });
});
