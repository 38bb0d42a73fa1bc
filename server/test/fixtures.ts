// Users of every role for tests, created straight in the database, with a token each.
import { inspections, lineClearances } from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { Role } from '../schemas/common.ts';
import { insertUser } from '../services/users.ts';
import type { TestApp } from './build.ts';

export const PASSWORD = 'correct-horse-battery';

export interface TestUser {
  id: string;
  email: string;
  roles: Role[];
  token: string;
  auth: { authorization: string };
}

export async function createUser(t: TestApp, key: string, roles: Role[]): Promise<TestUser> {
  const { ctx } = t.services;
  const row = await insertUser(ctx.db, ctx.passwords, {
    name: `Test ${key}`,
    email: `${key}@test.example`,
    password: PASSWORD,
    roles,
  });
  const token = await ctx.tokens.sign(row);
  return { id: row.id, email: row.email, roles, token, auth: { authorization: `Bearer ${token}` } };
}

/** One user per role plus a second operator and LC manager (for "other users' objects"). */
export async function createRoleUsers(t: TestApp) {
  return {
    admin: await createUser(t, 'admin', ['admin']),
    factory: await createUser(t, 'factory', ['factory_manager']),
    lc: await createUser(t, 'lc', ['lc_manager']),
    lc2: await createUser(t, 'lc2', ['lc_manager']),
    audit: await createUser(t, 'audit', ['audit']),
    operator: await createUser(t, 'operator', ['operator']),
    operator2: await createUser(t, 'operator2', ['operator']),
  };
}
export type RoleUsers = Awaited<ReturnType<typeof createRoleUsers>>;

/**
 * A pending inspection without a video (it can be rejected, not approved) by a new operator, on a
 * new line the LC manager `managerId` manages: answers its id.
 */
export async function pendingInspection(t: TestApp, managerId: string): Promise<string> {
  const { db } = t.services.ctx;
  const operator = await createUser(t, `op-${newId().slice(0, 8)}`, ['operator']);
  const line = newId();
  const id = newId();
  await db.insert(lineClearances).values({ id: line, name: `Line ${line}`, managerId });
  await db.insert(inspections).values({
    id,
    lineClearanceId: line,
    operatorId: operator.id,
    startTime: new Date('2026-01-02T08:00:00Z'),
    operatorNotes: 'all clear',
  });
  return id;
}

/** The password a test's user chooses for itself once someone else chose its first one. */
export const OWN_PASSWORD = 'one-of-my-own-7';

/**
 * Signs in as a user whose password someone else chose (an account made, or a password reset,
 * through the API) and sets its own, as the server asks before anything else (auth-hook.ts):
 * answers the session's fresh token. Not for a user whose password is already its own.
 */
export async function signInWithOwnPassword(
  t: TestApp,
  email: string,
  chosenPassword: string,
  ownPassword = OWN_PASSWORD,
): Promise<{ token: string; auth: { authorization: string } }> {
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password: chosenPassword },
  });
  if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
  const change = await t.app.inject({
    method: 'POST',
    url: '/api/change-password',
    headers: { authorization: `Bearer ${login.json().token}` },
    payload: { currentPassword: chosenPassword, newPassword: ownPassword },
  });
  if (change.statusCode !== 200)
    throw new Error(`own password: ${change.statusCode} ${change.body}`);
  const { token } = change.json() as { token: string };
  return { token, auth: { authorization: `Bearer ${token}` } };
}
