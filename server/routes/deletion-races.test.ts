// A record naming a device written while the device is deleted (docs/permissions.md, "Deleting
// what records name"): one of the two waits for the other, so the deletion either counts the record
// and refuses, or the record is refused. Only PostgreSQL runs them side by side (PGlite has one
// connection), so this file needs TEST_DATABASE_URL; the second connection plays the other side.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { build, type TestApp } from '../test/build.ts';
import { type CaptureLines, createCaptureLines, submission } from '../test/capture-fixture.ts';
import { createRoleUsers, type RoleUsers } from '../test/fixtures.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let t: TestApp;
let u: RoleUsers;
let lines: CaptureLines;

beforeAll(async () => {
  if (!onPostgres) return;
  t = await build();
  u = await createRoleUsers(t);
  lines = await createCaptureLines(t, u);
});
afterAll(() => t?.close());

async function newDevice(): Promise<string> {
  const id = newId();
  await t.services.ctx.db.insert(devices).values({ id, name: `Tablet ${id}`, qrCode: `TAB-${id}` });
  return id;
}

/** A second connection with a transaction open on it: the other side of the race. */
async function otherTransaction() {
  const client = new pg.Client({ connectionString: t.env.DATABASE_URL });
  await client.connect();
  await client.query('begin');
  return {
    query: (text: string, values: unknown[]) => client.query(text, values),
    async commit() {
      await client.query('commit');
      await client.end();
    },
  };
}

/** Whether the promise is still unsettled after a while: the request waits on a row lock. */
async function waiting(promise: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending');
  const first = await Promise.race([
    promise.then(() => null),
    new Promise((resolve) => setTimeout(() => resolve(pending), 500)),
  ]);
  return first === pending;
}

describe.runIf(onPostgres)(
  'a device deleted while a record naming it is written (PostgreSQL)',
  () => {
    it('a deletion waits for a submit that holds the device, then counts its video and refuses', async () => {
      const deviceId = await newDevice();
      // The submit's side as POST /api/inspections writes it: the device held, a video naming it.
      const submit = await otherTransaction();
      await submit.query('select id from devices where id = $1 for key share', [deviceId]);
      await submit.query(
        `insert into videos (id, filename, storage_key, subfolder, timestamp, device_id, status)
       values ($1, $2, $3, $1, now(), $4, 'pending')`,
        [newId(), `${deviceId}.webm`, `videos/${deviceId}.webm`, deviceId],
      );
      const deletion = t.app.inject({
        method: 'DELETE',
        url: `/api/devices/${deviceId}`,
        headers: u.admin.auth,
        payload: { reason: 'Tablet sent back to the supplier' },
      });
      expect(await waiting(deletion)).toBe(true);
      await submit.commit();
      const answer = await deletion;
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json().message).toMatch(/recorded inspections or videos/);
    });

    it('a submit naming a device whose deletion is in flight waits, then is refused', async () => {
      const deviceId = await newDevice();
      // The deletion's side: the device held for its deletion, and deleted, not yet committed.
      const deletion = await otherTransaction();
      await deletion.query('select id from devices where id = $1 for update', [deviceId]);
      await deletion.query('delete from devices where id = $1', [deviceId]);
      const submitted = t.app.inject({
        method: 'POST',
        url: '/api/inspections',
        headers: u.operator.auth,
        payload: submission(lines.lineA, { deviceId }),
      });
      expect(await waiting(submitted)).toBe(true);
      await deletion.commit();
      const answer = await submitted;
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().message).toBe('body.deviceId names no registered device');
    });
  },
);
