import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildOnce } from './build-once.ts';

const parents: string[] = [];
afterEach(() => {
  for (const parent of parents.splice(0)) rmSync(parent, { recursive: true, force: true });
});

function options(make: (scratch: string) => Promise<void>) {
  const parent = mkdtempSync(path.join(tmpdir(), 'lc-build-once-test-'));
  parents.push(parent);
  return { prefix: 'thing-', parent, hash: 'abc', doneMarker: 'done', timeoutMs: 10_000, make };
}

describe('buildOnce', () => {
  it('hands out the folder only once make has finished in its scratch folder', async () => {
    let scratchSeen = '';
    const settings = options(async (scratch) => {
      scratchSeen = scratch;
      // The scratch folder exists and is not the shared one.
      writeFileSync(path.join(scratch, 'done'), 'made');
    });
    const folder = await buildOnce(settings);
    expect(folder).toBe(path.join(settings.parent, 'thing-abc'));
    expect(scratchSeen).not.toBe(folder);
    expect(readFileSync(path.join(folder, 'done'), 'utf8')).toBe('made');
    expect(readdirSync(settings.parent)).toEqual(['thing-abc']);
  });

  it('leaves nothing behind when make fails, and makes it afresh on the next call', async () => {
    let calls = 0;
    const settings = options(async (scratch) => {
      calls++;
      writeFileSync(path.join(scratch, 'half'), '');
      if (calls === 1) throw new Error('the build broke');
      writeFileSync(path.join(scratch, 'done'), '');
    });
    await expect(buildOnce(settings)).rejects.toThrow('the build broke');
    expect(readdirSync(settings.parent)).toEqual([]);

    const folder = await buildOnce(settings);
    expect(existsSync(path.join(folder, 'done'))).toBe(true);
    expect(calls).toBe(2);
  });

  it('makes it once for callers at the same time', async () => {
    let calls = 0;
    const settings = options(async (scratch) => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 300));
      writeFileSync(path.join(scratch, 'done'), '');
    });
    const folders = await Promise.all([buildOnce(settings), buildOnce(settings)]);
    expect(folders[0]).toBe(folders[1]);
    expect(calls).toBe(1);
  });
});
