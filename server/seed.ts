// First start on an empty database: create the configured admin, or load the demo dataset.
import fs from 'node:fs';
import { count } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { audit } from './audit/audit.ts';
import { ConfigError } from './config.ts';
import type { AppContext } from './context.ts';
import { users } from './db/schema.ts';
import type { DemoDataset } from './demo/dataset-types.ts';
import { DEMO_PASSWORD, loadDemo } from './demo/load-demo.ts';
import { newId } from './ids.ts';
import { insertUser } from './services/users.ts';

const DEMO_DIR = new URL('./demo/', import.meta.url);

/** Seeds an empty database; answers a message for the console (the demo accounts), if any. */
export async function seedEmptyDatabase(
  ctx: AppContext,
  log: FastifyBaseLogger,
): Promise<string | null> {
  const [row] = await ctx.db.select({ n: count() }).from(users);
  const { adminEmail, adminPassword, adminName } = ctx.config;
  if ((row?.n ?? 0) > 0) {
    // Said, not silently ignored: an operator who set them expects them to mean something.
    if (adminEmail) {
      log.warn(
        'ADMIN_EMAIL and ADMIN_PASSWORD are used only on an empty database: this one has users, so they were ignored',
      );
    }
    return null;
  }
  if (adminEmail && adminPassword) {
    await ctx.db.transaction(async (tx) => {
      // ADMIN_PASSWORD lives in service files and shell history, so it is not the admin's own:
      // set "by itself, through the deployment", it asks for a new one at the first sign-in and
      // signs nothing until then. The signing rule 'not for an operator whose password you set'
      // never meets it: nobody signs an inspection of their own (docs/signatures.md, rule 2).
      const id = newId();
      const admin = await insertUser(tx, ctx.passwords, {
        id,
        name: adminName,
        email: adminEmail,
        password: adminPassword,
        roles: ['admin'],
        passwordSetBy: id,
      });
      await audit(tx, null, {
        action: 'create',
        entity: 'user',
        entityId: admin.id,
        newValue: { name: admin.name, email: admin.email, roles: admin.roles },
      });
    });
    log.info(`Created the first admin ${adminEmail}`);
    return null;
  }
  if (!ctx.config.demo) {
    throw new ConfigError([
      'The database is empty and DEMO=off, so nobody could sign in: set ADMIN_EMAIL and ADMIN_PASSWORD for a first admin (or DEMO=on for the demo data)',
    ]);
  }
  const datasetFile = new URL('dataset.json', DEMO_DIR);
  if (!fs.existsSync(datasetFile)) {
    log.warn(
      'The demo dataset (server/demo/dataset.json) is missing; starting with an empty database',
    );
    return null;
  }
  const dataset = JSON.parse(fs.readFileSync(datasetFile, 'utf8')) as DemoDataset;
  await loadDemo(ctx, dataset, new URL('files/', DEMO_DIR).pathname);
  const accounts = dataset.users.map((u) => `  ${u.email.padEnd(28)} ${u.roles.join(', ')}`);
  log.info('Loaded the demo dataset');
  return `Demo accounts (password '${DEMO_PASSWORD}'):\n${accounts.join('\n')}`;
}
