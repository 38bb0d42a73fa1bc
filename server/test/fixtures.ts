// Users of every role for tests, created straight in the database, with a token each.
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
