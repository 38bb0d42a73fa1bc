// The background signature check (docs/reports.md, 'Check signed records'): it yields to other
// work between records, records a failure as its state, and ends when the server stops.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadDemo } from '../demo/load-demo.ts';
import { build, type TestApp } from '../test/build.ts';
import { dataset, files } from '../test/demo-dataset.ts';
import { SignatureChecks } from './check-signatures.ts';

const auditor = { id: 'a'.repeat(24), name: 'Helen Park', email: 'audit@example.com', roles: [] };

let t: TestApp;
beforeAll(async () => {
  t = await build();
  await loadDemo(t.services.ctx, dataset, files);
});
afterAll(() => t.close());

const quietLog = () => ({ error: vi.fn() });
const ended = async (checks: SignatureChecks) => {
  await vi.waitFor(() => expect(checks.state().state).not.toBe('running'));
  return checks.state();
};

describe('the background signature check', () => {
  it('lets the event loop turn between two records', async () => {
    // Counts turns of the event loop: without a yield, records built from resolved promises
    // share one turn.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const seenAt: number[] = [];
    const checks = new SignatureChecks(t.services.ctx, quietLog(), async () => {
      seenAt.push(turns);
    });
    try {
      checks.start(auditor);
      const state = await ended(checks);
      expect(state.state).toBe('finished');
      expect(seenAt.length).toBeGreaterThan(1);
      for (let i = 1; i < seenAt.length; i++) {
        expect(seenAt[i]).toBeGreaterThan(seenAt[i - 1] ?? 0);
      }
    } finally {
      ticking = false;
    }
  });

  it('records a failure as its state, naming the record, and logs why', async () => {
    const log = quietLog();
    let calls = 0;
    const checks = new SignatureChecks(t.services.ctx, log, async (_ctx, id) => {
      if (++calls === 2) throw new Error(`cannot build ${id}`);
    });
    const started = checks.start(auditor);
    const state = await ended(checks);
    expect(state).toMatchObject({
      state: 'failed',
      checked: 1,
      startedAt: started.state === 'running' ? started.startedAt : '',
      startedBy: { id: auditor.id, name: auditor.name },
    });
    if (state.state !== 'failed') throw new Error('not failed');
    const failedId = /^Record ([0-9a-f]{24}) could not be built/.exec(state.error)?.[1];
    expect(failedId).toBeDefined();
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ inspectionId: failedId }),
      'signature check failed',
    );
    // A new start after a failure runs again.
    expect(checks.start(auditor).state).toBe('running');
    await ended(checks);
  });

  it('ends after the record it is on when the server stops, and starts no more', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const built: string[] = [];
    const log = quietLog();
    const checks = new SignatureChecks(t.services.ctx, log, async (_ctx, id) => {
      built.push(id);
      await held;
    });
    checks.start(auditor);
    await vi.waitFor(() => expect(built).toHaveLength(1));
    let stopped = false;
    const stopping = checks.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The record being built is finished first, so the database is not closed under it.
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(built).toHaveLength(1);
    expect(log.error).not.toHaveBeenCalled();
    // A start after the stop (a request in flight) builds nothing.
    checks.start(auditor);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(built).toHaveLength(1);
  });
});
