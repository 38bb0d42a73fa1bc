import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, inspections } from '../db/schema.ts';
import { newId } from '../ids.ts';
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

const create = (auth: { authorization: string }, payload: object, url = '/api/line-clearances') =>
  t.app.inject({ method: 'POST', url, headers: auth, payload });

describe('line clearances', () => {
  it('admin creates with defaults; everyone logged in can list', async () => {
    const res = await create(u.admin.auth, { name: 'Line 1', managerId: u.lc.id });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Line 1',
      description: '',
      location: '',
      status: 'active',
      managerId: u.lc.id,
      assignedOperators: [],
    });
    const list = await t.app.inject({ url: '/api/line-clearances', headers: u.operator.auth });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((l: { name: string }) => l.name)).toContain('Line 1');
  });

  it('an LC manager creating through /api/areas becomes the manager, whatever it sends', async () => {
    const res = await create(
      u.lc.auth,
      { name: 'Area A', description: 'd', location: 'Hall 2', managerId: u.lc2.id },
      '/api/areas',
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().managerId).toBe(u.lc.id);
  });

  it('400 names the field: empty name, unknown status, unknown manager', async () => {
    const blank = await create(u.admin.auth, { name: '   ' });
    expect(blank.statusCode).toBe(400);
    // In words, not as the pattern's regular expression.
    expect(blank.json().message).toBe('body.name must not be blank');
    // Invisible characters alone are blank too (a zero-width space, a direction mark).
    const invisible = await create(u.admin.auth, { name: ' \u200b\u200e ' });
    expect(invisible.json().message).toBe('body.name must not be blank');
    const status = await create(u.admin.auth, { name: 'x', status: 'broken' });
    expect(status.statusCode).toBe(400);
    // A choice of values names them, not "must be equal to constant".
    expect(status.json().message).toBe('body.status must be one of: active, inactive, maintenance');
    const manager = await create(u.admin.auth, { name: 'x', managerId: newId() });
    expect(manager.statusCode).toBe(400);
    expect(manager.json().message).toMatch(/^body\.managerId /);
    // A line's manager signs its records: an operator is refused as one, an LC manager taken.
    const operator = await create(u.admin.auth, { name: 'x', managerId: u.operator.id });
    expect(operator.json()).toEqual({
      message: 'body.managerId must name a user with the LC manager role',
    });
    expect((await create(u.admin.auth, { name: 'Managed', managerId: u.lc.id })).statusCode).toBe(
      201,
    );
    const missing = await create(u.admin.auth, {});
    expect(missing.json()).toEqual({ message: 'body.name is required' });
    const badId = await t.app.inject({
      method: 'DELETE',
      url: '/api/line-clearances/42',
      headers: u.admin.auth,
    });
    expect(badId.json()).toEqual({
      message: 'params.id must be a record id (24 lower-case hex digits)',
    });
  });

  it('operators and auditors cannot create (403, audited)', async () => {
    for (const user of [u.operator, u.audit]) {
      expect((await create(user.auth, { name: 'nope' })).statusCode).toBe(403);
    }
    const log = await t.services.ctx.db.query.auditLog.findMany();
    expect(log.some((r) => r.action === 'authorization.denied' && r.actorId === u.audit.id)).toBe(
      true,
    );
  });

  it('PUT keeps the whole record; an LC manager edits only its own lines', async () => {
    const line = (await create(u.admin.auth, { name: 'Edit me', managerId: u.lc.id })).json();
    const edited = { ...line, name: 'Edited', status: 'maintenance', extra: 'ignored' };
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/line-clearances/${line._id}`,
      headers: u.lc.auth,
      payload: edited,
    });
    expect(res.statusCode).toBe(200);
    // The version it was opened at matched: the change counts one more.
    expect(res.json()).toEqual({ ...line, name: 'Edited', status: 'maintenance', version: 2 });
    const other = await t.app.inject({
      method: 'PUT',
      url: `/api/line-clearances/${line._id}`,
      headers: u.lc2.auth,
      payload: edited,
    });
    expect(other.statusCode).toBe(403);
    const log = await t.services.ctx.db.query.auditLog.findMany();
    const entry = log.find((r) => r.action === 'update' && r.entityId === line._id);
    expect(entry?.oldValue).toMatchObject({ name: 'Edit me' });
    expect(entry?.newValue).toMatchObject({ name: 'Edited' });
  });

  it('400 names a name that hides a character: a line break, a tab, a zero-width space', async () => {
    for (const name of [
      'Line\r\nTwo',
      'Line\tTwo',
      'Line\u200bTwo',
      'Line\u2060Two',
      'Line\u202eTwo',
    ]) {
      const res = await create(u.admin.auth, { name });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json().message, JSON.stringify(name)).toMatch(/^body\.name /);
    }
    expect((await create(u.admin.auth, { name: 'Line\u200bTwo' })).json().message).toBe(
      'body.name must be one line without control or invisible characters (line breaks, tabs, zero-width spaces, direction marks)',
    );
  });

  it('stores a name in NFC, and refuses one that only case or Unicode form tells from another’s', async () => {
    // 'Café' typed with a combining accent (NFD), as some keyboards and pastes send it.
    const cafe = await create(u.admin.auth, { name: 'Cafe\u0301 Line', managerId: u.lc.id });
    expect(cafe.statusCode).toBe(201);
    expect(cafe.json().name).toBe('Caf\u00e9 Line');
    const log = await t.services.ctx.db.query.auditLog.findMany();
    const entry = log.find((r) => r.action === 'create' && r.entityId === cafe.json()._id);
    expect(entry?.newValue).toMatchObject({ name: 'Caf\u00e9 Line' });
    const refusal = {
      message:
        "body.name is the name of the line clearance 'Caf\u00e9 Line' already (names are compared in any case); choose another",
    };
    for (const name of ['Caf\u00e9 Line', 'CAFE\u0301 LINE', ' café line ']) {
      const res = await create(u.lc2.auth, { name });
      expect(res.statusCode, name).toBe(409);
      expect(res.json(), name).toEqual(refusal);
    }
    // A rename to it is refused too; a save that keeps a line's own name is not.
    const other = (await create(u.admin.auth, { name: 'Tea Line', managerId: u.lc.id })).json();
    const put = (name: string, version: number) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/line-clearances/${other._id}`,
        headers: u.lc.auth,
        payload: { ...other, name, version },
      });
    const renamed = await put('café LINE', 1);
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json()).toEqual(refusal);
    expect((await put('TEA line', 1)).statusCode).toBe(200);
  });

  it('PUT and DELETE of an unknown or malformed id: 404 and 400', async () => {
    const unknown = await t.app.inject({
      method: 'DELETE',
      url: `/api/line-clearances/${newId()}`,
      headers: u.admin.auth,
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'DELETE',
      url: '/api/line-clearances/not-an-id',
      headers: u.admin.auth,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^params\.id /);
  });

  it('DELETE removes an unused line, refuses one that has inspections', async () => {
    const free = (await create(u.admin.auth, { name: 'Free' })).json();
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/line-clearances/${free._id}`,
      headers: u.factory.auth,
    });
    expect(del.statusCode).toBe(200);
    const used = (await create(u.admin.auth, { name: 'Used' })).json();
    await t.services.ctx.db.insert(inspections).values({
      id: newId(),
      lineClearanceId: used._id,
      operatorId: u.operator.id,
      startTime: new Date(),
    });
    const refused = await t.app.inject({
      method: 'DELETE',
      url: `/api/line-clearances/${used._id}`,
      headers: u.admin.auth,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/inactive/);
    // The attempt is in the trail, filed under the line it protected.
    await t.services.ctx.refusals.flush();
    const entries = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, used._id));
    expect(entries.map((entry) => entry.action)).toEqual(['create', 'evidence.protected']);
    expect(entries[1]).toMatchObject({
      entity: 'line-clearance',
      actorId: u.admin.id,
      newValue: { reason: refused.json().message, route: 'DELETE /api/line-clearances/:id' },
    });
  });
  it('the list says how many inspections and videos name each line, as its deletion counts them', async () => {
    const { db } = t.services.ctx;
    const named = (await create(u.admin.auth, { name: 'Counted' })).json();
    const unnamed = (await create(u.admin.auth, { name: 'Uncounted' })).json();
    const startTime = new Date();
    await db.insert(inspections).values(
      [1, 2].map(() => ({
        id: newId(),
        lineClearanceId: named._id,
        operatorId: u.operator.id,
        startTime,
      })),
    );
    await insertVideo(t, { lineClearanceId: named._id });
    const list = (auth: { authorization: string }) => listed(t, '/api/line-clearances', auth);
    for (const manager of [u.admin, u.factory, u.lc]) {
      const lines = await list(manager.auth);
      expect(lines.find((line) => line._id === named._id)?.namedIn).toEqual({
        inspections: 2,
        videos: 1,
      });
      expect(lines.find((line) => line._id === unnamed._id)?.namedIn).toEqual({
        inspections: 0,
        videos: 0,
      });
    }
    for (const other of [u.audit, u.operator]) {
      expect((await list(other.auth)).filter((line) => 'namedIn' in line)).toEqual([]);
    }
    const remove = (id: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/line-clearances/${id}`, headers: u.admin.auth });
    expect((await remove(named._id)).statusCode).toBe(409);
    expect((await remove(unnamed._id)).statusCode).toBe(200);
  });
});
