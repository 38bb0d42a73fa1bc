// Behind a reverse proxy at a shift change: sixty operators sign in through one proxy address.
// With TRUST_PROXY naming the proxy, each keeps its own address (limits, audit log, Secure cookie,
// HSTS); the same header from anyone else is ignored.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../db/schema.ts';
import { build, type TestApp } from '../test/build.ts';
import { createUser, PASSWORD, type TestUser } from '../test/fixtures.ts';

const PROXY = '127.0.0.1';
let t: TestApp;
let people: TestUser[];

beforeAll(async () => {
  // The default login limits (build() raises them for other tests), a proxy on loopback.
  t = await build({ TRUST_PROXY: PROXY, LOGIN_RATE_LIMIT: '50' });
  people = [];
  for (let i = 0; i < 60; i++) people.push(await createUser(t, `shift${i}`, ['operator']));
});
afterAll(() => t.close());

/** Documentation addresses (RFC 5737): header text only, never contacted. */
const clientAddress = (i: number) => `198.51.100.${i + 1}`;

const signIn = (user: TestUser, password: string, from: string, forwardedFor: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login',
    remoteAddress: from,
    headers: { 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'https' },
    payload: { email: user.email, password },
  });

describe('behind a trusted proxy', () => {
  it('sixty users sign in within a minute, each audited with its own address', async () => {
    const answers = await Promise.all(
      people.map((user, i) => signIn(user, PASSWORD, PROXY, clientAddress(i))),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(people.map(() => 200));
    // The proxy said HTTPS: the cookie is Secure and HSTS is sent.
    expect(String(answers[0]?.headers['set-cookie'])).toContain('; Secure');
    expect(answers[0]?.headers['strict-transport-security']).toMatch(/^max-age=/);
    const logins = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'login'));
    const addressOf = new Map(logins.map((row) => [row.entityId, row.ip]));
    people.forEach((user, i) => {
      expect(addressOf.get(user.id)).toBe(clientAddress(i));
    });
  });

  it('failures from one client lock out that client only', async () => {
    const [mallory, alice] = [people[0], people[1]] as [TestUser, TestUser];
    const codes: number[] = [];
    for (let i = 0; i < 52; i++) {
      codes.push((await signIn(mallory, `wrong-${i}`, PROXY, '203.0.113.9')).statusCode);
    }
    expect(codes.slice(0, 50).every((code) => code === 401)).toBe(true);
    expect(codes.slice(50)).toEqual([429, 429]);
    expect((await signIn(alice, PASSWORD, PROXY, clientAddress(1))).statusCode).toBe(200);
  });

  it('ignores the header from an address that is not the proxy', async () => {
    const user = people[2] as TestUser;
    const res = await signIn(user, PASSWORD, '192.0.2.77', '198.51.100.200');
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).not.toContain('Secure');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const rows = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, user.id))
      .orderBy(auditLog.id);
    expect(rows.at(-1)).toMatchObject({ action: 'login', ip: '192.0.2.77' });
  });
});

describe('without TRUST_PROXY', () => {
  it('sends no HSTS over plain HTTP and trusts no forwarded header', async () => {
    const plain = await build();
    try {
      const res = await plain.app.inject({
        url: '/api/health',
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.1' },
      });
      expect(res.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
