import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  acquireLock,
  HEARTBEAT_MS,
  LockError,
  type LockHolder,
  STALE_AFTER_MS,
  thisHolder,
} from './lock.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-lock-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A lock file as another server would have written it: this process's values, then `change`. */
function writeHolder(lock: string, change: Partial<LockHolder>): string {
  const content = `${JSON.stringify({
    ...thisHolder(),
    token: 'another-process-token',
    since: '2026-11-27T08:00:00.000Z',
    ...change,
  })}\n`;
  fs.writeFileSync(lock, content);
  return content;
}

/** A pid that was just in use and is not any more. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid as number;
}

const holderIn = (lock: string) => JSON.parse(fs.readFileSync(lock, 'utf8')) as LockHolder;

/** Sets the lock file's last refresh (modification time) to `ms` milliseconds ago. */
function refreshedAgo(lock: string, ms: number) {
  const at = new Date(Date.now() - ms);
  fs.utimesSync(lock, at, at);
}

/** Holders whose pid cannot be checked from here, so only their heartbeat tells if they live. */
const unverifiable: [string, Partial<LockHolder>, string][] = [
  [
    'another host',
    { host: 'line2-server' },
    `on another host; it cannot be checked from ${os.hostname()}`,
  ],
  [
    'another PID namespace',
    { pidNamespace: 'pid:[4026532999]' },
    'in another container (PID namespace): its pid cannot be checked from here',
  ],
  [
    'a boot id that cannot be compared',
    { bootId: thisHolder().bootId ? null : 'a1b2c3d4-0000-4000-8000-000000000000' },
    'its boot id cannot be compared with this one',
  ],
];

afterEach(() => {
  vi.useRealTimers();
});

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

  it('takes over a lock left by a dead process, writes who holds it, and releases it', async () => {
    const lock = path.join(dir, 'stale.lock');
    fs.writeFileSync(lock, String(await deadPid()));
    const release = acquireLock(lock);
    expect(holderIn(lock)).toEqual({ ...thisHolder(), since: expect.any(String) });
    expect(holderIn(lock).token).toMatch(/^[0-9a-f]{32}$/);
    release();
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('refuses a lock from another host, even one naming our own pid, saying what to do', () => {
    const lock = path.join(dir, 'other-host.lock');
    // Two containers sharing one DATA_DIR: both are pid 1, so the holder may carry our pid.
    const content = writeHolder(lock, { host: 'line2-server' });
    expect(() => acquireLock(lock)).toThrow(
      `is in use by process ${process.pid} on host line2-server since 2026-11-27T08:00:00.000Z ` +
        `(on another host; it cannot be checked from ${os.hostname()}; it refreshed the lock 0 s ` +
        'ago); stop that server first',
    );
    expect(() => acquireLock(lock)).toThrow(
      'If that server is really gone, its lock is taken over once its last refresh is 60 s old: ' +
        `start again in 60 s, or delete ${lock} and start again.`,
    );
    expect(fs.readFileSync(lock, 'utf8')).toBe(content);
  });

  it('refuses a lock from another host whose pid is not running here', async () => {
    const lock = path.join(dir, 'other-host-dead.lock');
    const pid = await deadPid();
    const content = writeHolder(lock, { host: 'line2-server', pid });
    expect(() => acquireLock(lock)).toThrow(`in use by process ${pid} on host line2-server`);
    expect(fs.readFileSync(lock, 'utf8')).toBe(content);
  });

  it('refuses a lock from another container on this host (another PID namespace)', async () => {
    const lock = path.join(dir, 'other-ns.lock');
    // Pid 1 in the other container is our own pid number, or a pid we cannot see: both refused.
    for (const pid of [process.pid, await deadPid()]) {
      const content = writeHolder(lock, { pid, pidNamespace: 'pid:[4026532999]' });
      expect(() => acquireLock(lock)).toThrow(
        `in use by process ${pid} on host ${os.hostname()} since 2026-11-27T08:00:00.000Z ` +
          '(in another container (PID namespace): its pid cannot be checked from here; it ' +
          'refreshed the lock 0 s ago)',
      );
      expect(fs.readFileSync(lock, 'utf8')).toBe(content);
    }
  });

  it('refuses a lock whose holder runs here, in this PID namespace', () => {
    const lock = path.join(dir, 'same-ns-live.lock');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      writeHolder(lock, { pid: child.pid });
      expect(() => acquireLock(lock)).toThrow(
        `in use by process ${child.pid} on host ${os.hostname()} since 2026-11-27T08:00:00.000Z ` +
          '(that process is running)',
      );
    } finally {
      child.kill();
    }
  });

  it('takes over a lock of this host, boot and PID namespace whose process has ended', async () => {
    const lock = path.join(dir, 'same-ns-dead.lock');
    writeHolder(lock, { pid: await deadPid() });
    const release = acquireLock(lock);
    expect(holderIn(lock).token).toBe(thisHolder().token);
    release();
    // Our own pid under another token: a restart that got the same pid (a container's pid 1).
    writeHolder(lock, { pid: process.pid });
    acquireLock(lock)();
    expect(fs.existsSync(lock)).toBe(false);
  });

  it.runIf(thisHolder().bootId)(
    'takes over a lock of this host from before a restart (another boot id)',
    () => {
      const lock = path.join(dir, 'rebooted.lock');
      // The pid is running now (it is ours), but the holder ran before the machine restarted.
      writeHolder(lock, { bootId: 'a1b2c3d4-0000-4000-8000-000000000000' });
      const release = acquireLock(lock);
      expect(holderIn(lock).bootId).toBe(thisHolder().bootId);
      release();
    },
  );

  it.each(unverifiable)(
    'refuses a lock from %s while its heartbeat is fresh, saying when it is taken over',
    (_, change, because) => {
      const lock = path.join(dir, 'fresh-heartbeat.lock');
      const content = writeHolder(lock, { pid: 4242, ...change });
      refreshedAgo(lock, 5_000);
      const { host } = holderIn(lock);
      expect(() => acquireLock(lock)).toThrow(
        `is in use by process 4242 on host ${host} since 2026-11-27T08:00:00.000Z (${because}; ` +
          'it refreshed the lock 5 s ago); stop that server first (one process per data ' +
          'directory). If that server is really gone, its lock is taken over once its last ' +
          `refresh is 60 s old: start again in 55 s, or delete ${lock} and start again.`,
      );
      expect(fs.readFileSync(lock, 'utf8')).toBe(content);
    },
  );

  it.each(unverifiable)(
    'takes over a lock from %s whose heartbeat is older than STALE_AFTER',
    (_, change) => {
      const lock = path.join(dir, 'stale-heartbeat.lock');
      // A container killed by SIGKILL or the OOM killer, restarted in a new PID namespace.
      writeHolder(lock, change);
      refreshedAgo(lock, STALE_AFTER_MS + 5_000);
      const release = acquireLock(lock);
      expect(holderIn(lock)).toEqual({ ...thisHolder(), since: expect.any(String) });
      release();
      expect(fs.existsSync(lock)).toBe(false);
    },
  );

  it('judges the heartbeat against the STALE_AFTER it is given', () => {
    const lock = path.join(dir, 'stale-after.lock');
    writeHolder(lock, { pidNamespace: 'pid:[4026532999]' });
    refreshedAgo(lock, 3_000);
    expect(() => acquireLock(lock, { staleAfterMs: 4_000 })).toThrow(
      'it refreshed the lock 3 s ago',
    );
    acquireLock(lock, { staleAfterMs: 2_000 })();
    expect(fs.existsSync(lock)).toBe(false);
  });

  it("refreshes the lock file's modification time every HEARTBEAT while it holds the lock", () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const lock = path.join(dir, 'heartbeat.lock');
    const release = acquireLock(lock);
    const content = fs.readFileSync(lock, 'utf8');
    refreshedAgo(lock, STALE_AFTER_MS);
    const old = fs.statSync(lock).mtimeMs;
    vi.advanceTimersByTime(HEARTBEAT_MS - 1);
    expect(fs.statSync(lock).mtimeMs).toBe(old);
    vi.advanceTimersByTime(1);
    expect(fs.statSync(lock).mtimeMs).toBeGreaterThan(Date.now() - 2_000);
    expect(fs.readFileSync(lock, 'utf8')).toBe(content);
    // So a server that holds it stays refused from another container, however long it runs.
    refreshedAgo(lock, STALE_AFTER_MS);
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(fs.statSync(lock).mtimeMs).toBeGreaterThan(Date.now() - 2_000);
    release();
  });

  it('stops its heartbeat when released', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const lock = path.join(dir, 'heartbeat-release.lock');
    const release = acquireLock(lock, { heartbeatMs: 1_000 });
    expect(vi.getTimerCount()).toBe(1);
    release();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps running when a refresh fails, says so, and refreshes again later', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const lock = path.join(dir, 'heartbeat-fails.lock');
    const warn = vi.fn();
    const release = acquireLock(lock, { heartbeatMs: 1_000, warn });
    refreshedAgo(lock, STALE_AFTER_MS);
    const old = fs.statSync(lock).mtimeMs;
    const spy = vi.spyOn(fs, 'writeSync').mockImplementation(() => {
      throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
    });
    try {
      expect(() => vi.advanceTimersByTime(1_000)).not.toThrow();
    } finally {
      spy.mockRestore();
    }
    expect(warn).toHaveBeenCalledWith(
      `Could not refresh the database lock ${lock} (EIO: i/o error, write); another server may ` +
        'take it over once its last refresh is 60 s old.',
    );
    expect(fs.statSync(lock).mtimeMs).toBe(old);
    vi.advanceTimersByTime(1_000);
    expect(fs.statSync(lock).mtimeMs).toBeGreaterThan(old);
    release();
  });

  it('never refreshes a lock another server took over, and says so', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const lock = path.join(dir, 'heartbeat-lost.lock');
    const warn = vi.fn();
    const release = acquireLock(lock, { heartbeatMs: 1_000, warn });
    const other = writeHolder(lock, { host: 'line2-server' });
    refreshedAgo(lock, STALE_AFTER_MS);
    const old = fs.statSync(lock).mtimeMs;
    vi.advanceTimersByTime(1_000);
    expect(fs.statSync(lock).mtimeMs).toBe(old);
    expect(fs.readFileSync(lock, 'utf8')).toBe(other);
    expect(warn).toHaveBeenCalledWith(
      `The database lock ${lock} was deleted or taken over while this server held it: another ` +
        'server may be using the same database now; stop one of them.',
    );
    expect(vi.getTimerCount()).toBe(0);
    release();
    expect(fs.readFileSync(lock, 'utf8')).toBe(other);
  });

  it('releases only its own lock: one another server holds now stays', () => {
    const lock = path.join(dir, 'release.lock');
    const release = acquireLock(lock);
    const other = writeHolder(lock, { host: 'line2-server' });
    release();
    expect(fs.readFileSync(lock, 'utf8')).toBe(other);
  });

  it('leaves no empty lock behind when the disk is full, which would refuse every start', () => {
    const lock = path.join(dir, 'full-disk.lock');
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
    });
    const spy = vi.spyOn(fs, 'writeSync').mockImplementation(() => {
      throw full;
    });
    try {
      expect(() => acquireLock(lock)).toThrow(full);
    } finally {
      spy.mockRestore();
    }
    expect(fs.existsSync(lock)).toBe(false);
    acquireLock(lock)();
  });

  it('refuses a lock file it cannot read, naming the file to delete', () => {
    const lock = path.join(dir, 'garbage.lock');
    for (const content of ['', 'not a lock', '{"pid": 1}']) {
      fs.writeFileSync(lock, content);
      expect(() => acquireLock(lock)).toThrow(
        `which this server cannot read (${JSON.stringify(content)})`,
      );
      expect(() => acquireLock(lock)).toThrow(`delete ${lock} and start again`);
      expect(fs.readFileSync(lock, 'utf8')).toBe(content);
    }
  });
});

/** A process in a PID namespace of its own (as in a container), if this machine allows one. */
const unshare = ['-r', '-p', '--mount-proc', '--kill-child'];
const canUnshare =
  process.platform === 'linux' &&
  spawnSync('unshare', [...unshare, 'true'], { stdio: 'ignore' }).status === 0;

describe.runIf(canUnshare)('database lock across PID namespaces (two containers)', () => {
  /** unshare's arguments to run `script` with `acquireLock` and `lock` defined, as pid 1. */
  const inContainer = (lock: string, script: string) => [
    ...unshare,
    process.execPath,
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    `const { acquireLock } = await import(${JSON.stringify(path.resolve('server/db/lock.ts'))});
     const lock = ${JSON.stringify(lock)};
     ${script}`,
  ];

  it('refuses the lock to a second container while the first holds it (both pid 1)', async () => {
    const lock = path.join(dir, 'containers.lock');
    const first = spawn(
      'unshare',
      // A heartbeat of 200 ms, so the lock is refreshed (0 s ago) whenever the others judge it.
      inContainer(
        lock,
        "acquireLock(lock, { heartbeatMs: 200 }); console.log('held', process.pid); " +
          'setTimeout(() => {}, 30000);',
      ),
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const said = await new Promise<string>((resolve, reject) => {
        first.stdout.on('data', (data: Buffer) => resolve(data.toString().trim()));
        first.on('exit', (code) => reject(new Error(`the first container exited with ${code}`)));
      });
      expect(said).toBe('held 1');
      const second = spawnSync(
        'unshare',
        inContainer(
          lock,
          "try { acquireLock(lock); console.log('held', process.pid); } catch (e) { console.log(e.message); }",
        ),
        { encoding: 'utf8' },
      );
      const refusal =
        `in use by process 1 on host ${os.hostname()} since ${holderIn(lock).since} ` +
        '(in another container (PID namespace): its pid cannot be checked from here; it ' +
        'refreshed the lock 0 s ago)';
      expect(second.stdout).toContain(refusal);
      expect(() => acquireLock(lock)).toThrow(refusal);
    } finally {
      first.kill('SIGKILL');
    }
  }, 30_000);

  it("gives a killed container's lock to its restart once the heartbeat is stale", async () => {
    const lock = path.join(dir, 'killed-container.lock');
    const first = spawn(
      'unshare',
      inContainer(lock, "acquireLock(lock); console.log('held'); setTimeout(() => {}, 30000);"),
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      first.stdout.on('data', () => resolve());
      first.on('exit', (code) => reject(new Error(`the first container exited with ${code}`)));
    });
    // SIGKILL (or the OOM killer): no release, so its lock stays behind.
    const killed = new Promise((resolve) => first.on('exit', resolve));
    first.kill('SIGKILL');
    await killed;
    const left = fs.readFileSync(lock, 'utf8');
    const restart = () =>
      spawnSync(
        'unshare',
        inContainer(
          lock,
          "try { acquireLock(lock); console.log('held', process.pid); } catch (e) { console.log(e.message); }",
        ),
        { encoding: 'utf8' },
      ).stdout;
    refreshedAgo(lock, 5_000);
    // Seconds pass while the restart starts, so the age is matched as a number, not as 5.
    const refused = restart();
    expect(refused).toMatch(/from here; it refreshed the lock \d+ s ago\); stop that server first/);
    expect(refused).toContain('its lock is taken over once its last refresh is 60 s old');
    expect(fs.readFileSync(lock, 'utf8')).toBe(left);
    refreshedAgo(lock, STALE_AFTER_MS + 5_000);
    expect(restart()).toBe('held 1\n');
  }, 30_000);
});
