import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { seedEmptyDatabase } from './seed.ts';
import { build, type TestApp } from './test/build.ts';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const login = (app: TestApp, email: string, password: string) =>
  app.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });

describe('first start', () => {
  it('creates the configured admin and nothing else, once', async () => {
    t = await build({ ADMIN_EMAIL: 'Boss@Plant.example', ADMIN_PASSWORD: 'first-admin-pw' });
    expect(await seedEmptyDatabase(t.services.ctx, t.app.log)).toBeNull();
    expect(await seedEmptyDatabase(t.services.ctx, t.app.log)).toBeNull();
    const res = await login(t, 'boss@plant.example', 'first-admin-pw');
    expect(res.statusCode).toBe(200);
    const auth = { authorization: `Bearer ${res.json().token}` };
    const users = (await t.app.inject({ url: '/api/users', headers: auth })).json();
    expect(users).toEqual([
      expect.objectContaining({ email: 'boss@plant.example', role: ['admin'] }),
    ]);
    const videos = (await t.app.inject({ url: '/api/videos', headers: auth })).json();
    expect(videos).toEqual([]);
  });

  it.runIf(fs.existsSync(new URL('./demo/dataset.json', import.meta.url)))(
    'loads the demo dataset and answers the demo accounts to print',
    async () => {
      t = await build({ DEMO: 'on' });
      const banner = await seedEmptyDatabase(t.services.ctx, t.app.log);
      expect(banner).toMatch(/^Demo accounts \(password 'demo-password'\):/);
      expect(banner).toContain('admin@example.com');
      expect((await login(t, 'operator@example.com', 'demo-password')).statusCode).toBe(200);
      // A second start finds users and leaves the data alone.
      expect(await seedEmptyDatabase(t.services.ctx, t.app.log)).toBeNull();
    },
  );
});
