import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type TestApp } from '../test/build.ts';
import { createRoleUsers, type RoleUsers } from '../test/fixtures.ts';

let t: TestApp;
let u: RoleUsers;

beforeAll(async () => {
  t = await build();
  u = await createRoleUsers(t);
});
afterAll(() => t.close());

const post = (auth: { authorization: string }, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/users', headers: auth, payload });
const person = (key: string, role?: unknown) => ({
  name: `Person ${key}`,
  email: `${key}@plant.example`,
  password: 'long-enough-pw',
  ...(role === undefined ? {} : { role }),
});

describe('users', () => {
  it('lists without secrets; operators see only themselves', async () => {
    const all = await t.app.inject({ url: '/api/users', headers: u.audit.auth });
    expect(all.json()).toHaveLength(7);
    expect(JSON.stringify(all.json())).not.toMatch(/passwordHash|scrypt|tokenVersion/);
    const own = await t.app.inject({ url: '/api/users', headers: u.operator.auth });
    expect(own.json()).toEqual([
      expect.objectContaining({ _id: u.operator.id, id: u.operator.id, role: ['operator'] }),
    ]);
  });

  it('creates with the default role operator; duplicate email is 409', async () => {
    const res = await post(u.admin.auth, person('newbie'));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ role: ['operator'], email: 'newbie@plant.example' });
    const again = await post(u.admin.auth, { ...person('newbie'), email: 'NEWBIE@plant.example' });
    expect(again.statusCode).toBe(409);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'newbie@plant.example', password: 'long-enough-pw' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('an LC manager creates operators only; a factory manager cannot create admins', async () => {
    expect((await post(u.lc.auth, person('op-by-lc', 'operator'))).statusCode).toBe(201);
    expect((await post(u.lc.auth, person('aud-by-lc', 'audit'))).statusCode).toBe(403);
    expect((await post(u.factory.auth, person('lcm', ['lc_manager']))).statusCode).toBe(201);
    expect((await post(u.factory.auth, person('adm', 'admin'))).statusCode).toBe(403);
    expect((await post(u.operator.auth, person('x'))).statusCode).toBe(403);
  });

  it('400 names the field: bad email, short password, legacy role label', async () => {
    expect((await post(u.admin.auth, { ...person('a'), email: 'nope' })).json().message).toMatch(
      /^body\.email /,
    );
    expect(
      (await post(u.admin.auth, { ...person('b'), password: 'short' })).json().message,
    ).toMatch(/^body\.password /);
    const legacy = await post(u.admin.auth, person('c', 'manager'));
    expect(legacy.statusCode).toBe(400);
    expect(legacy.json().message).toMatch(/^body\.role /);
  });

  it('a role change revokes the user’s tokens; the LC manager cannot edit non-operators', async () => {
    const target = (await post(u.admin.auth, person('promote'))).json();
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: target.email, password: 'long-enough-pw' },
    });
    const auth = { authorization: `Bearer ${login.json().token}` };
    expect((await t.app.inject({ url: '/api/me', headers: auth })).statusCode).toBe(200);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${target._id}`,
      headers: u.admin.auth,
      payload: { ...target, role: 'audit' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().role).toEqual(['audit']);
    expect((await t.app.inject({ url: '/api/me', headers: auth })).statusCode).toBe(401);
    const byLc = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${target._id}`,
      headers: u.lc.auth,
      payload: { ...target, name: 'x' },
    });
    expect(byLc.statusCode).toBe(403);
  });

  it('deletes (tokens die with the user); never oneself, never the last admin', async () => {
    const victim = (await post(u.admin.auth, person('victim'))).json();
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${victim._id}`,
      headers: u.lc.auth,
    });
    expect(del.statusCode).toBe(200);
    const self = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${u.admin.id}`,
      headers: u.admin.auth,
    });
    expect(self.statusCode).toBe(409);
    const demote = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${u.admin.id}`,
      headers: u.admin.auth,
      payload: { name: 'Admin', email: u.admin.email, role: 'audit' },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toBe('The last admin cannot be removed');
    const deleted = await t.app.inject({ url: '/api/me', headers: u.operator2.auth });
    expect(deleted.statusCode).toBe(200);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${u.operator2.id}`,
      headers: u.admin.auth,
    });
    expect((await t.app.inject({ url: '/api/me', headers: u.operator2.auth })).statusCode).toBe(
      401,
    );
  });
});
