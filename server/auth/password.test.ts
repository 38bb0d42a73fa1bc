import { describe, expect, it } from 'vitest';
import { createPasswordHasher, HashQueueFullError } from './password.ts';

describe('password hashing queue', () => {
  it('answers 503 when the wait is full, and serves sign-ins before other work', async () => {
    const hasher = createPasswordHasher(12, 1, 2);
    const order: string[] = [];
    const track = (name: string, work: Promise<unknown>) =>
      work.then(
        () => order.push(name),
        (error: unknown) => order.push(error instanceof HashQueueFullError ? `${name}:503` : 'bad'),
      );
    const running = track('first', hasher.hash('a'));
    const waiting = [
      track('other-1', hasher.hash('b')),
      track('other-2', hasher.hash('c')),
      track('other-3', hasher.hash('d')),
      track('sign-in', hasher.hash('e', 'sign-in')),
    ];
    await Promise.all([running, ...waiting]);
    expect(order[0]).toBe('other-3:503');
    expect(order.slice(1)).toEqual(['first', 'sign-in', 'other-1', 'other-2']);
    expect(new HashQueueFullError().statusCode).toBe(503);
  });
});
