import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService, newSession } from './token.ts';

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
    const tokens = createTokenService(secret, { sessionSeconds: 60 });
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
    const tokens = createTokenService(secret, { sessionSeconds: 60 });
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
    const tokens = createTokenService(secret, { sessionSeconds: 60 });
    const token = await tokens.sign(user);
    expect(await tokens.verify(token)).not.toBeNull();
    const other = createTokenService(new TextEncoder().encode('x'.repeat(40)), {
      sessionSeconds: 60,
    });
    expect(await other.verify(token)).toBeNull();
  });
});

describe('idle and absolute limits', () => {
  const lives = { sessionSeconds: 12 * 3600, idleSeconds: 30 * 60, mediaSeconds: 15 * 60 };
  const at = (time: string) => vi.setSystemTime(new Date(`2026-01-01T${time}Z`));

  it('a bearer token lives the idle limit; one signed for the same session keeps its id and start', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at('08:00:00');
    const tokens = createTokenService(secret, lives);
    const first = await tokens.sign(user);
    const session = await tokens.verify(first);
    expect(session).toMatchObject({ expiresAt: Date.parse('2026-01-01T08:30:00Z') });
    at('08:29:00');
    const renewed = await tokens.sign(user, session ?? undefined);
    at('08:30:00');
    expect(await tokens.verify(first)).toBeNull();
    expect(await tokens.verify(renewed)).toMatchObject({
      sessionId: session?.sessionId,
      sessionStart: Date.parse('2026-01-01T08:00:00Z'),
      expiresAt: Date.parse('2026-01-01T08:59:00Z'),
    });
  });

  it('no token of a session outlives its absolute end, however often renewed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at('08:00:00');
    const tokens = createTokenService(secret, lives);
    const session = newSession();
    at('19:50:00');
    const late = await tokens.sign(user, session);
    const media = await tokens.signMedia(user, session);
    const end = Date.parse('2026-01-01T20:00:00Z');
    expect(await tokens.verify(late)).toMatchObject({ expiresAt: end });
    expect(await tokens.verify(media, 'media')).toMatchObject({ expiresAt: end });
    at('20:00:00');
    expect(await tokens.verify(late)).toBeNull();
    expect(await tokens.verify(media, 'media')).toBeNull();
  });

  it('a lower idle limit holds for tokens signed before it was set', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at('08:00:00');
    const token = await createTokenService(secret, lives).sign(user);
    at('08:11:00');
    const stricter = createTokenService(secret, { ...lives, idleSeconds: 10 * 60 });
    expect(await stricter.verify(token)).toBeNull();
  });

  it('a grace accepts a token that ran out within it (logout), nothing else does', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at('08:00:00');
    const tokens = createTokenService(secret, lives);
    const token = await tokens.sign(user);
    expect(await tokens.verify(token)).not.toBeNull();
    at('08:30:30');
    expect(await tokens.verify(token)).toBeNull();
    expect(await tokens.verify(token, 'api', 60)).toMatchObject({ id: user.id });
    expect(await tokens.verify(token)).toBeNull();
    at('08:31:00');
    expect(await tokens.verify(token, 'api', 60)).toBeNull();
  });
});
