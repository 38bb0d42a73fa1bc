import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.ts';

describe('ReadCache', () => {
  it('serves repeated reads from memory until invalidated', async () => {
    const cache = new ReadCache<number>();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(1);
    cache.invalidate();
    expect(await cache.get('k', load)).toBe(2);
  });

  it('never keeps a read that overlapped an invalidation', async () => {
    const cache = new ReadCache<string>();
    let release = () => {};
    const slow = cache.get(
      'k',
      () =>
        new Promise<string>((resolve) => {
          release = () => resolve('stale');
        }),
    );
    cache.invalidate();
    release();
    expect(await slow).toBe('stale');
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
  });

  it('holds at most maxEntries, dropping the oldest', async () => {
    const cache = new ReadCache<string>({ maxEntries: 2 });
    await cache.get('a', async () => 'a1');
    await cache.get('b', async () => 'b1');
    await cache.get('c', async () => 'c1');
    expect(await cache.get('a', async () => 'a2')).toBe('a2');
    expect(await cache.get('c', async () => 'c2')).toBe('c1');
  });
});
