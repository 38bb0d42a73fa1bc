import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type TestApp } from './test/build.ts';
import { createUser, PASSWORD } from './test/fixtures.ts';

const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-dist-'));
let t: TestApp;

beforeAll(async () => {
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'assets', 'main.js'), 'console.log(1)');
  t = await build({ DIST_DIR: dist });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('one process serves the web app and the API', () => {
  it('serves built files and falls back to index.html for app routes', async () => {
    const asset = await t.app.inject({ url: '/assets/main.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    for (const url of ['/', '/admin', '/video/abc', '/inspection-report/1?x=2']) {
      const page = await t.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('<title>app</title>');
    }
  });

  it('answers a missing file with 404, not the app’s page', async () => {
    for (const url of ['/assets/chunk-1234.js', '/favicon-2.png?v=1']) {
      const missing = await t.app.inject({ url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.json().message).toBe(
        `No file ${url.split('?')[0]}: if the web app was built again, restart the server`,
      );
    }
    // An app route naming a file (a video by its file name) is still a page.
    expect((await t.app.inject({ url: '/video/lc1-20261103-081500.mp4' })).statusCode).toBe(200);
  });

  it('never falls back for /api or non-GET requests', async () => {
    const api = await t.app.inject({ url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'No route GET /api/nothing-here' });
    const post = await t.app.inject({ method: 'POST', url: '/admin' });
    expect(post.statusCode).toBe(404);
  });

  it('sends security headers and no stack traces', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain(
      "script-src 'self' 'wasm-unsafe-eval'",
    );
    expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('says how to build when dist/ is missing', async () => {
    const bare = await build();
    try {
      const page = await bare.app.inject({ url: '/admin' });
      expect(page.statusCode).toBe(404);
      expect(page.json().message).toMatch(/npm run build/);
    } finally {
      await bare.close();
    }
  });

  it('limits failed logins per client; successful ones never count', async () => {
    const limited = await build({ LOGIN_RATE_LIMIT: '3' });
    try {
      const user = await createUser(limited, 'often', ['operator']);
      for (let i = 0; i < 12; i++) {
        const ok = await limited.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: user.email, password: PASSWORD },
        });
        expect(ok.statusCode).toBe(200);
      }
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: 'a@b.c', password: 'wrong-password' },
        });
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
