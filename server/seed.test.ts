import fs from 'node:fs';
import { eq, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import type { AppContext } from './context.ts';
import type { Db } from './db/client.ts';
import { auditLog, users } from './db/schema.ts';
import { SET_OWN_PASSWORD_FIRST } from './http/auth-hook.ts';
import { seedEmptyDatabase } from './seed.ts';
import { build, type TestApp } from './test/build.ts';
import { OWN_PASSWORD, signInWithOwnPassword } from './test/fixtures.ts';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

// The tests that only call the seed share one empty database (an app costs seconds to build).
let empty: TestApp;
beforeAll(async () => {
  empty = await build();
});
afterAll(() => empty.close());

/**
 * Runs `body` on the shared empty database configured with `env`, inside a transaction rolled back
 * after it: the next test finds the database empty again, whatever the order.
 */
async function inEmptyDatabase(
  env: Record<string, string>,
  body: (ctx: AppContext, log: TestApp['app']['log']) => Promise<void>,
) {
  const { ctx } = empty.services;
  const config = loadConfig({ ...empty.env, ...env });
  await ctx.db
    .transaction(async (tx) => {
      await body({ ...ctx, config, db: tx as unknown as Db }, empty.app.log);
      tx.rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof TransactionRollbackError)) throw error;
    });
}

const login = (app: TestApp, email: string, password: string) =>
  app.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });

describe('first start', () => {
  it('refuses an empty database with DEMO=off and no first admin: nobody could sign in', async () => {
    await inEmptyDatabase({ DEMO: 'off' }, async (ctx, log) => {
      await expect(seedEmptyDatabase(ctx, log)).rejects.toThrow(
        'The database is empty and DEMO=off, so nobody could sign in: set ADMIN_EMAIL and ADMIN_PASSWORD for a first admin (or DEMO=on for the demo data)',
      );
    });
  });

  it('says it ignores ADMIN_EMAIL and ADMIN_PASSWORD on a database that has users', async () => {
    const env = { ADMIN_EMAIL: 'boss@plant.example', ADMIN_PASSWORD: 'first-admin-pw' };
    await inEmptyDatabase(env, async (ctx, appLog) => {
      await seedEmptyDatabase(ctx, appLog);
      const warnings: string[] = [];
      const log = { ...appLog, warn: (message: string) => warnings.push(message) };
      expect(await seedEmptyDatabase(ctx, log as typeof appLog)).toBeNull();
      expect(warnings).toEqual([
        'ADMIN_EMAIL and ADMIN_PASSWORD are used only on an empty database: this one has users, so they were ignored',
      ]);
    });
  });

  it('creates the configured admin and nothing else, once', async () => {
    t = await build({ ADMIN_EMAIL: 'Boss@Plant.example', ADMIN_PASSWORD: 'first-admin-pw' });
    expect(await seedEmptyDatabase(t.services.ctx, t.app.log)).toBeNull();
    expect(await seedEmptyDatabase(t.services.ctx, t.app.log)).toBeNull();
    const { auth } = await signInWithOwnPassword(t, 'boss@plant.example', 'first-admin-pw');
    const users = (await t.app.inject({ url: '/api/users', headers: auth })).json();
    expect(users).toEqual([
      expect.objectContaining({
        name: 'Administrator',
        email: 'boss@plant.example',
        role: ['admin'],
      }),
    ]);
    const videos = (await t.app.inject({ url: '/api/videos', headers: auth })).json();
    expect(videos).toEqual([]);
  });

  it('asks the first admin for a password of its own: ADMIN_PASSWORD lives in service files', async () => {
    t = await build({ ADMIN_EMAIL: 'boss@plant.example', ADMIN_PASSWORD: 'first-admin-pw' });
    await seedEmptyDatabase(t.services.ctx, t.app.log);
    const res = await login(t, 'boss@plant.example', 'first-admin-pw');
    expect(res.json().ownPassword).toBe(false);
    const auth = { authorization: `Bearer ${res.json().token}` };
    const refused = await t.app.inject({ url: '/api/users', headers: auth });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: SET_OWN_PASSWORD_FIRST });
    // Set "by itself, through the deployment": the signing rule about operators whose password
    // the signer chose never meets it (nobody signs an inspection of their own).
    const [admin] = await t.services.ctx.db.select().from(users);
    expect(admin?.passwordSetBy).toBe(admin?.id);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/change-password',
      headers: auth,
      payload: { currentPassword: 'first-admin-pw', newPassword: OWN_PASSWORD },
    });
    expect(changed.statusCode).toBe(200);
    const me = await t.app.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${changed.json().token}` },
    });
    expect(me.json().ownPassword).toBe(true);
  });

  it('names the first admin ADMIN_NAME: a signature prints a person, not a role', async () => {
    t = await build({
      ADMIN_EMAIL: 'boss@plant.example',
      ADMIN_PASSWORD: 'first-admin-pw',
      ADMIN_NAME: '  Dana Whitfield ',
    });
    await seedEmptyDatabase(t.services.ctx, t.app.log);
    const { auth } = await signInWithOwnPassword(t, 'boss@plant.example', 'first-admin-pw');
    const me = (await t.app.inject({ url: '/api/me', headers: auth })).json();
    expect(me).toMatchObject({ name: 'Dana Whitfield', ownPassword: true });
    const [created] = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'create'));
    expect(created?.newValue).toMatchObject({ name: 'Dana Whitfield' });
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
