// The wire-protocol bridge to PGlite's thread: a closed connection leaves the session clean, a
// transaction has the session to itself, and messages split across writes still arrive whole.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedPglite } from '../test/build.ts';
import { type PgliteThread, startPgliteThread } from './pglite-thread.ts';

// Both threads start from the test suite's migrated dump: an empty database made by initdb costs
// several seconds more per start, and what is tested here is the bridge, not the database's content.
let thread: PgliteThread;
beforeAll(async () => {
  thread = await startPgliteThread({ dataDir: null, start: await migratedPglite() });
});
afterAll(() => thread.close());

const client = async () => {
  const c = new pg.Client({ stream: () => thread.connect() });
  await c.connect();
  return c;
};

describe('PGlite thread', () => {
  it('serves queries over node-postgres, with parameters and named statements', async () => {
    const c = await client();
    const named = { name: 'twice', text: 'select $1::int * 2 as n', values: [21] };
    expect((await c.query(named)).rows).toEqual([{ n: 42 }]);
    expect((await c.query({ ...named, values: [5] })).rows).toEqual([{ n: 10 }]);
    await expect(c.query('select 1 / 0')).rejects.toThrow('division by zero');
    expect((await c.query('select 1 as ok')).rows).toEqual([{ ok: 1 }]);
    await c.end();
  });

  it('rolls back what a closed connection left open and forgets its statements', async () => {
    const first = await client();
    await first.query('create table kept (n int)');
    await first.query('begin');
    await first.query('insert into kept values (1)');
    await first.query({ name: 'count_kept', text: 'select count(*)::int as n from kept' });
    await first.end();
    const second = await client();
    // The same statement name can be prepared again, and the uncommitted row is gone.
    const counted = await second.query({
      name: 'count_kept',
      text: 'select count(*)::int as n from kept',
    });
    expect(counted.rows).toEqual([{ n: 0 }]);
    await second.end();
  });

  it('lets a connection inside a transaction have the session until it ends', async () => {
    const a = await client();
    const b = await client();
    await a.query('create table shared (n int)');
    await a.query('begin');
    await a.query('insert into shared values (1)');
    let answered = false;
    const read = b.query('select count(*)::int as n from shared').then((result) => {
      answered = true;
      return result.rows;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // b's query waits instead of running inside a's transaction.
    expect(answered).toBe(false);
    await a.query('insert into shared values (2)');
    await a.query('commit');
    expect(await read).toEqual([{ n: 2 }]);
    await a.end();
    await b.end();
  });

  it('keeps nothing of the answers it has sent', async () => {
    // 150 MB of answers through a thread whose heap holds 48 MB: an answer kept on the thread
    // (PGlite's execProtocolRaw keeps every answer, parsed) runs it out of memory.
    const small = await startPgliteThread({
      dataDir: null,
      start: await migratedPglite(),
      heapLimitMb: 48,
    });
    try {
      const c = new pg.Client({ stream: () => small.connect() });
      await c.connect();
      for (let i = 0; i < 150; i++) {
        const { rows } = await c.query<{ s: string }>("select repeat('x', 1000000) || $1 as s", [
          String(i),
        ]);
        expect(rows[0]?.s.length).toBe(1_000_000 + String(i).length);
      }
      await c.end();
    } finally {
      await small.close();
    }
  }, 60_000);

  it('assembles messages split across writes', async () => {
    const socket = thread.connect();
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const parameters = 'user\0test\0\0';
    const startup = Buffer.alloc(8 + parameters.length);
    startup.writeInt32BE(startup.length, 0);
    startup.writeInt32BE(196608, 4); // protocol 3.0
    startup.write(parameters, 8);
    const sqlText = Buffer.from('select 40 + 2\0');
    const query = Buffer.alloc(5 + sqlText.length);
    query.write('Q', 0);
    query.writeInt32BE(4 + sqlText.length, 1);
    sqlText.copy(query, 5);
    // One byte per write, each in its own turn of the event loop.
    for (const byte of Buffer.concat([startup, query])) {
      socket.write(Buffer.from([byte]));
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (let i = 0; i < 200 && !Buffer.concat(received).includes('42'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const answer = Buffer.concat(received).toString('latin1');
    expect(answer.startsWith('R')).toBe(true); // AuthenticationOk
    expect(answer).toContain('42');
    socket.end();
  });
});
