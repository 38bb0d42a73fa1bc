// The own-password gate: while a user's password is one someone else chose, every authenticated
// route but those that set it refuses the user (docs/signatures.md, rule 3).
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../db/schema.ts';
import { build, type TestApp } from '../test/build.ts';
import { type CaptureLines, createCaptureLines, submission } from '../test/capture-fixture.ts';
import { createRoleUsers, OWN_PASSWORD, type RoleUsers } from '../test/fixtures.ts';
import { SET_OWN_PASSWORD_FIRST } from './auth-hook.ts';

let t: TestApp;
let u: RoleUsers;
let lines: CaptureLines;

beforeAll(async () => {
  t = await build();
  u = await createRoleUsers(t);
  lines = await createCaptureLines(t, u);
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A user made through the API with the password its maker chose, signed in with it. */
async function madeBy(maker: { authorization: string }, key: string, role: string) {
  const email = `${key}@plant.example`;
  const password = 'Plant-default-2026';
  const made = await t.app.inject({
    method: 'POST',
    url: '/api/users',
    headers: maker,
    payload: { name: `New ${key}`, email, password, role },
  });
  expect(made.statusCode).toBe(201);
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password },
  });
  expect(login.json().ownPassword).toBe(false);
  return {
    id: made.json()._id as string,
    password,
    token: login.json().token as string,
    cookie: String(login.headers['set-cookie']).split(';')[0] ?? '',
  };
}

const deniedEntries = (actorId: string) =>
  t.services.ctx.db
    .select({ newValue: auditLog.newValue })
    .from(auditLog)
    .where(and(eq(auditLog.actorId, actorId), eq(auditLog.action, 'authorization.denied')));

describe('a password someone else chose', () => {
  it('refuses everything but the session, the password change and the logout until the user sets its own', async () => {
    const operator = await madeBy(u.lc.auth, 'newcomer', 'operator');
    const auth = bearer(operator.token);
    let current = operator.token;
    const inspect = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/inspections',
        headers: bearer(current),
        payload: submission(lines.lineA),
      });
    for (const res of [
      await t.app.inject({ url: '/api/line-clearances', headers: auth }),
      await inspect(),
      // The media cookie of the sign-in opens no file either.
      await t.app.inject({ url: '/api/floorplans/plan.png', headers: { cookie: operator.cookie } }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: SET_OWN_PASSWORD_FIRST });
    }
    const me = await t.app.inject({ url: '/api/me', headers: auth });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: operator.id, ownPassword: false });
    // The app keeps the session while the user chooses a password (sign-out after inactivity).
    const renewed = await t.app.inject({
      method: 'POST',
      url: '/api/session/renew',
      headers: auth,
    });
    expect(renewed.statusCode).toBe(200);
    // It may leave (a second session of it, ended).
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'newcomer@plant.example', password: operator.password },
    });
    const out = bearer(second.json().token);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/logout', headers: out })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ url: '/api/me', headers: out })).statusCode).toBe(401);

    // A call the role does not allow is a role refusal, audited as ever; the gate's are not.
    const admin = await t.app.inject({ url: '/api/admin/videos', headers: auth });
    expect(admin.json()).toEqual({ message: 'You do not have permission for this action' });
    await t.services.ctx.refusals.flush();
    expect((await deniedEntries(operator.id)).map((entry) => entry.newValue)).toEqual([
      expect.objectContaining({ reason: 'role required: admin' }),
    ]);

    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/change-password',
      headers: auth,
      payload: { currentPassword: operator.password, newPassword: OWN_PASSWORD },
    });
    expect(changed.statusCode).toBe(200);
    current = changed.json().token;
    const listed = await t.app.inject({ url: '/api/line-clearances', headers: bearer(current) });
    expect(listed.statusCode).toBe(200);
    expect((await inspect()).statusCode).toBe(201);
  });

  it('guards every documented route but the session, the password change and the public ones', async () => {
    // An admin, whom no role rule stops first (the ingestion routes name it too).
    const admin = await madeBy(u.admin.auth, 'second-admin', 'admin');
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const served: string[] = [];
    const publicRoutes: string[] = [];
    for (const [route, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const name = `${method.toUpperCase()} ${route}`;
        // Public routes never look at the token (logging out would end this session).
        if (operation.security?.length === 0) {
          publicRoutes.push(name);
          continue;
        }
        const res = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url: route.replaceAll(/\{[^}]+\}/g, 'a'.repeat(24)),
          headers: bearer(admin.token),
        });
        const gated =
          res.statusCode === 403 &&
          (method === 'head' || res.body.includes(SET_OWN_PASSWORD_FIRST));
        if (!gated) served.push(name);
      }
    }
    expect(served.sort()).toEqual([
      'GET /api/me',
      'POST /api/change-password',
      'POST /api/session/renew',
    ]);
    expect(publicRoutes.sort()).toEqual([
      'GET /api/health',
      'GET /api/instance',
      'POST /api/login',
      'POST /api/logout',
    ]);
  });
});
