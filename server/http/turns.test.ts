import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { BUSY, inTurn } from './heavy-work.ts';
import { Turns } from './turns.ts';

/** A task that ends when told to. */
function held() {
  let end = () => {};
  const done = new Promise<void>((resolve) => {
    end = resolve;
  });
  return { task: () => done, end };
}

describe('turns', () => {
  it('runs a few at once, lets a bounded number wait, refuses the rest at once', async () => {
    const turns = new Turns<'first' | 'second'>(
      1,
      { first: 1, second: 1 },
      () => new Error('full'),
    );
    const order: string[] = [];
    const running = held();
    const a = turns.run('second', running.task);
    const b = turns.run('second', async () => order.push('second'));
    const c = turns.run('first', async () => order.push('first'));
    await expect(turns.run('second', async () => 0)).rejects.toThrow('full');
    running.end();
    await Promise.all([a, b, c]);
    // The lane listed first is served first, whatever the order of arrival.
    expect(order).toEqual(['first', 'second']);
    expect(await turns.run('second', async () => 'free again')).toBe('free again');
  });

  it('lets two reports or exports run, eight wait, and answers 503 beyond', async () => {
    const app = { ctx: {} } as FastifyInstance;
    const running = held();
    const taken = Array.from({ length: 10 }, () => inTurn(app, running.task));
    await expect(inTurn(app, async () => 0)).rejects.toMatchObject({
      statusCode: 503,
      message: BUSY,
    });
    running.end();
    await Promise.all(taken);
  });
});
