import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, dispositions, inspections, lineClearances } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { PREFILLED_PASSWORD } from '../schemas/password-rule.ts';
import { build, type TestApp } from '../test/build.ts';
import { createRoleUsers, type RoleUsers } from '../test/fixtures.ts';
import { insertVideo, listed } from '../test/named-records-fixture.ts';

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

  it('gives a new user an id of its own: one in the body is not taken', async () => {
    const deleted = await post(u.admin.auth, person('former'));
    const formerId = deleted.json()._id;
    await t.app.inject({ method: 'DELETE', url: `/api/users/${formerId}`, headers: u.admin.auth });
    // '*' was the video list cache's key for the managers' view; a former user's id would file a
    // second person under its trail; any other id could not be managed through the API.
    for (const id of ['*', formerId, 'ghost-1']) {
      const res = await post(u.lc.auth, { ...person(`chosen-${id.length}`), id, _id: id });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()._id).toMatch(/^[0-9a-f]{24}$/);
      expect(res.json()._id).not.toBe(id);
    }
  });

  it('an LC manager creates operators only; a factory manager cannot create admins', async () => {
    expect((await post(u.lc.auth, person('op-by-lc', 'operator'))).statusCode).toBe(201);
    expect((await post(u.lc.auth, person('aud-by-lc', 'audit'))).statusCode).toBe(403);
    expect((await post(u.factory.auth, person('lcm', ['lc_manager']))).statusCode).toBe(201);
    expect((await post(u.factory.auth, person('adm', 'admin'))).statusCode).toBe(403);
    expect((await post(u.operator.auth, person('x'))).statusCode).toBe(403);
  });

  it('400 names the field: bad email, short password, legacy role label', async () => {
    expect((await post(u.admin.auth, { ...person('a'), email: 'nope' })).json().message).toBe(
      'body.email must be an email address (name@domain)',
    );
    expect(
      (await post(u.admin.auth, { ...person('b'), password: 'short' })).json().message,
    ).toMatch(/^body\.password /);
    const legacy = await post(u.admin.auth, person('c', 'manager'));
    expect(legacy.statusCode).toBe(400);
    // The roles there are, not "must be equal to constant".
    expect(legacy.json().message).toMatch(/^body\.role must be one of: admin, factory_manager, /);
  });

  it('400 names a name or an email that hides a character: a line break, a tab, a zero-width space', async () => {
    const oneLine =
      'must be one line without control or invisible characters (line breaks, tabs, zero-width spaces, direction marks)';
    for (const name of ['Pat\nDoe', 'Pat\tDoe', 'Pat\u200bDoe', 'Pat\u0085Doe', '\ufeffPat Doe']) {
      const res = await post(u.admin.auth, { ...person('hidden'), name });
      expect(res.json(), JSON.stringify(name)).toEqual({ message: `body.name ${oneLine}` });
    }
    for (const email of ['pat\u200b@plant.example', 'pat@plant\u2060.example']) {
      const res = await post(u.admin.auth, { ...person('hidden'), email });
      expect(res.json().message, JSON.stringify(email)).toBe(
        'body.email must be an email address (name@domain)',
      );
    }
    // A Persian name keeps its zero-width non-joiner, which its spelling needs.
    const persian = await post(u.admin.auth, { ...person('persian'), name: 'نیک\u200cنام' });
    expect(persian.statusCode).toBe(201);
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
    const line = await t.app.inject({
      method: 'POST',
      url: '/api/line-clearances',
      headers: u.lc.auth,
      payload: { name: 'Line of lc' },
    });
    const victim = (
      await post(u.admin.auth, { ...person('victim'), lineClearanceIds: [line.json()._id] })
    ).json();
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

describe('an LC manager manages the operators of its own lines only', () => {
  let lineOfLc: string;
  let lineOfLc2: string;
  const line = async (auth: { authorization: string }, name: string) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/line-clearances',
        headers: auth,
        payload: { name },
      })
    ).json()._id as string;
  const put = (auth: { authorization: string }, id: string, payload: object) =>
    t.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: auth, payload });

  beforeAll(async () => {
    lineOfLc = await line(u.lc.auth, 'Blister 1');
    lineOfLc2 = await line(u.lc2.auth, 'Bottling 2');
  });

  it('cannot take over an operator: no password or email, whatever the line', async () => {
    const own = (
      await post(u.admin.auth, { ...person('own-op'), lineClearanceIds: [lineOfLc2] })
    ).json();
    const other = (
      await post(u.admin.auth, { ...person('other-op'), lineClearanceIds: [lineOfLc] })
    ).json();
    // lc2 manages `own` (its line) but may not set its password or email.
    const reset = await put(u.lc2.auth, own._id, { ...own, password: 'taken-over-1' });
    expect(reset.statusCode).toBe(403);
    const email = await put(u.lc2.auth, own._id, { ...own, email: 'mine@evil.example' });
    expect(email.statusCode).toBe(403);
    expect((await put(u.lc2.auth, own._id, { ...own, name: 'Renamed' })).statusCode).toBe(200);
    // `other` works on lc's line: lc2 may not touch it at all.
    expect((await put(u.lc2.auth, other._id, { ...other, name: 'x' })).statusCode).toBe(403);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: own.email, password: 'taken-over-1' },
    });
    expect(login.statusCode).toBe(401);
  });

  it('admins and factory managers reset passwords and emails, revoking the tokens', async () => {
    const target = (await post(u.admin.auth, person('reset-me'))).json();
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: target.email, password: 'long-enough-pw' },
    });
    const auth = { authorization: `Bearer ${login.json().token}` };
    const reset = await put(u.factory.auth, target._id, { ...target, password: 'reset-by-fm-1' });
    expect(reset.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/me', headers: auth })).statusCode).toBe(401);
    const audit = await t.app.inject({
      url: `/api/audit-log?entity=user&entityId=${target._id}`,
      headers: u.audit.auth,
    });
    expect(audit.json()[0]).toMatchObject({
      action: 'update',
      actorId: u.factory.id,
      newValue: expect.objectContaining({ passwordReset: true }),
    });
  });

  it('refuses a password a guesser tries first, set by a create or a reset: 400 naming body.password', async () => {
    const refusal = /^body\.password is too common or too easy to guess \(.*\); choose another$/;
    const created = await post(u.admin.auth, { ...person('guessable'), password: 'Password1!' });
    expect(created.statusCode).toBe(400);
    expect(created.json().message).toMatch(refusal);
    // The create form's published prefill (spec §9): whoever signed in first would own the account.
    const prefilled = await post(u.admin.auth, {
      ...person('prefilled'),
      password: PREFILLED_PASSWORD,
    });
    expect(prefilled.statusCode).toBe(400);
    expect(prefilled.json().message).toMatch(refusal);
    const target = (await post(u.admin.auth, person('guessable-reset'))).json();
    const reset = await put(u.factory.auth, target._id, { ...target, password: '12345678' });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().message).toMatch(refusal);
    // The reset changed nothing: the password it was to replace still signs in.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: target.email, password: 'long-enough-pw' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('a reset keeps its reason in its entry; a reason that says nothing resets nothing', async () => {
    const target = (await post(u.admin.auth, person('reset-why'))).json();
    const vague = await put(u.admin.auth, target._id, {
      ...target,
      password: 'reset-for-why-1',
      reason: 'reset',
    });
    expect(vague.statusCode).toBe(400);
    expect(vague.json().message).toMatch(/^body\.reason must say why the user is changed/);
    const signIn = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: target.email, password },
      });
    expect((await signIn('reset-for-why-1')).statusCode).toBe(401);
    const reason = 'Forgot it after the holidays';
    const reset = await put(u.admin.auth, target._id, {
      ...target,
      password: 'reset-for-why-1',
      reason,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const audit = await t.app.inject({
      url: `/api/audit-log?entity=user&entityId=${target._id}`,
      headers: u.audit.auth,
    });
    expect(audit.json()[0]).toMatchObject({
      action: 'update',
      reason,
      newValue: expect.objectContaining({ passwordReset: true }),
    });
    expect((await signIn('reset-for-why-1')).statusCode).toBe(200);
  });

  it('new operators of an LC manager work on its lines; it assigns only its own', async () => {
    const created = await post(u.lc.auth, person('lc-made'));
    expect(created.json().lineClearanceIds).toContain(lineOfLc);
    expect(created.json().lineClearanceIds).not.toContain(lineOfLc2);
    const elsewhere = await post(u.lc.auth, {
      ...person('lc-made-2'),
      lineClearanceIds: [lineOfLc2],
    });
    expect(elsewhere.statusCode).toBe(403);
    // Listing another line's operator on its own line would hand it the account: refused.
    const other = (
      await post(u.admin.auth, { ...person('b-op'), lineClearanceIds: [lineOfLc2] })
    ).json();
    const grab = await t.app.inject({
      method: 'PUT',
      url: `/api/line-clearances/${lineOfLc}`,
      headers: u.lc.auth,
      payload: { name: 'Blister 1', assignedOperators: [other._id] },
    });
    expect(grab.statusCode).toBe(403);
  });

  it('changes a shared operator’s lines among its own only: the other manager’s stay', async () => {
    const shared = (
      await post(u.admin.auth, { ...person('shared-op'), lineClearanceIds: [lineOfLc, lineOfLc2] })
    ).json();
    // lc removes its own line, sending none: lc2's line stays, and lc no longer manages it.
    const removed = await put(u.lc.auth, shared._id, { ...shared, lineClearanceIds: [] });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().lineClearanceIds).toEqual([lineOfLc2]);
    expect((await put(u.lc.auth, shared._id, { ...shared, name: 'x' })).statusCode).toBe(403);
    // lc2 adds lc's line back: refused, and nothing changed.
    const grab = await put(u.lc2.auth, shared._id, {
      ...shared,
      lineClearanceIds: [lineOfLc2, lineOfLc],
    });
    expect(grab.statusCode).toBe(403);
    const refusal = await t.app.inject({
      url: `/api/audit-log?action=authorization.denied&actor=${u.lc2.id}&limit=1`,
      headers: u.audit.auth,
    });
    expect(refusal.json()[0].newValue).toMatchObject({
      reason: 'may only assign the lines this manager manages',
    });
    const after = await t.app.inject({ url: '/api/users', headers: u.admin.auth });
    const row = after.json().find((user: { _id: string }) => user._id === shared._id);
    expect(row.lineClearanceIds).toEqual([lineOfLc2]);
    // An admin puts lc's line back; lc2 sends only its own line and keeps lc's. Each sends the
    // user as it is now (a copy from before a change is refused: 'Versions').
    const back = await put(u.admin.auth, shared._id, {
      ...row,
      lineClearanceIds: [lineOfLc, lineOfLc2],
    });
    expect(back.statusCode).toBe(200);
    const own = await put(u.lc2.auth, shared._id, {
      ...back.json(),
      lineClearanceIds: [lineOfLc2],
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().lineClearanceIds).toEqual([lineOfLc, lineOfLc2]);
  });

  it('changes a shared operator itself (name, status, delete) only through an admin or factory manager', async () => {
    const shared = (
      await post(u.admin.auth, { ...person('both-lines'), lineClearanceIds: [lineOfLc, lineOfLc2] })
    ).json();
    const message = `The user also works on Bottling 2, a line you do not manage: only an admin or a factory manager changes or deletes the account itself`;
    for (const change of [{ name: 'Renamed' }, { status: 'deactivated' }]) {
      const res = await put(u.lc.auth, shared._id, { ...shared, ...change });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(message);
    }
    const removal = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${shared._id}`,
      headers: u.lc.auth,
    });
    expect(removal.statusCode).toBe(403);
    // Its own lines it still assigns; the account stays as it was.
    const own = await put(u.lc.auth, shared._id, { ...shared, lineClearanceIds: [lineOfLc] });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ name: shared.name, status: 'active' });
    // A factory manager oversees both lines and renames it.
    const renamed = await put(u.factory.auth, shared._id, { ...shared, name: 'Renamed' });
    expect(renamed.statusCode).toBe(200);
  });

  it('a user named in an inspection is deactivated, never deleted', async () => {
    const op = (
      await post(u.admin.auth, { ...person('evidence'), lineClearanceIds: [lineOfLc] })
    ).json();
    await t.services.ctx.db.insert(inspections).values({
      id: newId(),
      lineClearanceId: lineOfLc,
      operatorId: op._id,
      startTime: new Date(),
    });
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${op._id}`,
      headers: u.lc.auth,
    });
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toMatch(/deactivate the account instead/);
    const off = await put(u.lc.auth, op._id, { ...op, status: 'deactivated' });
    expect(off.json()).toMatchObject({ status: 'deactivated' });
  });

  it('a reviewer named only by a detection disposition, or the LC manager of a line, is not deleted', async () => {
    const remove = (id: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/users/${id}`, headers: u.admin.auth });
    const reviewer = (await post(u.admin.auth, person('disposer', ['factory_manager']))).json();
    const inspectionId = newId();
    await t.services.ctx.db.insert(inspections).values({
      id: inspectionId,
      lineClearanceId: lineOfLc,
      operatorId: u.operator.id,
      startTime: new Date(),
    });
    await t.services.ctx.db.insert(dispositions).values({
      inspectionId,
      predictionId: newId(),
      disposition: 'dismissed',
      reason: 'reflection on the floor',
      reviewerId: reviewer._id,
      reviewerName: reviewer.name,
      at: new Date(),
    });
    const named = await remove(reviewer._id);
    expect(named.statusCode).toBe(409);
    expect(named.json().message).toBe(
      'This user is named in detection dispositions and cannot be deleted; deactivate the account instead',
    );
    // The attempt is in the trail, filed under the user the records name.
    await t.services.ctx.refusals.flush();
    const attempts = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, reviewer._id), eq(auditLog.action, 'evidence.protected')));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      entity: 'user',
      newValue: { reason: named.json().message, route: 'DELETE /api/users/:id' },
    });

    const manager = (await post(u.admin.auth, person('manager', ['lc_manager']))).json();
    await t.services.ctx.db.insert(lineClearances).values({
      id: newId(),
      name: 'Blister line 9',
      managerId: manager._id,
    });
    const managing = await remove(manager._id);
    expect(managing.statusCode).toBe(409);
    expect(managing.json().message).toBe(
      'This user is the LC manager of Blister line 9; give those lines another LC manager first',
    );
    const users = await t.app.inject({ url: '/api/users', headers: u.admin.auth });
    const ids = users.json().map((user: { _id: string }) => user._id);
    expect(ids).toEqual(expect.arrayContaining([reviewer._id, manager._id]));
  });
});

describe('the list says which records name each user, as its deletion counts them', () => {
  it('counts each kind for those who may delete users; the delete refuses a user it counts', async () => {
    const { db } = t.services.ctx;
    const named = (await post(u.admin.auth, person('counted'))).json();
    const unnamed = (await post(u.admin.auth, person('uncounted'))).json();
    const lineId = newId();
    const startTime = new Date();
    // Two inspections it performed (it reviewed one of them itself: counted once) and one it
    // reviewed, and a video it recorded.
    await db.insert(inspections).values([
      { id: newId(), lineClearanceId: lineId, operatorId: named._id, startTime },
      {
        id: newId(),
        lineClearanceId: lineId,
        operatorId: named._id,
        reviewerId: named._id,
        startTime,
      },
      {
        id: newId(),
        lineClearanceId: lineId,
        operatorId: u.operator.id,
        reviewerId: named._id,
        startTime,
      },
    ]);
    await insertVideo(t, { userId: named._id });
    const list = (auth: { authorization: string }) => listed(t, '/api/users', auth);
    const none = {
      inspections: 0,
      videos: 0,
      signatures: 0,
      dispositions: 0,
      deviceRegistrations: 0,
    };
    for (const manager of [u.admin, u.factory, u.lc]) {
      const users = await list(manager.auth);
      expect(users.find((user) => user._id === named._id)?.namedIn).toEqual({
        ...none,
        inspections: 3,
        videos: 1,
      });
      expect(users.find((user) => user._id === unnamed._id)?.namedIn).toEqual(none);
    }
    // Those who delete no user are not sent them.
    for (const other of [u.audit, u.operator]) {
      expect((await list(other.auth)).filter((user) => 'namedIn' in user)).toEqual([]);
    }
    const remove = (id: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/users/${id}`, headers: u.admin.auth });
    const refused = await remove(named._id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This user is named in inspections and videos and cannot be deleted; deactivate the account instead',
    );
    expect((await remove(unnamed._id)).statusCode).toBe(200);
  });
});

describe('an email address stays with the user who held it (21 CFR 11.100(a))', () => {
  const put = (auth: { authorization: string }, id: string, payload: object) =>
    t.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: auth, payload });
  const belonged = (name: string) =>
    `This email address belonged to another user (${name}); an email address is never given to a second person (21 CFR 11.100)`;

  it('a deactivated user’s former email is refused to a new user, and to another user by a change', async () => {
    const qa1 = (await post(u.admin.auth, person('qa1'))).json();
    // The QA finding: deactivate, move its email away, then hand the address to someone else.
    const moved = await put(u.admin.auth, qa1._id, {
      ...qa1,
      status: 'deactivated',
      email: 'qa1-old@plant.example',
    });
    expect(moved.statusCode).toBe(200);
    const created = await post(u.admin.auth, {
      ...person('someone-else'),
      name: 'Someone Else',
      email: 'QA1@plant.example',
    });
    expect(created.statusCode).toBe(409);
    expect(created.json().message).toBe(belonged('Person qa1'));
    const otherRes = await post(u.factory.auth, person('not-qa1'));
    expect(otherRes.statusCode, otherRes.body).toBe(201);
    const other = otherRes.json();
    const given = await put(u.factory.auth, other._id, { ...other, email: 'qa1@plant.example' });
    expect(given.statusCode, given.body).toBe(409);
    expect(given.json().message).toBe(belonged('Person qa1'));
    // Nothing changed: the address is still nobody's login, the other user keeps its own.
    const users = (await t.app.inject({ url: '/api/users', headers: u.admin.auth })).json() as {
      email: string;
    }[];
    expect(users.map((user) => user.email)).not.toContain('qa1@plant.example');
    expect(users.map((user) => user.email)).toContain('not-qa1@plant.example');
  });

  it('its holder may take an old address back, and then the newer one stays its own too', async () => {
    const sofia = (await post(u.admin.auth, person('sofia'))).json();
    const renamed = await put(u.admin.auth, sofia._id, {
      ...sofia,
      email: 'sofia.old@plant.example',
    });
    expect(renamed.statusCode).toBe(200);
    const back = await put(u.admin.auth, sofia._id, {
      ...renamed.json(),
      email: 'Sofia@plant.example',
    });
    expect(back.statusCode).toBe(200);
    expect(back.json().email).toBe('sofia@plant.example');
    const taken = await post(u.admin.auth, { ...person('x2'), email: 'sofia.old@plant.example' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(belonged('Person sofia'));
    // The address in use keeps the answer it had.
    const inUse = await post(u.admin.auth, { ...person('x3'), email: 'sofia@plant.example' });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toBe('A user with this email already exists');
  });

  it('a deleted user’s address stays its own: the trail still files entries under it', async () => {
    const gone = (await post(u.admin.auth, person('gone'))).json();
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${gone._id}`,
      headers: u.admin.auth,
    });
    expect(del.statusCode).toBe(200);
    const again = await post(u.admin.auth, person('gone'));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(belonged('Person gone, deleted'));
  });
});
