// What one client can cost the server: audit rows per refused request, the list cache's bytes, a
// request body that never ends, dates and strings the database cannot store, and a data folder
// others read.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, videos } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { prepareDataDir } from '../services.ts';
import { build, type TestApp } from '../test/build.ts';
import { createUser, type TestUser } from '../test/fixtures.ts';
import { PARAMETER_RULES, refusedText } from './text-guard.ts';

let t: TestApp;
let operator: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await build({ VIDEO_LIST_CACHE_BYTES: '200000', REQUEST_TIMEOUT_SECONDS: '1' });
  operator = await createUser(t, 'operator', ['operator']);
  admin = await createUser(t, 'admin', ['admin']);
});
afterAll(() => t.close());

describe('the audit log under refused requests', () => {
  it('stores the route, capped fields, and one counted entry for the repeats', async () => {
    const query = `?x=${'a'.repeat(15_000)}`;
    const refused = await Promise.all(
      Array.from({ length: 300 }, () =>
        t.app.inject({ url: `/api/audit-log${query}`, headers: operator.auth }),
      ),
    );
    expect(refused.every((res) => res.statusCode === 403)).toBe(true);
    // Fastify answers 414 for a path parameter over 100 characters before any route runs.
    const longId = 'f'.repeat(100);
    const other = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/videos/${longId}?${'q'.repeat(15_000)}`,
      headers: operator.auth,
    });
    expect(other.statusCode).toBe(403);
    await t.services.ctx.refusals.flush();
    const rows = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.actorId, operator.id));
    // The repeats' entry is appended when the window closes (here: the flush), after the others.
    expect(rows).toHaveLength(3);
    expect(rows.map((row) => [row.entityId, row.newValue])).toEqual(
      expect.arrayContaining([
        [
          'GET /api/audit-log',
          { reason: 'role required: audit or factory_manager or admin', params: {} },
        ],
        [
          'GET /api/audit-log',
          expect.objectContaining({
            reason: 'role required: audit or factory_manager or admin',
            repeated: 299,
          }),
        ],
        [
          'DELETE /api/admin/videos/:id',
          { reason: 'role required: admin', params: { id: longId } },
        ],
      ]),
    );
    for (const row of rows) expect(JSON.stringify(row).length).toBeLessThan(1000);
  });
});

describe('the video list cache', () => {
  it('stays within its byte budget whatever filters are asked for', async (context) => {
    const caches = t.services.ctx.caches;
    // PostgreSQL (several processes) has no read cache.
    if (!caches) return context.skip();
    await t.services.ctx.db.insert(videos).values(
      Array.from({ length: 300 }, (_, i) => ({
        id: newId(),
        filename: `v${i}.mp4`,
        storageKey: `videos/v${i}.mp4`,
        subfolder: `v${i}`,
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)),
      })),
    );
    for (let i = 0; i < 40; i++) {
      const start = new Date(Date.UTC(2025, 11, 1, 0, i)).toISOString();
      const res = await t.app.inject({
        url: `/api/videos?startDate=${start}`,
        headers: admin.auth,
      });
      expect(res.json()).toHaveLength(300);
    }
    expect(caches.videoLists.bytes).toBeGreaterThan(0);
    expect(caches.videoLists.bytes).toBeLessThanOrEqual(200_000);
    expect(caches.videoLists.size).toBeLessThan(40);
  });
});

describe('a request whose body never ends', () => {
  it('is cut off after REQUEST_TIMEOUT_SECONDS', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    const started = Date.now();
    const closed = new Promise<string>((resolve) => {
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk.toString();
      });
      socket.on('close', () => resolve(answer));
      socket.on('error', () => {});
    });
    socket.write(
      'POST /api/login HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    // One byte every 200 ms, for at most 15 s: the connection is never idle, only slow.
    const drip = setInterval(() => socket.write(' '), 200);
    const limit = new Promise<string>((resolve) => setTimeout(() => resolve('still open'), 15_000));
    const outcome = await Promise.race([closed, limit]);
    clearInterval(drip);
    socket.destroy();
    expect(outcome).not.toBe('still open');
    expect(outcome).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});

describe('dates the database cannot store', () => {
  it('answer 400 naming the field', async () => {
    for (const value of ['2026-01-01T23:59:60Z', '0000-01-01T00:00:00Z', '2026-02-30T00:00:00Z']) {
      const res = await t.app.inject({
        url: `/api/videos?startDate=${encodeURIComponent(value)}`,
        headers: admin.auth,
      });
      expect(res.statusCode, value).toBe(400);
      expect(res.json().message).toMatch(/^query\.startDate\.0 /);
    }
    for (const value of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z']) {
      const res = await t.app.inject({
        url: `/api/videos?endDate=${encodeURIComponent(value)}`,
        headers: admin.auth,
      });
      expect(res.statusCode, value).toBe(200);
    }
  });
});

describe('strings the database cannot store (U+0000)', () => {
  it('answer 400 naming the field, in a query, a JSON body or one of its keys, and store nothing', async () => {
    const query = await t.app.inject({ url: '/api/audit-log?actor=%00', headers: admin.auth });
    expect(query.statusCode).toBe(400);
    expect(query.json().message).toBe('query.actor must not contain the NUL character (U+0000)');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'admin\u0000@example.com', password: 'whatever-it-is' },
    });
    expect(login.json()).toEqual({
      message: 'body.email must not contain the NUL character (U+0000)',
    });
    const before = (await t.app.inject({ url: '/api/users', headers: admin.auth })).json().length;
    const user = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin.auth,
      payload: { name: 'Nul\u0000Person', email: 'nul@plant.example', password: 'long-enough-pw' },
    });
    expect(user.json().message).toBe('body.name must not contain the NUL character (U+0000)');
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/line-clearances',
      headers: admin.auth,
      payload: { name: 'Line', tags: [{ 'la\u0000bel': 'x' }] },
    });
    expect(key.json().message).toBe(
      'body.tags.0.la\\u0000bel must not contain the NUL character (U+0000)',
    );
    const after = (await t.app.inject({ url: '/api/users', headers: admin.auth })).json().length;
    expect(after).toBe(before);
  });

  it('are looked for without recursion: a body nested 100,000 deep is a 400 naming where, not a crash', async () => {
    const deep = `${'['.repeat(100_000)}"\\u0000"${']'.repeat(100_000)}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { ...admin.auth, 'content-type': 'application/json' },
      payload: deep,
    });
    expect(res.statusCode).toBe(400);
    // The walk stops at the first level too deep (text-guard.ts MAX_NESTING), before the NUL.
    expect(res.json().message).toMatch(/^body(\.0){33} is nested more than 32 levels deep$/);
  });
});

describe('half a character (a lone surrogate)', () => {
  it('answers 400 naming the field, where it would be stored as U+FFFD; a whole emoji passes', async () => {
    const line = (name: string, tags: object[] = []) =>
      t.app.inject({
        method: 'POST',
        url: '/api/line-clearances',
        headers: { ...admin.auth, 'content-type': 'application/json' },
        // Written as JSON text: a JS string literal would not keep the half on its own.
        payload: `{"name": "${name}", "tags": ${JSON.stringify(tags)}}`,
      });
    const refused = await line('Line \\ud83d');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'body.name contains half of a character (U+D83D, a lone surrogate), which cannot be stored as sent',
    );
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/line-clearances',
      headers: { ...admin.auth, 'content-type': 'application/json' },
      payload: '{"name": "Line", "tags": [{"la\\udc00bel": "x"}]}',
    });
    expect(key.json().message).toBe(
      'body.tags.0.la\\udc00bel contains half of a character (U+DC00, a lone surrogate), which cannot be stored as sent',
    );
    const whole = await line('Line \\ud83d\\udc8a');
    expect(whole.statusCode).toBe(201);
    expect(whole.json().name).toBe('Line 💊');
  });
});

describe('the U+0000 walk', () => {
  it('walks what JSON, queries and parameters parse into, never a parser’s stream or other objects', () => {
    const refused = (value: unknown, base: string) => refusedText(value, base, PARAMETER_RULES);
    const nul = (path: string) => `${path} must not contain the NUL character (U+0000)`;
    expect(refused({ a: [{ b: 'x\u0000' }] }, 'body')).toBe(nul('body.a.0.b'));
    expect(refused(Object.assign(Object.create(null), { q: '\u0000' }), 'query')).toBe(
      nul('query.q'),
    );
    const bare = Object.create(Object.create(null));
    expect(refused(Object.assign(bare, { q: '\u0000' }), 'query')).toBe(nul('query.q'));
    // A video upload's body is the request stream: its graph reaches the socket and loops.
    class Looped {
      self = this;
      text = '\u0000';
    }
    expect(refused(new Looped(), 'body')).toBeUndefined();
    expect(refused({ stream: new PassThrough() }, 'body')).toBeUndefined();
  });
});

describe('the data folder', () => {
  it('is created 0700, and an existing one open to others is closed', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-data-mode-'));
    try {
      const created = path.join(root, 'new');
      prepareDataDir(created);
      expect(fs.statSync(created).mode & 0o777).toBe(0o700);
      const open = path.join(root, 'open');
      fs.mkdirSync(open, { mode: 0o755 });
      fs.chmodSync(open, 0o755);
      prepareDataDir(open);
      expect(fs.statSync(open).mode & 0o777).toBe(0o700);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
