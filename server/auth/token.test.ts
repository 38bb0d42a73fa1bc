import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService } from './token.ts';

const secret = new TextEncoder().encode('a-test-secret-of-at-least-32-characters!');
const user = {
  id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  name: 'A',
  email: 'a@test.example',
  roles: ['operator' as const],
  tokenVersion: 3,
};

afterEach(() => vi.useRealTimers());

describe('token verification cache', () => {
  it('answers a remembered token until its expiry, then refuses it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const tokens = createTokenService(secret, 60);
    const token = await tokens.sign(user);
    expect(await tokens.verify(token)).toMatchObject({ id: user.id, tokenVersion: 3 });
    // Second call: from the cache.
    vi.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    expect(await tokens.verify(token)).toMatchObject({ id: user.id, tokenVersion: 3 });
    vi.setSystemTime(new Date('2026-01-01T00:01:00Z'));
    expect(await tokens.verify(token)).toBeNull();
    expect(await tokens.verify(token)).toBeNull();
  });

  it('does not accept a changed token because a similar one is remembered', async () => {
    const tokens = createTokenService(secret, 60);
    const token = await tokens.sign(user);
    expect(await tokens.verify(token)).not.toBeNull();
    const [header, payload, signature = ''] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, tv: 4 })).toString('base64url')}.${signature}`;
    expect(await tokens.verify(forged)).toBeNull();
    const flipped = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.verify(flipped)).toBeNull();
  });

  it('another service (another key) does not share the cache', async () => {
    const tokens = createTokenService(secret, 60);
    const token = await tokens.sign(user);
    expect(await tokens.verify(token)).not.toBeNull();
    const other = createTokenService(new TextEncoder().encode('x'.repeat(40)), 60);
    expect(await other.verify(token)).toBeNull();
  });
});
