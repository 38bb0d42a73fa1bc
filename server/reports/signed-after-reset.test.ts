// A signature soon after another account reset the signer's password is a security alert: the
// takeover QA showed (reset, set an "own" password, sign as the manager) is flagged at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type TestApp } from '../test/build.ts';
import {
  createRoleUsers,
  OWN_PASSWORD,
  PASSWORD,
  pendingInspection,
  type RoleUsers,
  signInWithOwnPassword,
} from '../test/fixtures.ts';
import { SIGNED_AFTER_RESET } from './signed-after-reset.ts';

let t: TestApp;
let u: RoleUsers;
beforeAll(async () => {
  t = await build();
  u = await createRoleUsers(t);
});
afterAll(() => t.close());

const reject = (id: string, auth: { authorization: string }, userId: string, password: string) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/inspections/${id}/reject`,
    headers: auth,
    payload: { notes: 'Loose labels under the sealer', userId, password },
  });

/** The alert entries of the security alerts panel, as an admin reads them. */
async function signedAfterReset() {
  const res = await t.app.inject({ url: '/api/security-alerts', headers: u.admin.auth });
  expect(res.statusCode).toBe(200);
  const { entries } = res.json() as {
    entries: { action: string; entityId: string; actorEmail: string; newValue: unknown }[];
  };
  return entries.filter((entry) => entry.action === SIGNED_AFTER_RESET);
}

describe('a signature soon after someone else reset the signer’s password', () => {
  it('is a security alert naming who reset it and when', async () => {
    const inspection = await pendingInspection(t, u.lc.id);
    const users = (await t.app.inject({ url: '/api/users', headers: u.admin.auth })).json() as {
      _id: string;
    }[];
    const manager = users.find((user) => user._id === u.lc.id);
    const reset = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${u.lc.id}`,
      headers: u.factory.auth,
      payload: { ...manager, password: 'Reset-by-factory-9' },
    });
    expect(reset.statusCode).toBe(200);
    // Whoever knows the reset password chooses an "own" one and signs as the manager.
    const { auth } = await signInWithOwnPassword(t, u.lc.email, 'Reset-by-factory-9');
    const signed = await reject(inspection, auth, u.lc.email, OWN_PASSWORD);
    expect(signed.statusCode).toBe(200);

    const alerts = await signedAfterReset();
    expect(alerts).toEqual([
      expect.objectContaining({
        entityId: inspection,
        actorEmail: u.lc.email,
        newValue: {
          meaning: 'rejected',
          resetBy: u.factory.email,
          resetAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          withinHours: 24,
        },
      }),
    ]);
  });

  it('is none for a signer whose password nobody else reset', async () => {
    const inspection = await pendingInspection(t, u.lc2.id);
    const before = (await signedAfterReset()).length;
    expect((await reject(inspection, u.lc2.auth, u.lc2.email, PASSWORD)).statusCode).toBe(200);
    expect(await signedAfterReset()).toHaveLength(before);
  });
});
