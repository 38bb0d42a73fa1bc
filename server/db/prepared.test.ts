// Named prepared statements on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../ids.ts';
import { build, type TestApp } from '../test/build.ts';
import { precompiled, preparedRows } from './prepared.ts';
import { videos } from './schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await build();
});
afterAll(() => t.close());

const db = () => t.services.ctx.db;
const videoCount = sql`select count(*) from ${videos}`;

describe('preparedRows', () => {
  it('answers the rows as text and serializes dates, lists and nulls', async () => {
    const at = new Date('2026-03-04T05:06:07.089Z');
    const rows = await preparedRows(
      db(),
      sql`select n, ${sql.param(['a', 'b'])}::text[], ${null}::text, ${at.toISOString()}::timestamptz = ${sql.param(at, videos.timestamp)}
          from (values (1), (2)) as numbers(n) where n >= ${1} order by n`,
    );
    expect(rows).toEqual([
      ['1', '{a,b}', null, 't'],
      ['2', '{a,b}', null, 't'],
    ]);
  });

  // On PostgreSQL pg_prepared_statements shows one pooled connection's statements only.
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'prepares each query text once and reuses its plan for any values',
    async () => {
      const query = (n: number) => sql`select ${n}::int * 2 from ${videos} limit 1`;
      for (let n = 0; n < 12; n++) await preparedRows(db(), query(n));
      const statements = await preparedRows(
        db(),
        sql`select generic_plans from pg_prepared_statements
          where name like 'lc_prepared_%' and statement like ${'%::int * 2 %'}`,
      );
      // One statement for the twelve calls; after five custom plans PostgreSQL switched to the
      // cached generic plan, so the later calls were not planned again.
      expect(statements).toHaveLength(1);
      expect(Number(statements[0]?.[0])).toBeGreaterThan(0);
    },
  );

  it('reports a failing statement and keeps the session usable', async () => {
    await expect(preparedRows(db(), sql`select 1 / ${0}::int`)).rejects.toThrow('division by zero');
    await expect(preparedRows(db(), sql`select nonsense from ${videos}`)).rejects.toThrow(
      'column "nonsense" does not exist',
    );
    expect(await preparedRows(db(), sql`select 1 / ${1}::int`)).toEqual([['1']]);
  });

  it('never reads inside another caller’s open transaction', async () => {
    const [[before]] = (await preparedRows(db(), videoCount)) as [[string]];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted: () => void = () => {};
    const insertedRow = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const writer = db()
      .transaction(async (tx) => {
        await tx.insert(videos).values({
          id: newId(),
          filename: `uncommitted-${newId()}.mp4`,
          storageKey: 'videos/x.mp4',
          subfolder: 'x',
          timestamp: new Date(),
        });
        inserted();
        await held;
        tx.rollback();
      })
      .catch(() => 'rolled back');
    await insertedRow;
    const read = preparedRows(db(), videoCount);
    setTimeout(release, 50);
    expect(await read).toEqual([[before]]);
    expect(await writer).toBe('rolled back');
  });

  it('refuses a transaction handle (it would wait for its own transaction)', async () => {
    await expect(
      db().transaction(async (tx) => preparedRows(tx as never, videoCount)),
    ).rejects.toThrow('preparedRows needs the database handle from openDatabase');
  });
});

describe('precompiled', () => {
  it('compiles a fragment to its SQL text once', async () => {
    const fragment = precompiled(sql`select count(*) from ${videos}`);
    expect(await preparedRows(db(), sql`${fragment} where ${videos.id} = ${'none'}`)).toEqual([
      ['0'],
    ]);
  });

  it('refuses a fragment with parameters', () => {
    expect(() => precompiled(sql`select ${1}`)).toThrow('must not have parameters');
  });
});
