// The rule that an email address stays with the user who held it, in the database itself: the
// trigger of migration 0015 and its filling from the users and the trail.
import fs from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, auditLog, userEmails, users } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { build, type TestApp } from '../test/build.ts';
import { createUser, type TestUser } from '../test/fixtures.ts';
import { emailRefusal } from './users.ts';

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await build();
  admin = await createUser(t, 'admin', ['admin']);
});
afterAll(() => t.close());

const db = () => t.services.ctx.db;
const row = (id: string, email: string) => ({
  id,
  name: `Direct ${email}`,
  email,
  passwordHash: 'x',
  roles: ['operator' as const],
});
const uniqueViolation = expect.objectContaining({
  cause: expect.objectContaining({ code: '23505' }),
});
const api = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: admin.auth, ...(payload ? { payload } : {}) });
const held = async () =>
  Object.fromEntries(
    (await db().select().from(userEmails)).map((entry) => [entry.email, entry.userId]),
  );

describe('user_emails in the database', () => {
  it('a user written without the routes still cannot take another user’s former address', async () => {
    const first = newId();
    await db().insert(users).values(row(first, 'first@db.example'));
    await db().update(users).set({ email: 'first-new@db.example' }).where(eq(users.id, first));
    await expect(db().insert(users).values(row(newId(), 'FIRST@db.example'))).rejects.toThrow(
      uniqueViolation,
    );
    const second = newId();
    await db().insert(users).values(row(second, 'second@db.example'));
    await expect(
      db().update(users).set({ email: 'first@db.example' }).where(eq(users.id, second)),
    ).rejects.toThrow(uniqueViolation);
    // Its holder takes it back.
    await db().update(users).set({ email: 'first@db.example' }).where(eq(users.id, first));
    expect(await held()).toMatchObject({
      'first@db.example': first,
      'first-new@db.example': first,
      'second@db.example': second,
    });
    expect(await emailRefusal(db(), 'First-New@db.example', second)).toMatch(
      /^This email address belonged to another user \(Direct first@db\.example\); /,
    );
    expect(await emailRefusal(db(), 'first-new@db.example', first)).toBeNull();
  });

  it('migration 0015 fills it from the users and from the trail, the current holder first', async () => {
    const clear = () => db().execute(sql`delete from user_emails`);
    // Before the rule: qa1 moved away from its address and a second person got it.
    const qa1 = (await api('POST', '/api/users', person('qa1'))).json();
    await api('PUT', `/api/users/${qa1._id}`, { ...qa1, email: 'qa1-old@trail.example' });
    await clear();
    const second = (await api('POST', '/api/users', person('qa1', 'Someone Else'))).json();
    // A user who acted and was deleted; a service account's entry reserves nothing.
    const gone = (await api('POST', '/api/users', person('gone'))).json();
    await api('DELETE', `/api/users/${gone._id}`);
    const actor = newId();
    const key = newId();
    await db().insert(apiKeys).values({ id: key, name: 'slam', secretHash: 'x' });
    await db()
      .insert(auditLog)
      .values([
        { actorId: actor, actorEmail: 'Acted@Trail.example', action: 'login', entity: 'user' },
        { actorId: key, actorEmail: 'key@trail.example', action: 'file.ingest', entity: 'video' },
      ]);
    await clear();

    const migration = fs.readFileSync(
      new URL('../drizzle/0015_email-held-for-good.sql', import.meta.url),
      'utf8',
    );
    const fills = migration
      .split('--> statement-breakpoint')
      .filter((statement) => /INSERT INTO "user_emails"/.test(statement));
    expect(fills).toHaveLength(2);
    for (const statement of fills) await db().execute(sql.raw(statement));

    const after = await held();
    expect(after).toMatchObject({
      'qa1@trail.example': second._id,
      'qa1-old@trail.example': qa1._id,
      'gone@trail.example': gone._id,
      'acted@trail.example': actor,
      [admin.email]: admin.id,
    });
    expect(after).not.toHaveProperty('key@trail.example');
    // Every user holds its own current address.
    for (const user of await db().select().from(users)) expect(after[user.email]).toBe(user.id);
  });
});

function person(key: string, name = `Person ${key}`) {
  return { name, email: `${key}@trail.example`, password: 'long-enough-pw' };
}
