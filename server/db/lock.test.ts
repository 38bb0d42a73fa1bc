import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLock, LockError } from './lock.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-lock-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('database lock', () => {
  it('refuses a second holder while the first process lives, naming it', async () => {
    const lock = path.join(dir, 'live.lock');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      fs.writeFileSync(lock, String(child.pid));
      expect(() => acquireLock(lock)).toThrow(LockError);
      expect(() => acquireLock(lock)).toThrow(`in use by process ${child.pid}`);
    } finally {
      child.kill();
    }
  });

  it('refuses a second holder in this process, but not a stale file naming our pid', () => {
    const lock = path.join(dir, 'own.lock');
    const release = acquireLock(lock);
    expect(() => acquireLock(lock)).toThrow(LockError);
    release();
    fs.writeFileSync(lock, String(process.pid));
    acquireLock(lock)();
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('takes over a lock left by a dead process and releases it', async () => {
    const lock = path.join(dir, 'stale.lock');
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => child.on('exit', resolve));
    fs.writeFileSync(lock, String(child.pid));
    const release = acquireLock(lock);
    expect(fs.readFileSync(lock, 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(lock)).toBe(false);
  });
});
