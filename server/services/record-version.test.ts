// Versions of the records an edit form sends back whole (docs/api-contract.md "Versions"): a save
// of an older copy is refused in words, changes nothing and writes no change to the trail.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../db/schema.ts';
import { build, type TestApp } from '../test/build.ts';
import { PNG } from '../test/demo-fixture.ts';
import {
  createRoleUsers,
  type RoleUsers,
  signInWithOwnPassword,
  type TestUser,
} from '../test/fixtures.ts';
import { multipartBody } from '../test/multipart.ts';
import type { VersionedEntity } from './record-version.ts';

let t: TestApp;
let u: RoleUsers;

beforeAll(async () => {
  t = await build();
  u = await createRoleUsers(t);
});
afterAll(() => t.close());

type Auth = { authorization: string };
type Stored = { _id: string; name: string; version: number } & Record<string, unknown>;

const send = (method: 'POST' | 'PUT', url: string, auth: Auth, payload: object) =>
  t.app.inject({ method, url, headers: auth, payload });

/** The trail's change entries of one record, oldest first. */
const changes = (entity: VersionedEntity, id: string) =>
  t.services.ctx.db
    .select()
    .from(auditLog)
    .where(
      and(eq(auditLog.entity, entity), eq(auditLog.entityId, id), eq(auditLog.action, 'update')),
    )
    .orderBy(asc(auditLog.id));

/** 'on 2026-11-26 at 02:41 UTC', as a refusal says when the record was changed. */
const when = (at: Date) => {
  const [day, time] = at.toISOString().slice(0, 16).split('T');
  return `on ${day} at ${time} UTC`;
};

const REOPEN = 'Close this form and open it again to see the changes.';

interface Resource {
  entity: VersionedEntity;
  /** Creates one record and answers it as listed. */
  create(name: string): Promise<Stored>;
  url(id: string): string;
  list: string;
  /** Who saves first, who second from a copy opened before. */
  first: () => TestUser;
  second: () => TestUser;
  /** Two different edits of the same record (each changes a field the other does not). */
  edits: [object, object];
}

const resources: Resource[] = [
  {
    entity: 'line-clearance',
    create: async (name) =>
      (
        await send('POST', '/api/line-clearances', u.admin.auth, { name, managerId: u.lc.id })
      ).json(),
    url: (id) => `/api/line-clearances/${id}`,
    list: '/api/line-clearances',
    first: () => u.admin,
    // The LC manager of the line edits it too.
    second: () => u.lc,
    edits: [{ status: 'maintenance' }, { description: 'Capping station moved' }],
  },
  {
    entity: 'user',
    create: async (name) =>
      (
        await send('POST', '/api/users', u.admin.auth, {
          name,
          email: `${name.replaceAll(' ', '.').toLowerCase()}@plant.example`,
          password: 'Temp-gasket-1',
        })
      ).json(),
    url: (id) => `/api/users/${id}`,
    list: '/api/users',
    first: () => u.admin,
    second: () => u.factory,
    edits: [{ name: 'Priya Shah' }, { status: 'deactivated' }],
  },
  {
    entity: 'device',
    create: async (name) =>
      (
        await send('POST', '/api/devices', u.admin.auth, {
          qrCode: JSON.stringify({ serial: name.replaceAll(' ', '-'), name }),
        })
      ).json(),
    url: (id) => `/api/devices/${id}`,
    list: '/api/devices',
    first: () => u.factory,
    second: () => u.admin,
    edits: [{ status: 'maintenance' }, { type: 'monitor' }],
  },
];

/** The record as listed to the auditor, whose list has no `namedIn` (counts, not the record). */
const listed = async (resource: Resource, id: string): Promise<Stored> => {
  const list = await t.app.inject({ url: resource.list, headers: u.audit.auth });
  return list.json().find((row: Stored) => row._id === id);
};

describe.each(resources)('PUT of a $entity', (resource) => {
  it('a copy opened before another save is refused in words, and nothing changes', async () => {
    const opened = await resource.create(`Bottling Line ${resource.entity}`);
    expect(opened.version).toBe(1);
    const [firstEdit, secondEdit] = resource.edits;

    const saved = await send('PUT', resource.url(opened._id), resource.first().auth, {
      ...opened,
      ...firstEdit,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ ...firstEdit, version: 2 });
    const [entry] = await changes(resource.entity, opened._id);
    if (!entry) throw new Error('the save wrote no entry');

    // The second editor's form still holds the first copy: its save would undo the first edit.
    const stale = await send('PUT', resource.url(opened._id), resource.second().auth, {
      ...opened,
      ...secondEdit,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(
      `${saved.json().name} was changed by Test ${resource.first().email.split('@')[0]} ${when(entry.at)} since you opened it. ${REOPEN}`,
    );
    expect(await listed(resource, opened._id)).toEqual(saved.json());
    expect(await changes(resource.entity, opened._id)).toHaveLength(1);

    // Opened again, the record saves, one version on.
    const reopened = await listed(resource, opened._id);
    const again = await send('PUT', resource.url(opened._id), resource.second().auth, {
      ...reopened,
      ...secondEdit,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ ...firstEdit, ...secondEdit, version: 3 });
  });

  it('without a version (an API script) it saves as before; a save changing nothing keeps it', async () => {
    const opened = await resource.create(`Scripted ${resource.entity}`);
    const { version: _version, ...unversioned } = opened;
    const [firstEdit] = resource.edits;
    const scripted = await send('PUT', resource.url(opened._id), resource.first().auth, {
      ...unversioned,
      ...firstEdit,
    });
    expect(scripted.statusCode).toBe(200);
    expect(scripted.json()).toMatchObject({ ...firstEdit, version: 2 });
    const same = await send(
      'PUT',
      resource.url(opened._id),
      resource.first().auth,
      scripted.json(),
    );
    expect(same.statusCode).toBe(200);
    expect(same.json().version).toBe(2);
  });

  it('a version the record never had is a 400 naming body.version, and nothing changes', async () => {
    const opened = await resource.create(`Unversioned ${resource.entity}`);
    const [firstEdit] = resource.edits;
    const res = await send('PUT', resource.url(opened._id), resource.first().auth, {
      ...opened,
      ...firstEdit,
      version: opened.version + 5,
    });
    // Not a 409 saying the caller (who made version 1) changed it since.
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      `body.version (6) is not a version of ${opened.name}, whose latest version is 1`,
    );
    expect(await listed(resource, opened._id)).toEqual(opened);
    expect(await changes(resource.entity, opened._id)).toHaveLength(0);
  });

  it('two saves of one copy at once: exactly one is carried out', async () => {
    const opened = await resource.create(`Raced ${resource.entity}`);
    const [firstEdit, secondEdit] = resource.edits;
    const answers = await Promise.all([
      send('PUT', resource.url(opened._id), resource.first().auth, { ...opened, ...firstEdit }),
      send('PUT', resource.url(opened._id), resource.second().auth, { ...opened, ...secondEdit }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.statusCode === 200)?.json();
    expect(await listed(resource, opened._id)).toEqual(winner);
    // The refusal names the record as the winner stored it, not as the refused save sent it.
    const refused = answers.find((answer) => answer.statusCode === 409)?.json();
    expect(refused.message.startsWith(`${winner.name} was changed by `)).toBe(true);
    expect(winner.version).toBe(2);
    const entries = await changes(resource.entity, opened._id);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.newValue).toMatchObject(winner);
  });
});

describe('what counts as a change of a user', () => {
  it('a password reset or change leaves the version, so an open Edit User still saves', async () => {
    const opened = await resources[1]?.create('Marta Lind');
    if (!opened) throw new Error('no user');
    const reset = await send('PUT', `/api/users/${opened._id}`, u.admin.auth, {
      ...opened,
      password: 'Another-temp-2',
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().version).toBe(1);
    // Then the user sets a password of its own: neither counts, as the form shows no password.
    await signInWithOwnPassword(t, String(opened.email), 'Another-temp-2');
    const renamed = await send('PUT', `/api/users/${opened._id}`, u.admin.auth, {
      ...opened,
      name: 'Marta Lindqvist',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Marta Lindqvist', version: 2 });
  });

  it('a refusal names the user by its stored name, not the one the refused save sends', async () => {
    const opened = await resources[1]?.create('Ines Ortega');
    if (!opened) throw new Error('no user');
    const url = `/api/users/${opened._id}`;
    const renamed = await send('PUT', url, u.admin.auth, { ...opened, name: 'Ines Ortega-Lind' });
    expect(renamed.statusCode).toBe(200);
    const stale = await send('PUT', url, u.factory.auth, { ...opened, name: 'Ines Lind' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/^Ines Ortega-Lind was changed by Test admin on /);
  });

  it('a refusal names the editor as "you" when it was the caller, in another window', async () => {
    const opened = await resources[0]?.create('Blister Line 4');
    if (!opened) throw new Error('no line');
    const url = `/api/line-clearances/${opened._id}`;
    expect(
      (await send('PUT', url, u.admin.auth, { ...opened, location: 'Hall 3' })).statusCode,
    ).toBe(200);
    const stale = await send('PUT', url, u.admin.auth, { ...opened, location: 'Hall 4' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/^Blister Line 4 was changed by you on /);
  });

  it('a version that is not a whole number from 1 is a 400 naming it', async () => {
    const opened = await resources[2]?.create('Tablet 9');
    if (!opened) throw new Error('no device');
    for (const version of [0, 1.5, 'one', 2 ** 31]) {
      const res = await send('PUT', `/api/devices/${opened._id}`, u.admin.auth, {
        ...opened,
        version,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^body\.version /);
    }
  });
});

describe('saving a floor-plan configuration', () => {
  const configuration = {
    displaySize: { width: 800, height: 600 },
    hotZones: [],
    tags: [{ x: 1, y: 2, name: 'Tag 1', qrCode: 'VER-Q1' }],
    cameras: [],
    coordinateSystem: { useSimpleMapping: true, pixelsPerMeter: 50 },
  };

  it('a save over a configuration opened before another save is refused; the wizard may save again', async () => {
    const line = await resources[0]?.create('Sachet Line 7');
    if (!line) throw new Error('no line');
    const base = {
      lineClearanceId: line._id,
      name: 'Sachet Line 7 Floorplan Configuration',
      configuration,
    };
    const created = await send('POST', '/api/floorplan-configs', u.lc.auth, base);
    expect(created.statusCode).toBe(201);
    expect(created.json().version).toBe(1);
    const moved = { ...configuration, tags: [{ ...configuration.tags[0], x: 40 }] };
    const first = await send('POST', '/api/floorplan-configs', u.admin.auth, {
      ...base,
      configuration: moved,
      version: 1,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().version).toBe(2);
    const [entry] = await changes('floorplan-config', created.json()._id);
    if (!entry) throw new Error('the save wrote no entry');

    const stale = await send('POST', '/api/floorplan-configs', u.lc.auth, {
      ...base,
      configuration: { ...configuration, cameras: [{ x: 5, y: 5, name: 'Camera 1' }] },
      version: 1,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(
      `Sachet Line 7 Floorplan Configuration was changed by Test admin ${when(entry.at)} since you opened it. Save yours over that change, or load the saved configuration to start from it.`,
    );
    const read = await t.app.inject({
      url: `/api/floorplan-configs/line-clearance/${line._id}`,
      headers: u.lc.auth,
    });
    expect(read.json()).toMatchObject({ configuration: moved, version: 2 });
    expect(await changes('floorplan-config', created.json()._id)).toHaveLength(1);

    const again = await send('POST', '/api/floorplan-configs', u.lc.auth, { ...base, version: 2 });
    expect(again.statusCode).toBe(200);
    expect(again.json().version).toBe(3);
  });

  it('a replaced floor plan leaves the version: the save names the new plan and goes through', async () => {
    const line = await resources[0]?.create('Tablet Line 8');
    if (!line) throw new Error('no line');
    const upload = () => {
      const body = multipartBody(
        { name: 'Floorplan', lineID: line._id },
        { field: 'image', filename: 'plan.png', contentType: 'image/png', bytes: PNG },
      );
      return t.app.inject({
        method: 'POST',
        url: '/api/floorplans',
        headers: { ...u.lc.auth, ...body.headers },
        payload: body.payload,
      });
    };
    const first = (await upload()).json();
    // Its own tag code: another line's is refused (server/services/tag-codes.ts).
    const own = { ...configuration, tags: [{ ...configuration.tags[0], qrCode: 'VER-Q2' }] };
    const base = { lineClearanceId: line._id, name: 'Tablet Line 8 plan', configuration: own };
    const created = await send('POST', '/api/floorplan-configs', u.lc.auth, {
      ...base,
      floorplanId: first._id,
    });
    expect(created.json()).toMatchObject({ floorplanId: first._id, version: 1 });
    // Another manager replaces the image: the configuration now names the new plan.
    const second = (await upload()).json();
    const read = await t.app.inject({
      url: `/api/floorplan-configs/line-clearance/${line._id}`,
      headers: u.lc.auth,
    });
    expect(read.json()).toMatchObject({ floorplanId: second._id, version: 1 });
    const saved = await send('POST', '/api/floorplan-configs', u.lc.auth, {
      ...base,
      floorplanId: second._id,
      version: 1,
    });
    expect(saved.statusCode).toBe(200);
  });
});
