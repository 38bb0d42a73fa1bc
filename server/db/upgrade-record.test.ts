// An upgrade is recorded in the audit trail (EU GMP Annex 11 §10): a database made by an older
// release, opened by this one, gets the missing migrations and one entry naming them, and what
// they fill in for its records is as the trail shows it. On PGlite,
// or on PostgreSQL with TEST_DATABASE_URL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc, eq, max } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from '../test/build.ts';
import { openDatabase } from './client.ts';
import { startPgliteThread } from './pglite-thread.ts';
import { auditLog, inspections, reportSummaries } from './schema.ts';

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

/**
 * A database migrated by an older release, with what `write` puts in it there; answers how this
 * release opens it.
 */
async function madeByOlderRelease(count: number, write?: (pool: pg.Pool) => Promise<unknown>) {
  const postgresUrl = process.env.TEST_DATABASE_URL;
  if (postgresUrl) {
    const database = await freshPostgresDatabase(postgresUrl);
    cleanups.push(() => database.drop());
    const pool = new pg.Pool({ connectionString: database.url });
    await migrate(drizzle({ client: pool }), { migrationsFolder: olderRelease(count) });
    await write?.(pool);
    await pool.end();
    return { databaseUrl: database.url, pgliteDir: null };
  }
  const pgliteDir = path.join(tmp, `pglite-${count}`);
  const thread = await startPgliteThread({ dataDir: pgliteDir });
  const pool = new pg.Pool({ max: 1, stream: () => thread.connect() });
  await migrate(drizzle({ client: pool }), { migrationsFolder: olderRelease(count) });
  await write?.(pool);
  await pool.end();
  await thread.close();
  return { databaseUrl: null, pgliteDir };
}

// One older database serves both: each PGlite start and migration run takes seconds. The release
// before 0018, named: the tests below are about 0019 and 0020, not about the newest migrations.
const older = tags.indexOf('0018_summary-rules-version');
const submittedAt = '2026-11-02T09:30:00.000Z';

describe('opening a database an older release made', () => {
  let options: Awaited<ReturnType<typeof madeByOlderRelease>>;
  let opened: Awaited<ReturnType<typeof openDatabase>>;
  beforeAll(async () => {
    // Inspections submitted before their receipt times were kept (migration 0019): one whose
    // submit the trail shows, followed by a change of it, and one from before the trail.
    options = await madeByOlderRelease(older, async (pool) => {
      for (const id of ['submitted', 'before-the-trail']) {
        await pool.query(
          `INSERT INTO inspections (id, line_clearance_id, operator_id, start_time)
           VALUES ($1, 'line', 'operator', '2026-11-01T08:00:00Z')`,
          [id],
        );
      }
      for (const [action, at] of [
        ['create', submittedAt],
        ['update', '2026-11-03T10:00:00Z'],
      ]) {
        await pool.query(
          `INSERT INTO audit_log (at, action, entity, entity_id) VALUES ($1, $2, 'inspection', 'submitted')`,
          [at, action],
        );
      }
      // Summaries built before they kept the entries they count (0020): one built before a
      // change of its record (which the start must build again), one after.
      for (const [id, builtAt] of [
        ['submitted', '2026-11-02T12:00:00Z'],
        ['before-the-trail', '2026-11-04T12:00:00Z'],
      ]) {
        await pool.query(
          `INSERT INTO report_summaries (inspection_id, flags, critical_flags, tags_scanned,
             tags_total, zones_visited, zones_total, detections, built_at)
           VALUES ($1, 0, 0, 0, 0, 0, 0, 0, $2)`,
          [id, builtAt],
        );
      }
    });
    opened = await openDatabase(options);
  });

  it('takes an earlier inspection’s receipt time from its submit in the trail, for good', async () => {
    const received = await opened.db
      .select({ id: inspections.id, receivedAt: inspections.receivedAt })
      .from(inspections)
      .orderBy(inspections.id);
    expect(received).toEqual([
      { id: 'before-the-trail', receivedAt: null },
      { id: 'submitted', receivedAt: new Date(submittedAt) },
    ]);
    for (const id of ['submitted', 'before-the-trail']) {
      await expect(
        opened.db.update(inspections).set({ receivedAt: new Date() }).where(eq(inspections.id, id)),
      ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/kept as received/) } });
    }
    // The record's other changes go on as before.
    await opened.db
      .update(inspections)
      .set({ status: 'rejected' })
      .where(eq(inspections.id, 'submitted'));
  });

  it('keeps which entries each earlier summary counts: none, if its record changed after it', async () => {
    const [last] = await opened.db
      .select({ id: max(auditLog.id) })
      .from(auditLog)
      .where(eq(auditLog.entity, 'inspection'));
    const summaries = await opened.db
      .select({ id: reportSummaries.inspectionId, builtThrough: reportSummaries.builtThrough })
      .from(reportSummaries)
      .orderBy(reportSummaries.inspectionId);
    expect(summaries).toEqual([
      { id: 'before-the-trail', builtThrough: last?.id },
      { id: 'submitted', builtThrough: 0 },
    ]);
  });

  it('applies the missing migrations and records them in the trail, once', async () => {
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
