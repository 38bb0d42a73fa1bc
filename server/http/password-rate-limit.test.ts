// PASSWORD_RATE_LIMIT per user and PASSWORD_ADDRESS_RATE_LIMIT per address: new users behind one
// address set their passwords together, while one user or one address still cannot flood hashing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type TestApp } from '../test/build.ts';
import { createUser, PASSWORD, type TestUser } from '../test/fixtures.ts';

let t: TestApp;
let users: TestUser[];

beforeAll(async () => {
  t = await build({ PASSWORD_RATE_LIMIT: '2', PASSWORD_ADDRESS_RATE_LIMIT: '5' });
  users = [];
  for (const key of ['room-a', 'room-b', 'room-c', 'room-d']) {
    users.push(await createUser(t, key, ['operator']));
  }
});
afterAll(() => t.close());

const change = (user: TestUser, newPassword: string, currentPassword = PASSWORD) =>
  t.app.inject({
    method: 'POST',
    url: '/api/change-password',
    headers: user.auth,
    payload: { currentPassword, newPassword },
  });

describe('password request limits', () => {
  it('lets more users than the per-user limit set passwords from one address, up to its own', async () => {
    const [a, b, c, d] = users as [TestUser, TestUser, TestUser, TestUser];
    // One user past its own limit (two wrong guesses, then a third request): 429.
    expect((await change(a, 'another-secret-1', 'wrong-guess-1')).statusCode).toBe(401);
    expect((await change(a, 'another-secret-1', 'wrong-guess-2')).statusCode).toBe(401);
    const third = await change(a, 'another-secret-1');
    expect(third.statusCode).toBe(429);
    expect(third.json().message).toMatch(/^Too many password requests; try again in \d+ s$/);
    // Two more users from the same address: more requests than PASSWORD_RATE_LIMIT, all served.
    expect((await change(b, 'kept-apart-b-1')).statusCode).toBe(200);
    expect((await change(c, 'kept-apart-c-1')).statusCode).toBe(200);
    // The address's sixth request in the minute: 429 for a user within its own limit.
    expect((await change(d, 'kept-apart-d-1')).statusCode).toBe(429);
  });
});
