// GET /api/health answers ok only when the database and the file store can both write, and its
// check leaves nothing behind: no row, no audit entry, no file, no temporary table.
import fs from 'node:fs';
import path from 'node:path';
import { DrizzleQueryError, type SQL, sql } from 'drizzle-orm';
import { DatabaseError, type Pool } from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { build, type TestApp } from '../test/build.ts';

let t: TestApp;
beforeAll(async () => {
  t = await build();
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

const health = () => t.app.inject({ url: '/api/health' });
const tmpDir = () => path.join(t.dataDir, 'files', '.tmp');
/** The rows of a query (Drizzle types `execute` as unknown over both drivers). */
const rowsOf = async (app: TestApp, query: SQL) =>
  ((await app.services.ctx.db.execute(query)) as unknown as { rows: Record<string, unknown>[] })
    .rows;
const count = async (query: SQL) => Number((await rowsOf(t, query))[0]?.n);

describe('GET /api/health', () => {
  it('answers ok with the database kind, and its check leaves nothing behind', async () => {
    // Sizes, not counts: dead rows (a rolled-back row, a dropped temporary table) are not
    // counted but stay on PGlite, which runs no autovacuum.
    const sizes = sql`select pg_total_relation_size('audit_log') as audit,
      (select sum(pg_total_relation_size(oid)) from pg_class
        where relname in ('pg_class', 'pg_attribute', 'pg_type', 'pg_depend')) as catalogs`;
    const before = await rowsOf(t, sizes);
    const auditBefore = await count(sql`select count(*) as n from audit_log`);
    const filesBefore = fs.readdirSync(tmpDir());
    for (let i = 0; i < 20; i++) {
      const res = await health();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 'ok',
        database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
      });
    }
    expect(await count(sql`select count(*) as n from audit_log`)).toBe(auditBefore);
    expect(await rowsOf(t, sizes)).toEqual(before);
    expect(fs.readdirSync(tmpDir())).toEqual(filesBefore);
  });

  it('fails (503, saying what) when the file store cannot write', async () => {
    // Its temporary folder replaced by a file: every upload would fail there (as any user; a
    // read-only mount needs root).
    const moved = `${tmpDir()}-moved`;
    fs.renameSync(tmpDir(), moved);
    fs.writeFileSync(tmpDir(), '');
    try {
      const res = await health();
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        message: 'Not healthy: the file store cannot write. The server log has the details.',
      });
    } finally {
      fs.rmSync(tmpDir());
      fs.renameSync(moved, tmpDir());
    }
    expect((await health()).statusCode).toBe(200);
  });

  it('names a read-only database folder, as PGlite reports it', async () => {
    // `select 1` still worked with PGlite's folder read-only; only a write failed, like this
    // (PGlite 0.5 on a read-only bind mount, tried by hand).
    const cause = Object.assign(
      new DatabaseError('could not open file "base/5/2615_fsm": Read-only file system', 0, 'error'),
      { code: '42501', severity: 'ERROR', routine: 'mdopenfork' },
    );
    vi.spyOn(t.services.ctx.db, 'transaction').mockRejectedValue(
      new DrizzleQueryError(
        "select current_setting('transaction_read_only') as read_only",
        [],
        cause,
      ),
    );
    const res = await health();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      message:
        'Not healthy: the database cannot write (its storage is read-only). The server log has the details.',
    });
  });

  it('runs one check for requests that arrive together', async () => {
    const transaction = vi.spyOn(t.services.ctx.db, 'transaction');
    const answers = await Promise.all([health(), health(), health()]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200]);
    expect(transaction).toHaveBeenCalledTimes(1);
  });
});

/** Runs `statement` on every connection of the app's pool (PGlite's one session, or each server session). */
async function onEveryConnection(app: TestApp, statement: string) {
  const pool = (app.services.ctx.db as unknown as { $client: Pool }).$client;
  const clients = await Promise.all(
    Array.from({ length: pool.options.max ?? 10 }, () => pool.connect()),
  );
  for (const client of clients) await client.query(statement);
  for (const client of clients) client.release();
}

describe('GET /api/health on a database that cannot write', () => {
  let db: TestApp;
  beforeEach(async () => {
    db = await build();
  });
  afterEach(() => db.close());

  it('fails (503) when the database takes reads only, although it still answers them', async () => {
    // A standby, or a database set read-only: reads work, writes are refused.
    await onEveryConnection(db, 'set default_transaction_read_only = on');
    expect(await rowsOf(db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
    const res = await db.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      message:
        'Not healthy: the database cannot write (it takes reads only). The server log has the details.',
    });
  });

  it('fails (503) when the database cannot write a file: the check really writes one', async () => {
    // No temporary file may be written at all (the tests connect as a superuser, who may set
    // this): the check's spilled sort is then refused, as on a full or read-only disk.
    await onEveryConnection(db, 'set temp_file_limit = 0');
    expect(await rowsOf(db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
    const res = await db.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      message: 'Not healthy: the database cannot write. The server log has the details.',
    });
  });
});
