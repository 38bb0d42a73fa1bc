// Property-based: random bodies, params and queries on every write route never give a 5xx and
// never change data. Bodies that happen to satisfy the route's schema are discarded, so every
// generated request is invalid and must be refused with a 4xx.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangePasswordBody, LoginBody } from '../schemas/auth.ts';
import { CaptureData } from '../schemas/capture.ts';
import { DeviceRegister, DeviceUpdate } from '../schemas/devices.ts';
import { FloorplanConfigSave } from '../schemas/floorplan-configs.ts';
import { InspectionCreate } from '../schemas/inspections.ts';
import { LineClearanceCreate, LineClearanceUpdate } from '../schemas/line-clearances.ts';
import { SignBody } from '../schemas/signatures.ts';
import { UserCreate, UserUpdate } from '../schemas/users.ts';
import { build, type TestApp } from './build.ts';
import { loadFixture } from './demo-fixture.ts';

let t: TestApp;
let auth: { authorization: string };
const known = {} as Record<'line' | 'user' | 'device' | 'inspection' | 'video' | 'plan', string>;

const TABLES = [
  'users',
  'line_clearances',
  'devices',
  'videos',
  'predictions',
  'floorplans',
  'floorplan_configs',
  'inspections',
  'captures',
  'uploads',
];

/** A digest of every data table (the audit log may grow: failed logins are recorded). */
async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const table of TABLES) {
    const result = (await t.services.ctx.db.execute(
      sql.raw(
        `select md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as d from ${table} t`,
      ),
    )) as unknown as { rows: { d: string }[] };
    parts.push(result.rows[0]?.d ?? '');
  }
  return parts.join(':');
}

const probes = fc.constantFrom(
  '../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '..\\..\\x',
  '%00',
  'a%00b',
  '/etc/passwd',
  '%2e%2e',
  '0'.repeat(24),
  'zzzzzzzzzzzzzzzzzzzzzzzz',
);
const param = fc.oneof(probes, fc.string({ maxLength: 40 }).map(encodeURIComponent));

/** Objects with the schema's keys (and others) holding arbitrary JSON; never valid for `schema`. */
function invalidBody(schema: TSchema) {
  const keys = Object.keys((schema as { properties?: object }).properties ?? {});
  const keyed = fc.dictionary(fc.constantFrom(...keys, 'extra', '__proto__'), fc.jsonValue(), {
    maxKeys: keys.length + 1,
  });
  return fc.oneof(keyed, fc.jsonValue()).filter((body) => !Value.Check(schema, body));
}

interface WriteRoute {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: (p: string) => string;
  body?: TSchema;
}

const routes: Record<string, WriteRoute> = {
  'POST /api/login': { method: 'POST', url: () => '/api/login', body: LoginBody },
  'POST /api/change-password': {
    method: 'POST',
    url: () => '/api/change-password',
    body: ChangePasswordBody,
  },
  'POST /api/line-clearances': {
    method: 'POST',
    url: () => '/api/line-clearances',
    body: LineClearanceCreate,
  },
  'POST /api/areas': { method: 'POST', url: () => '/api/areas', body: LineClearanceCreate },
  'PUT /api/line-clearances/{id}': {
    method: 'PUT',
    url: (p) => `/api/line-clearances/${p}`,
    body: LineClearanceUpdate,
  },
  'DELETE /api/line-clearances/{id}': { method: 'DELETE', url: (p) => `/api/line-clearances/${p}` },
  'POST /api/users': { method: 'POST', url: () => '/api/users', body: UserCreate },
  'PUT /api/users/{id}': { method: 'PUT', url: (p) => `/api/users/${p}`, body: UserUpdate },
  'DELETE /api/users/{id}': { method: 'DELETE', url: (p) => `/api/users/${p}` },
  'POST /api/devices': { method: 'POST', url: () => '/api/devices', body: DeviceRegister },
  'PUT /api/devices/{id}': { method: 'PUT', url: (p) => `/api/devices/${p}`, body: DeviceUpdate },
  'DELETE /api/devices/{id}': { method: 'DELETE', url: (p) => `/api/devices/${p}` },
  'PATCH /api/inspections/{id}/approve': {
    method: 'PATCH',
    url: (p) => `/api/inspections/${p}/approve`,
    body: SignBody,
  },
  'PATCH /api/inspections/{id}/reject': {
    method: 'PATCH',
    url: (p) => `/api/inspections/${p}/reject`,
    body: SignBody,
  },
  'POST /api/inspections': {
    method: 'POST',
    url: () => '/api/inspections',
    body: InspectionCreate,
  },
  'PUT /api/inspections/{id}/capture': {
    method: 'PUT',
    url: (p) => `/api/inspections/${p}/capture`,
    body: CaptureData,
  },
  'POST /api/videos/{id}/discard': { method: 'POST', url: (p) => `/api/videos/${p}/discard` },
  'DELETE /api/admin/videos/{id}': { method: 'DELETE', url: (p) => `/api/admin/videos/${p}` },
  'POST /api/floorplans': { method: 'POST', url: () => '/api/floorplans' },
  'DELETE /api/floorplans/{id}': { method: 'DELETE', url: (p) => `/api/floorplans/${p}` },
  'POST /api/floorplan-configs': {
    method: 'POST',
    url: () => '/api/floorplan-configs',
    body: FloorplanConfigSave,
  },
};

beforeAll(async () => {
  t = await build();
  const f = await loadFixture(t);
  auth = f.auth.admin;
  const get = async (url: string) => (await t.app.inject({ url, headers: auth })).json();
  known.line = (await get('/api/line-clearances'))[0]._id;
  known.user = f.ids.operator;
  known.device = (await get('/api/devices'))[0]._id;
  known.inspection = (await get('/api/inspections'))[0]._id;
  known.video = (await get('/api/videos'))[0]._id;
  known.plan = (await get('/api/floorplans'))[0]._id;
});
afterAll(() => t.close());

describe('write routes under random input', () => {
  for (const [name, route] of Object.entries(routes)) {
    it(`${name}: 4xx and no data change`, async () => {
      const before = await snapshot();
      // With a body schema, a valid existing id in the path and an invalid body; always also
      // a random path parameter. Routes without a body get random params and raw payloads.
      const existing = fc.constantFrom(...Object.values(known));
      const arbitrary = route.body
        ? fc.record({
            p: fc.oneof(existing, param),
            body: invalidBody(route.body),
            raw: fc.constant(null),
          })
        : fc.record({
            p: param,
            body: fc.jsonValue(),
            raw: fc.option(fc.string({ maxLength: 200 }), { nil: null }),
          });
      await fc.assert(
        fc.asyncProperty(arbitrary, async ({ p, body, raw }) => {
          const res = await t.app.inject({
            method: route.method,
            url: route.url(p),
            headers: raw === null ? auth : { ...auth, 'content-type': 'application/json' },
            ...(raw === null ? { payload: body as object } : { payload: raw }),
          });
          expect(res.statusCode, `${route.url(p)} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(
            400,
          );
          expect(res.statusCode, res.body).toBeLessThan(500);
          expect(() => JSON.parse(res.body)).not.toThrow();
        }),
        { numRuns: 40 },
      );
      expect(await snapshot()).toBe(before);
    });
  }

  it('malformed JSON is a 400 naming the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/line-clearances',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/JSON/i);
  });
});
