// A reason for every change to master data (EU GMP Annex 11 §9, §10): PUT and DELETE of line
// clearances, users and devices take an optional `reason`, which the change's audit entry records
// as its reason and never as a changed field; a reason given must be one, and a refused request
// changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changes } from '../schemas/audit-changes.ts';
import type { AuditEntry } from '../schemas/audit-log.ts';
import { build, type TestApp } from '../test/build.ts';
import { createRoleUsers, type RoleUsers } from '../test/fixtures.ts';

let t: TestApp;
let u: RoleUsers;

beforeAll(async () => {
  t = await build();
  u = await createRoleUsers(t);
});
afterAll(() => t.close());

type Auth = { authorization: string };
type Stored = { _id: string; name: string; version: number } & Record<string, unknown>;

const REASON = 'Moved to hall three after the requalification';

const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, auth: Auth, payload?: object) =>
  t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });

interface Resource {
  entity: 'line-clearance' | 'user' | 'device';
  /** How a refusal names it: 'body.reason must say why the {what} is changed'. */
  what: string;
  list: string;
  create(name: string): Promise<Stored>;
  /** A change of one field, and that field's line in the entry's old → new. */
  edit: object;
  editLine: string;
}

const resources: Resource[] = [
  {
    entity: 'line-clearance',
    what: 'line clearance',
    list: '/api/line-clearances',
    create: async (name) =>
      (await call('POST', '/api/line-clearances', u.admin.auth, { name })).json(),
    edit: { status: 'maintenance' },
    editLine: 'status: active → maintenance',
  },
  {
    entity: 'user',
    what: 'user',
    list: '/api/users',
    create: async (name) =>
      (
        await call('POST', '/api/users', u.admin.auth, {
          name,
          email: `${name.replaceAll(' ', '.').toLowerCase()}@plant.example`,
          password: 'Temp-gasket-1',
        })
      ).json(),
    edit: { status: 'deactivated' },
    editLine: 'status: active → deactivated',
  },
  {
    entity: 'device',
    what: 'device',
    list: '/api/devices',
    create: async (name) =>
      (
        await call('POST', '/api/devices', u.admin.auth, {
          qrCode: JSON.stringify({ serial: name.replaceAll(' ', '-'), name }),
        })
      ).json(),
    edit: { status: 'maintenance' },
    editLine: 'status: active → maintenance',
  },
];

const urlOf = (resource: Resource, id: string) => `${resource.list}/${id}`;

/** The record's entries as /audit reads them, newest first. */
const trail = async (resource: Resource, id: string): Promise<AuditEntry[]> =>
  (
    await t.app.inject({
      url: `/api/audit-log?entity=${resource.entity}&entityId=${id}`,
      headers: u.audit.auth,
    })
  ).json();

/** The record as listed to the auditor, whose list has no `namedIn` (counts, not the record). */
const listed = async (resource: Resource, id: string): Promise<Stored | undefined> =>
  (await t.app.inject({ url: resource.list, headers: u.audit.auth }))
    .json()
    .find((row: Stored) => row._id === id);

/** An entry's value as it would be without the change's reason. */
const withoutReason = (value: unknown) => {
  const { reason: _reason, ...rest } = value as Record<string, unknown>;
  return rest;
};

/** The lines /audit shows for an entry's change. */
const lines = (entry: AuditEntry | undefined) =>
  changes(entry?.oldValue, entry?.newValue).map((change) => change.line);

describe.each(resources)('the reason for a change of a $entity', (resource) => {
  it('an edit records it as its entry’s reason, not as a changed field; the CSV has it', async () => {
    const opened = await resource.create(`Reasoned ${resource.entity}`);
    const saved = await call('PUT', urlOf(resource, opened._id), u.admin.auth, {
      ...opened,
      ...resource.edit,
      reason: `  ${REASON} `,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // The record holds no reason.
    expect(saved.json()).not.toHaveProperty('reason');
    const [entry] = await trail(resource, opened._id);
    expect(entry).toMatchObject({ action: 'update', reason: REASON });
    // The same lines as the change without its reason: the edited field among them, no reason.
    expect(lines(entry)).toEqual(
      changes(withoutReason(entry?.oldValue), withoutReason(entry?.newValue)).map(
        (change) => change.line,
      ),
    );
    expect(lines(entry)).toContain(resource.editLine);

    const csv = await t.app.inject({
      url: `/api/audit-log.csv?entity=${resource.entity}&entityId=${opened._id}&action=update`,
      headers: u.audit.auth,
    });
    expect(csv.body).toContain(`,${REASON},127.0.0.1,`);
  });

  it('a save that changes nothing writes no entry: nothing happened to explain', async () => {
    const opened = await resource.create(`Unchanged ${resource.entity}`);
    const before = await trail(resource, opened._id);
    const saved = await call('PUT', urlOf(resource, opened._id), u.admin.auth, opened);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ version: opened.version });
    expect(await trail(resource, opened._id)).toEqual(before);
  });

  it('a delete records it likewise: the removed record’s fields, and the reason on its own', async () => {
    const opened = await resource.create(`Deleted ${resource.entity}`);
    const deleted = await call('DELETE', urlOf(resource, opened._id), u.admin.auth, {
      reason: REASON,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const [entry] = await trail(resource, opened._id);
    expect(entry).toMatchObject({ action: 'delete', reason: REASON });
    // As a removal without a reason reads: each field of the record to —, nothing about a reason.
    expect(lines(entry)).toEqual(
      changes(withoutReason(entry?.oldValue), null).map((change) => change.line),
    );
    expect(lines(entry)).toContain(`name: ${opened.name} → —`);
  });

  it('a reason that says nothing is a 400 naming body.reason, and nothing changes', async () => {
    const opened = await resource.create(`Refused ${resource.entity}`);
    const before = await trail(resource, opened._id);
    const rule = '(at least 3 different words)';
    // Too few words, a spec note (the words of a role, not a reason), the same word three times.
    for (const reason of ['ok', 'Approved by LC Manager.', 'fix fix fix']) {
      const edit = await call('PUT', urlOf(resource, opened._id), u.admin.auth, {
        ...opened,
        ...resource.edit,
        reason,
      });
      expect(edit.statusCode).toBe(400);
      expect(edit.json().message).toBe(
        `body.reason must say why the ${resource.what} is changed ${rule}`,
      );
      const deletion = await call('DELETE', urlOf(resource, opened._id), u.admin.auth, {
        reason,
      });
      expect(deletion.statusCode).toBe(400);
      expect(deletion.json().message).toBe(
        `body.reason must say why the ${resource.what} is deleted ${rule}`,
      );
    }
    // Text no other note may hold either: too long, unstorable, or shown as other text.
    const unfit = ['word '.repeat(401), 'Cleaned \u0000 the line', 'Cleaned the \u202e line'];
    for (const reason of unfit) {
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await call(method, urlOf(resource, opened._id), u.admin.auth, {
          ...(method === 'PUT' ? opened : {}),
          reason,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toMatch(/^body\.reason /);
      }
    }
    expect(await listed(resource, opened._id)).toEqual(opened);
    expect(await trail(resource, opened._id)).toEqual(before);
  });

  it('a refused save or delete (404, 409, 403) changes nothing, reason or not', async () => {
    const opened = await resource.create(`Kept ${resource.entity}`);
    const first = await call('PUT', urlOf(resource, opened._id), u.admin.auth, {
      ...opened,
      name: `Kept ${resource.entity} renamed`,
    });
    expect(first.statusCode).toBe(200);
    const before = await trail(resource, opened._id);
    const stale = await call('PUT', urlOf(resource, opened._id), u.admin.auth, {
      ...opened,
      ...resource.edit,
      reason: REASON,
    });
    expect(stale.statusCode).toBe(409);
    const forbidden = await call('DELETE', urlOf(resource, opened._id), u.audit.auth, {
      reason: REASON,
    });
    expect(forbidden.statusCode).toBe(403);
    const missing = await call('DELETE', urlOf(resource, '0'.repeat(24)), u.admin.auth, {
      reason: REASON,
    });
    expect(missing.statusCode).toBe(404);
    expect(await listed(resource, opened._id)).toEqual(first.json());
    expect(await trail(resource, opened._id)).toEqual(before);
  });

  it('the spec’s calls, with no reason (or a blank one), work as before', async () => {
    const opened = await resource.create(`Plain ${resource.entity}`);
    const saved = await call('PUT', urlOf(resource, opened._id), u.admin.auth, {
      ...opened,
      ...resource.edit,
    });
    expect(saved.statusCode).toBe(200);
    const blank = await call('PUT', urlOf(resource, opened._id), u.admin.auth, {
      ...saved.json(),
      name: `Plain ${resource.entity} renamed`,
      reason: ' \u200b ',
    });
    expect(blank.statusCode).toBe(200);
    const deleted = await call('DELETE', urlOf(resource, opened._id), u.admin.auth);
    expect(deleted.statusCode).toBe(200);
    const entries = await trail(resource, opened._id);
    expect(entries.map((entry) => [entry.action, entry.reason])).toEqual([
      ['delete', null],
      ['update', null],
      ['update', null],
      ['create', null],
    ]);
    expect(entries[0]?.newValue).toBeNull();
  });

  it('the OpenAPI document gives both bodies their reason', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const path = doc.paths[`${resource.list}/{id}`];
    for (const [method, done] of [
      ['put', 'changed'],
      ['delete', 'deleted'],
    ]) {
      const body = path[method as string].requestBody.content['application/json'].schema;
      expect(body.properties.reason).toMatchObject({
        type: 'string',
        maxLength: 2000,
        description: expect.stringContaining(`Why the ${resource.what} is ${done}`),
      });
      expect(body.required ?? []).not.toContain('reason');
    }
  });
});

it('the trail still verifies after these entries', async () => {
  const res = await t.app.inject({ url: '/api/audit-log/verify', headers: u.audit.auth });
  expect(res.json()).toMatchObject({ ok: true, brokenCount: 0 });
});
