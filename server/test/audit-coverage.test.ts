// Every write route leaves the audit row of its change (who, what, which record, before and after)
// and nothing else, and a write that fails leaves no row: the GMP record says what changed, and
// only what changed. Role refusals are audited on their own ('authorization.denied', role matrix).
import { asc, gt, max } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, videos } from '../db/schema.ts';
import { DEMO_PASSWORD } from '../demo/load-demo.ts';
import { newId } from '../ids.ts';
import { build, type TestApp } from './build.ts';
import { type DemoKey, fixtureDataset, loadFixture, PNG } from './demo-fixture.ts';
import { createUser, PASSWORD } from './fixtures.ts';
import { multipartBody } from './multipart.ts';

let t: TestApp;
let f: Awaited<ReturnType<typeof loadFixture>>;

beforeAll(async () => {
  t = await build();
  f = await loadFixture(t);
});
afterAll(() => t.close());

type AuditRow = typeof auditLog.$inferSelect;
type Auth = { authorization: string };

/** Sends a request and answers its status, its JSON body and the audit rows it added. */
async function write(auth: Auth, request: InjectOptions) {
  const { db } = t.services.ctx;
  const [before] = await db.select({ last: max(auditLog.id) }).from(auditLog);
  const res = await t.app.inject({
    ...request,
    headers: { ...auth, ...request.headers },
  });
  const rows = await db
    .select()
    .from(auditLog)
    .where(gt(auditLog.id, before?.last ?? 0))
    .orderBy(asc(auditLog.id));
  return { status: res.statusCode, body: res.json(), rows };
}

const as = (who: DemoKey) => f.auth[who];
/** A GET as admin, for set-up. */
const read = async (url: string) => (await t.app.inject({ url, headers: as('admin') })).json();
/** A valid floor-plan configuration: the fixture's. */
const configuration = fixtureDataset.floorplanConfigs[0]?.configuration;
const unknownId = 'f'.repeat(24);
let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${counter++}`;

/** Creates a record through the API for a test's own use (its audit row is not the subject). */
async function created(request: InjectOptions): Promise<string> {
  const { status, body } = await write(as('admin'), request);
  if (status !== 201) throw new Error(`setup ${request.url}: ${status} ${JSON.stringify(body)}`);
  return body._id;
}
const newLine = () =>
  created({
    method: 'POST',
    url: '/api/line-clearances',
    payload: { name: unique('Line'), managerId: f.ids.lcmanager },
  });
const newOperator = () =>
  created({
    method: 'POST',
    url: '/api/users',
    payload: {
      name: 'Audited Operator',
      email: `${unique('op')}@audit.example`,
      password: 'operator-password',
      role: 'operator',
    },
  });
const newDevice = () =>
  created({ method: 'POST', url: '/api/devices', payload: { qrCode: unique('SN') } });
const uploadPlan = (lineId: string): InjectOptions => {
  const body = multipartBody(
    { lineID: lineId, name: 'Plan' },
    { field: 'image', filename: 'plan.png', contentType: 'image/png', bytes: PNG },
  );
  return { method: 'POST', url: '/api/floorplans', ...body };
};

type Actor = DemoKey | { id: string; email: string; auth: Auth };

/**
 * Sends a write that must answer `status` and leave exactly one audit row, by the caller, matching
 * `row`; answers the response body.
 */
async function audited(
  who: Actor,
  status: number,
  request: InjectOptions,
  row: Partial<AuditRow>,
): Promise<Record<string, unknown> & { _id: string }> {
  const actor =
    typeof who === 'string' ? { id: f.ids[who], email: `${who}@example.com`, auth: as(who) } : who;
  const result = await write(actor.auth, request);
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.rows).toHaveLength(1);
  expect(result.rows[0]).toMatchObject({ actorId: actor.id, actorEmail: actor.email, ...row });
  // About the record the write names, or (a create) the record it answers.
  expect(result.rows[0]?.entityId).toBe(row.entityId ?? result.body._id);
  // No secret ever reaches the log: not a password, not its hash.
  expect(JSON.stringify(result.rows[0])).not.toMatch(/password-|scrypt|passwordHash/i);
  return result.body;
}

const post = (url: string, payload: object): InjectOptions => ({ method: 'POST', url, payload });
const put = (url: string, payload: object): InjectOptions => ({ method: 'PUT', url, payload });
const del = (url: string): InjectOptions => ({ method: 'DELETE', url });

describe('every write route leaves the audit row of its change', () => {
  it('users: create, update, delete', async () => {
    const email = `${unique('new')}@audit.example`;
    const { _id: id } = await audited(
      'admin',
      201,
      post('/api/users', {
        name: 'New Person',
        email,
        password: 'new-person-password',
        role: 'operator',
      }),
      {
        action: 'create',
        entity: 'user',
        oldValue: null,
        newValue: expect.objectContaining({ email, role: ['operator'] }),
      },
    );
    await audited(
      'admin',
      200,
      put(`/api/users/${id}`, { name: 'Renamed Person', email, role: 'operator' }),
      {
        action: 'update',
        entity: 'user',
        entityId: id,
        oldValue: expect.objectContaining({ name: 'New Person' }),
        newValue: expect.objectContaining({ name: 'Renamed Person' }),
      },
    );
    await audited('admin', 200, del(`/api/users/${id}`), {
      action: 'delete',
      entity: 'user',
      entityId: id,
      oldValue: expect.objectContaining({ name: 'Renamed Person' }),
      newValue: null,
    });
  });

  it('devices: register, update, delete; registering a known label again writes nothing', async () => {
    const qrCode = unique('SN');
    const { _id: id } = await audited('operator', 201, post('/api/devices', { qrCode }), {
      action: 'create',
      entity: 'device',
      newValue: expect.objectContaining({ qrCode }),
    });
    const again = await write(as('operator'), post('/api/devices', { qrCode }));
    expect([again.status, again.rows]).toEqual([200, []]);
    await audited('factory', 200, put(`/api/devices/${id}`, { name: 'Line camera' }), {
      action: 'update',
      entity: 'device',
      entityId: id,
      newValue: expect.objectContaining({ name: 'Line camera' }),
    });
    await audited('admin', 200, del(`/api/devices/${id}`), {
      action: 'delete',
      entity: 'device',
      entityId: id,
      oldValue: expect.objectContaining({ name: 'Line camera' }),
    });
  });

  it('floor plans: upload, replace, delete; floor-plan configurations: create, update', async () => {
    const lineId = await newLine();
    const first = await audited('lcmanager', 201, uploadPlan(lineId), {
      action: 'create',
      entity: 'floorplan',
      oldValue: null,
    });
    const second = await audited('lcmanager', 201, uploadPlan(lineId), {
      action: 'replace',
      entity: 'floorplan',
      oldValue: expect.objectContaining({ _id: first._id }),
    });
    // Line A's configuration with codes of its own: another line's are refused.
    const ownCodes = configuration && {
      ...configuration,
      tags: configuration.tags.map((tag) => ({ ...tag, qrCode: unique('TAG') })),
    };
    const save = (name: string) =>
      post('/api/floorplan-configs', {
        lineClearanceId: lineId,
        name,
        configuration: ownCodes,
      });
    const config = await audited('lcmanager', 201, save('First'), {
      action: 'create',
      entity: 'floorplan-config',
      newValue: expect.objectContaining({ name: 'First', floorplanId: second._id }),
    });
    await audited('lcmanager', 200, save('Second'), {
      action: 'update',
      entity: 'floorplan-config',
      entityId: config._id,
      oldValue: expect.objectContaining({ name: 'First' }),
      newValue: expect.objectContaining({ name: 'Second' }),
    });
    await audited('lcmanager', 200, del(`/api/floorplans/${second._id}`), {
      action: 'delete',
      entity: 'floorplan',
      entityId: second._id,
    });
  });

  it('line clearances: create, update, delete', async () => {
    const { _id: id } = await audited(
      'factory',
      201,
      post('/api/line-clearances', { name: 'Audited Line' }),
      {
        action: 'create',
        entity: 'line-clearance',
        newValue: expect.objectContaining({ name: 'Audited Line' }),
      },
    );
    await audited('factory', 200, put(`/api/line-clearances/${id}`, { name: 'Audited Line 2' }), {
      action: 'update',
      entity: 'line-clearance',
      entityId: id,
      oldValue: expect.objectContaining({ name: 'Audited Line' }),
      newValue: expect.objectContaining({ name: 'Audited Line 2' }),
    });
    await audited('factory', 200, del(`/api/line-clearances/${id}`), {
      action: 'delete',
      entity: 'line-clearance',
      entityId: id,
    });
  });

  it('inspections: approve and reject', async () => {
    // The fixture's pending inspections: one on Line A (lcmanager's), one on Line B (lcmanager2's).
    const lines: { _id: string; name: string }[] = await read('/api/line-clearances');
    const inspections: { _id: string; lineClearanceId: string; status: string }[] =
      await read('/api/inspections');
    const [onA, onB] = ['Line A', 'Line B'].map((name) => {
      const line = lines.find((candidate) => candidate.name === name);
      const pending = inspections.find(
        (inspection) => inspection.lineClearanceId === line?._id && inspection.status === 'pending',
      );
      if (!pending) throw new Error(`the fixture has no pending inspection on ${name}`);
      return pending._id;
    });
    const review = (signer: string, id: string, verb: string, notes: string): InjectOptions => ({
      method: 'PATCH',
      url: `/api/inspections/${id}/${verb}`,
      // Approve and reject are e-signatures: the signer's user ID and password are asked again.
      payload: { notes, userId: `${signer}@example.com`, password: DEMO_PASSWORD },
    });
    const approval = review('lcmanager', onA ?? '', 'approve', 'Line walked and clear');
    await audited('lcmanager', 200, approval, {
      action: 'approve',
      entity: 'inspection',
      entityId: onA,
      oldValue: expect.objectContaining({ status: 'pending' }),
      newValue: expect.objectContaining({ status: 'approved' }),
    });
    const rejection = review('lcmanager2', onB ?? '', 'reject', 'Carton on the feeder');
    await audited('lcmanager2', 200, rejection, {
      action: 'reject',
      entity: 'inspection',
      entityId: onB,
      newValue: expect.objectContaining({ status: 'rejected' }),
    });
  });

  it('videos: deletion', async () => {
    // The fixture's videos are signed evidence by now (409): a video of no inspection goes.
    const id = newId();
    await t.services.ctx.db.insert(videos).values({
      id,
      filename: `${id}.mp4`,
      storageKey: `videos/${id}.mp4`,
      subfolder: id,
      timestamp: new Date(),
    });
    await audited('admin', 200, del(`/api/admin/videos/${id}`), {
      action: 'delete',
      entity: 'video',
      entityId: id,
      oldValue: expect.objectContaining({ filename: `${id}.mp4` }),
    });
  });

  it('password change: the change, and a wrong current password as a failed attempt', async () => {
    const user = await createUser(t, unique('pw'), ['operator']);
    const change = (currentPassword: string) =>
      post('/api/change-password', { currentPassword, newPassword: 'a-new-password-1' });
    await audited(user, 401, change('not-the-password'), {
      action: 'password.change-failed',
      entity: 'user',
      entityId: user.id,
    });
    await audited(user, 200, change(PASSWORD), {
      action: 'password.change',
      entity: 'user',
      entityId: user.id,
    });
  });
});

describe('a write that fails leaves no audit row', () => {
  const failures: [string, DemoKey, number, () => Promise<InjectOptions>][] = [
    [
      'a user with an email already taken',
      'admin',
      409,
      async () => ({
        method: 'POST',
        url: '/api/users',
        payload: { name: 'Twin', email: 'operator@example.com', password: 'twin-password' },
      }),
    ],
    [
      'a user without a password',
      'admin',
      400,
      async () => ({ method: 'POST', url: '/api/users', payload: { name: 'X', email: 'x@x.io' } }),
    ],
    [
      "a user renamed to another's email (refused inside the transaction)",
      'admin',
      409,
      async () => ({
        method: 'PUT',
        url: `/api/users/${await newOperator()}`,
        payload: { name: 'Clash', email: 'audit@example.com' },
      }),
    ],
    [
      'an unknown user updated',
      'admin',
      404,
      async () => ({
        method: 'PUT',
        url: `/api/users/${unknownId}`,
        payload: { name: 'Nobody', email: 'nobody@audit.example' },
      }),
    ],
    [
      'deleting oneself',
      'admin',
      409,
      async () => ({ method: 'DELETE', url: `/api/users/${f.ids.admin}` }),
    ],
    [
      'a device label that is no serial',
      'operator',
      400,
      async () => ({ method: 'POST', url: '/api/devices', payload: { qrCode: 'no spaces!' } }),
    ],
    [
      'a device update without a name',
      'admin',
      400,
      async () => ({ method: 'PUT', url: `/api/devices/${await newDevice()}`, payload: {} }),
    ],
    [
      'an unknown device deleted',
      'admin',
      404,
      async () => ({ method: 'DELETE', url: `/api/devices/${unknownId}` }),
    ],
    [
      'a floor plan that is no image',
      'admin',
      400,
      async () => ({
        method: 'POST',
        url: '/api/floorplans',
        ...multipartBody(
          { lineID: await newLine(), name: 'Plan' },
          {
            field: 'image',
            filename: 'plan.png',
            contentType: 'image/png',
            bytes: Buffer.from('plain text'),
          },
        ),
      }),
    ],
    [
      'an unknown floor plan deleted',
      'admin',
      404,
      async () => ({ method: 'DELETE', url: `/api/floorplans/${unknownId}` }),
    ],
    [
      'a configuration for an unknown line clearance',
      'admin',
      400,
      async () => ({
        method: 'POST',
        url: '/api/floorplan-configs',
        payload: {
          lineClearanceId: unknownId,
          name: 'x',
          configuration,
        },
      }),
    ],
    [
      'a line clearance without a name',
      'admin',
      400,
      async () => ({ method: 'POST', url: '/api/line-clearances', payload: { name: '' } }),
    ],
    [
      'an unknown line clearance deleted',
      'admin',
      404,
      async () => ({ method: 'DELETE', url: `/api/line-clearances/${unknownId}` }),
    ],
    [
      'an unknown inspection approved',
      'admin',
      404,
      async () => ({
        method: 'PATCH',
        url: `/api/inspections/${unknownId}/approve`,
        payload: { notes: 'x', userId: 'admin@example.com', password: DEMO_PASSWORD },
      }),
    ],
    [
      'an unknown video deleted',
      'admin',
      404,
      async () => ({ method: 'DELETE', url: `/api/admin/videos/${unknownId}` }),
    ],
    [
      'a new password that is too short',
      'operator',
      400,
      async () => ({
        method: 'POST',
        url: '/api/change-password',
        payload: { currentPassword: DEMO_PASSWORD, newPassword: 'short' },
      }),
    ],
  ];

  it.each(failures)('%s (%s, %i)', async (_name, who, status, request) => {
    const result = await write(as(who), await request());
    expect(result.status, JSON.stringify(result.body)).toBe(status);
    expect(result.rows).toEqual([]);
  });
});
