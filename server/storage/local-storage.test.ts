import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalStorage, TEMPORARY_FILE_LIFETIME_MS } from './local-storage.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-storage-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('LocalStorage when opened', () => {
  it('removes temporary files a killed write left an hour ago or more, and nothing else', async () => {
    const root = fs.mkdtempSync(path.join(tmp, 'files-'));
    const tmpDir = path.join(root, '.tmp');
    fs.mkdirSync(path.join(root, 'floorplans'), { recursive: true });
    fs.mkdirSync(tmpDir);
    const aged = (file: string, ageMs: number) => {
      fs.writeFileSync(file, 'bytes');
      const when = new Date(Date.now() - ageMs);
      fs.utimesSync(file, when, when);
    };
    const hourAgo = TEMPORARY_FILE_LIFETIME_MS + 60_000;
    aged(path.join(tmpDir, 'killed-put'), hourAgo);
    aged(path.join(tmpDir, 'killed-keyframe'), 3 * hourAgo);
    // Another server on the same files (PostgreSQL) may be writing this one now.
    aged(path.join(tmpDir, 'being-written'), 60_000);
    // A stored object is never a temporary file, however old.
    aged(path.join(root, 'floorplans', 'old.png'), 3 * hourAgo);
    const storage = new LocalStorage(root);
    expect(storage.sweptTemporaryFiles).toBe(2);
    expect(fs.readdirSync(tmpDir)).toEqual(['being-written']);
    expect(await storage.stat('floorplans/old.png')).toEqual({ size: 5 });
  });
});
