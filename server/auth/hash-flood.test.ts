// One operator token floods POST /api/change-password: sign-ins must stay fast, and the flood must
// neither queue unbounded hashing nor guess the current password more than a handful of times.
// Timing is compared with a baseline taken in the same test, with generous bounds.
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type TestApp } from '../test/build.ts';
import { createUser, PASSWORD, type TestUser } from '../test/fixtures.ts';

let t: TestApp;
let flooder: TestUser;
let signer: TestUser;

beforeAll(async () => {
  // A real cost (about 16 MiB and tens of ms a hash) and the default limits.
  t = await build({ SCRYPT_LOG2_N: '14', PASSWORD_RATE_LIMIT: '10', LOGIN_RATE_LIMIT: '50' });
  flooder = await createUser(t, 'flooder', ['operator']);
  signer = await createUser(t, 'signer', ['operator']);
});
afterAll(() => t.close());

async function timedSignIn(): Promise<number> {
  const start = performance.now();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: signer.email, password: PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  return performance.now() - start;
}

describe('a change-password flood', () => {
  it('leaves sign-in fast and guesses the current password only a few times', async () => {
    const baseline = [await timedSignIn(), await timedSignIn(), await timedSignIn()].sort(
      (a, b) => a - b,
    )[1] as number;
    const flood = Array.from({ length: 120 }, (_, i) =>
      t.app.inject({
        method: 'POST',
        url: '/api/change-password',
        headers: flooder.auth,
        payload: { currentPassword: `guess-${i}`, newPassword: 'new-password-1' },
      }),
    );
    const during = await timedSignIn();
    const codes = (await Promise.all(flood)).map((res) => res.statusCode);
    // Only PASSWORD_RATE_LIMIT requests reach the password check; the rest answer 429 at once.
    expect(codes.filter((code) => code === 401).length).toBeLessThanOrEqual(10);
    expect(codes.filter((code) => code === 429).length).toBeGreaterThanOrEqual(110);
    // Before the limits this sign-in waited behind ~120 hashes: seconds instead of a few baselines.
    expect(during).toBeLessThan(baseline * 8 + 2000);
  });
});
