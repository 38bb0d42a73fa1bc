import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, videos } from '../db/schema.ts';
import { build, type TestApp } from '../test/build.ts';
import { type CaptureLines, createCaptureLines, submit } from '../test/capture-fixture.ts';
import { createRoleUsers, type RoleUsers } from '../test/fixtures.ts';
import { listed } from '../test/named-records-fixture.ts';

let t: TestApp;
let u: RoleUsers;
let lines: CaptureLines;

beforeAll(async () => {
  t = await build();
  u = await createRoleUsers(t);
  lines = await createCaptureLines(t, u);
});
afterAll(() => t.close());

const register = (auth: { authorization: string }, qrCode: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/devices', headers: auth, payload: { qrCode } });

describe('devices', () => {
  it('an operator registers a device from a bare serial; scanning again answers 200', async () => {
    const first = await register(u.operator.auth, 'CAM-0042');
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      name: 'Device CAM-0042',
      type: null,
      status: 'active',
      qrCode: 'CAM-0042',
    });
    const again = await register(u.lc.auth, ' CAM-0042 ');
    expect(again.statusCode).toBe(200);
    expect(again.json()._id).toBe(first.json()._id);
  });

  it('a shared device joins the list of each user who registers it, audited once each', async () => {
    const mine = async (auth: { authorization: string }) =>
      (await t.app.inject({ url: '/api/my/devices', headers: auth }))
        .json()
        .map((device: { qrCode: string }) => device.qrCode);
    expect((await register(u.operator.auth, 'TABLET-9')).statusCode).toBe(201);
    expect(await mine(u.operator2.auth)).not.toContain('TABLET-9');
    const second = await register(u.operator2.auth, 'TABLET-9');
    expect(second.statusCode).toBe(200);
    expect(await mine(u.operator2.auth)).toContain('TABLET-9');
    expect(await mine(u.operator.auth)).toContain('TABLET-9');
    await register(u.operator2.auth, 'TABLET-9');
    const entries = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, second.json()._id));
    expect(entries.map((entry) => entry.action)).toEqual(['create', 'register']);
  });

  it('refuses a line checkpoint’s QR code: it is not a device label', async () => {
    const res = await register(u.operator.auth, 'A-TAG-2');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      "This QR code is the checkpoint 'Hopper' of Line A, not a device label: scan the label on the phone or tablet",
    );
  });

  it('reads the JSON label form', async () => {
    const res = await register(
      u.admin.auth,
      JSON.stringify({ serial: 'SN-7', name: 'Line 2 tablet', type: 'monitor' }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Line 2 tablet', type: 'monitor', qrCode: 'SN-7' });
  });

  it('400 names what is wrong in the label', async () => {
    const cases: [unknown, RegExp][] = [
      ['has spaces in it', /^body\.qrCode must be a device serial/],
      ['{not json', /^body\.qrCode is not valid JSON/],
      [JSON.stringify({ serial: 'A1', type: 'toaster' }), /^body\.qrCode\.type /],
      [JSON.stringify({ name: 'x' }), /^body\.qrCode\.serial /],
      ['', /^body\.qrCode /],
      [42, /^body\.qrCode /],
    ];
    for (const [qr, message] of cases) {
      const res = await register(u.admin.auth, qr);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
    }
  });

  it('auditors cannot register; only admins and factory managers edit and delete', async () => {
    expect((await register(u.audit.auth, 'AUD-1')).statusCode).toBe(403);
    const device = (await register(u.admin.auth, 'EDIT-1')).json();
    const payload = { ...device, name: 'Renamed', type: 'sensor', status: 'offline' };
    for (const user of [u.operator, u.lc, u.audit]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/devices/${device._id}`,
        headers: user.auth,
        payload,
      });
      expect(res.statusCode).toBe(403);
    }
    const ok = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${device._id}`,
      headers: u.factory.auth,
      payload,
    });
    expect(ok.json()).toEqual({
      ...device,
      name: 'Renamed',
      type: 'sensor',
      status: 'offline',
      version: 2,
    });
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${device._id}`,
      headers: u.factory.auth,
      payload: { ...payload, status: 'exploded' },
    });
    expect(bad.json().message).toMatch(/^body\.status /);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/devices/${device._id}`,
      headers: u.admin.auth,
    });
    expect(del.statusCode).toBe(200);
    const list = await t.app.inject({ url: '/api/devices', headers: u.audit.auth });
    expect(list.json().map((d: { _id: string }) => d._id)).not.toContain(device._id);
  });

  it('a device that recorded an inspection is not deleted: 409, audited, kept to be set inactive', async () => {
    const device = (await register(u.operator.auth, 'TAB-REC-1')).json();
    const { videoId } = await submit(t, u.operator, lines.lineA, { deviceId: device._id });
    const remove = () =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/devices/${device._id}`,
        headers: u.admin.auth,
        payload: { reason: 'The tablet went back to the vendor' },
      });
    const refused = await remove();
    expect(refused.statusCode).toBe(409);
    const message =
      'This device recorded inspections or videos and cannot be deleted; set its status to inactive instead';
    expect(refused.json().message).toBe(message);
    expect((await remove()).statusCode).toBe(409);
    await t.services.ctx.refusals.flush();
    const entries = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, device._id));
    expect(entries.map((entry) => entry.action)).toEqual([
      'create',
      'evidence.protected',
      'evidence.protected',
    ]);
    expect(entries[1]).toMatchObject({
      entity: 'device',
      newValue: {
        reason: message,
        route: 'DELETE /api/devices/:id',
        params: { id: device._id },
      },
    });
    expect(entries[2]?.newValue).toMatchObject({ reason: message, repeated: 1 });
    const list = await t.app.inject({ url: '/api/devices', headers: u.audit.auth });
    expect(list.json().map((d: { _id: string }) => d._id)).toContain(device._id);
    const [video] = await t.services.ctx.db.select().from(videos).where(eq(videos.id, videoId));
    expect(video?.deviceId).toBe(device._id);
    // What the refusal says to do instead.
    const retired = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${device._id}`,
      headers: u.admin.auth,
      payload: { ...device, status: 'inactive', reason: 'The tablet went back to the vendor' },
    });
    expect(retired.json()).toMatchObject({ status: 'inactive' });
  });
  it('the list says how many videos each device recorded, as its deletion counts them', async () => {
    const recorder = (await register(u.operator.auth, 'TAB-COUNT-1')).json();
    const idle = (await register(u.operator.auth, 'TAB-COUNT-2')).json();
    await submit(t, u.operator, lines.lineA, { deviceId: recorder._id });
    await submit(t, u.operator, lines.lineA, { deviceId: recorder._id });
    const list = (auth: { authorization: string }) => listed(t, '/api/devices', auth);
    for (const editor of [u.admin, u.factory]) {
      const devices = await list(editor.auth);
      expect(devices.find((device) => device._id === recorder._id)?.namedIn).toEqual({
        videos: 2,
      });
      expect(devices.find((device) => device._id === idle._id)?.namedIn).toEqual({ videos: 0 });
    }
    for (const other of [u.lc, u.audit, u.operator]) {
      expect((await list(other.auth)).filter((device) => 'namedIn' in device)).toEqual([]);
    }
    const remove = (id: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/devices/${id}`, headers: u.admin.auth });
    expect((await remove(recorder._id)).statusCode).toBe(409);
    expect((await remove(idle._id)).statusCode).toBe(200);
  });
});
