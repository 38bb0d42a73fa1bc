// PGlite has no lock of its own and two processes on one data directory corrupt it (one server's
// records are lost): a lock file created exclusively guards it. Node has no flock, and a pid alone
// proves nothing across containers (both are pid 1) or hosts sharing a volume, so the file says who
// holds it (host, boot id, PID namespace, pid, a random token, since when) and a lock is taken over
// only when it is provably stale. A holder whose pid cannot be checked from here (another host or
// container) is judged by its heartbeat, the file's modification time that it refreshes: a killed
// container restarts in a new PID namespace and must get its own old lock back without a person.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class LockError extends Error {}

/** How often a holder refreshes its lock file's modification time. */
export const HEARTBEAT_MS = 10_000;
/** A lock whose holder cannot be checked is taken over once its last refresh is this old. */
export const STALE_AFTER_MS = 60_000;

export interface LockOptions {
  /** HEARTBEAT_MS by default (tests: shorter). */
  heartbeatMs?: number;
  /** STALE_AFTER_MS by default (tests: shorter). */
  staleAfterMs?: number;
  /** Where a failed refresh is reported; console.warn by default. */
  warn?: (message: string) => void;
}

/** Who holds a lock, as written into the lock file (one JSON line). */
export interface LockHolder {
  pid: number;
  host: string;
  /** The kernel's boot id: another value on the same host means the machine restarted. */
  bootId: string | null;
  /** The PID namespace (`pid:[…]`): a pid is only meaningful inside its own namespace. */
  pidNamespace: string | null;
  token: string;
  /** ISO time the lock was taken. */
  since: string;
}

const readOrNull = (read: () => string): string | null => {
  try {
    return read().trim() || null;
  } catch {
    return null;
  }
};

/** Random per process (module instance), so "our own pid" is never mistaken for "our own lock". */
const token = randomBytes(16).toString('hex');

/** The machine's boot and this process's PID namespace do not change while it runs. */
const bootId = readOrNull(() => fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'));
const pidNamespace = readOrNull(() => fs.readlinkSync('/proc/self/ns/pid'));

/** This process as a lock holder would be written now (exported for the tests). */
export function thisHolder(): Omit<LockHolder, 'since'> {
  return { pid: process.pid, host: os.hostname(), bootId, pidNamespace, token };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Lock files this process holds (resolved path → its content), to refuse a second acquire here. */
const heldHere = new Map<string, string>();

type Holder = { kind: 'pid'; pid: number } | { kind: 'holder'; holder: LockHolder };

/** Parses a lock file: the old format (a pid alone) or ours; null for anything else. */
function parseLock(content: string): Holder | null {
  const text = content.trim();
  if (/^[0-9]+$/.test(text)) return { kind: 'pid', pid: Number(text) };
  try {
    const h = JSON.parse(text) as Partial<LockHolder> | null;
    const stringOrNull = (v: unknown) => v === null || typeof v === 'string';
    if (
      h &&
      Number.isSafeInteger(h.pid) &&
      (h.pid as number) > 0 &&
      typeof h.host === 'string' &&
      typeof h.token === 'string' &&
      typeof h.since === 'string' &&
      stringOrNull(h.bootId) &&
      stringOrNull(h.pidNamespace)
    ) {
      return { kind: 'holder', holder: h as LockHolder };
    }
  } catch {
    // Not JSON: reported below as a lock file that cannot be read.
  }
  return null;
}

/** A lock file's content and its last refresh (modification time), read from one open file. */
interface Found {
  content: string;
  mtimeMs: number;
}

/**
 * The file system's clock now, from a file created beside the lock: a network share sets times by
 * its own clock, so a heartbeat is timed by that one and a host whose clock is behind is not stale.
 */
function fileSystemNow(lockPath: string): number {
  const probe = `${lockPath}.${token}.now`;
  const fd = fs.openSync(probe, 'w', 0o644);
  try {
    return fs.fstatSync(fd).mtimeMs;
  } finally {
    fs.closeSync(fd);
    fs.rmSync(probe, { force: true });
  }
}

/** Why the lock is still held, or null when it is provably stale. */
type Verdict = { because: string; refreshedMsAgo?: number } | null;

function heldBecause(lock: Holder, lockPath: string, found: Found, staleAfterMs: number): Verdict {
  const me = thisHolder();
  const running = { because: 'that process is running' };
  if (lock.kind === 'pid') {
    // Written by a version before the holder was recorded: judged by its pid alone, as then.
    if (lock.pid === me.pid) return null; // our pid, not our lock: an earlier process had it
    return lock.pid > 0 && isAlive(lock.pid) ? running : null;
  }
  const h = lock.holder;
  if (heldHere.get(lockPath) === found.content) return { because: 'this process holds it already' };
  // A holder that cannot be checked is alive while it refreshes its lock, gone once it stopped.
  const byHeartbeat = (because: string): Verdict => {
    const refreshedMsAgo = Math.max(0, fileSystemNow(lockPath) - found.mtimeMs);
    return refreshedMsAgo > staleAfterMs ? null : { because, refreshedMsAgo };
  };
  if (h.host !== me.host) {
    return byHeartbeat(`on another host; it cannot be checked from ${me.host}`);
  }
  if (h.bootId && me.bootId && h.bootId !== me.bootId) return null; // the machine restarted
  if (h.bootId !== me.bootId) return byHeartbeat('its boot id cannot be compared with this one');
  if (h.pidNamespace !== me.pidNamespace) {
    return byHeartbeat('in another container (PID namespace): its pid cannot be checked from here');
  }
  // Same pid space: one pid is one process at a time, so our own pid with another token is a
  // process that has ended (a restart that got the same pid).
  if (h.pid === me.pid) return null;
  return isAlive(h.pid) ? running : null;
}

function describeHolder(lock: Holder, lockPath: string): string {
  if (lock.kind === 'holder') {
    const h = lock.holder;
    return `process ${h.pid} on host ${h.host} since ${h.since}`;
  }
  const since = readOrNull(() => fs.statSync(lockPath).mtime.toISOString());
  return `process ${lock.pid}${since ? ` since ${since}` : ''}`;
}

/** The file opened with `flags`, or null when it fails with `absent` (it exists / is gone). */
function openUnless(lockPath: string, flags: string, absent: 'EEXIST' | 'ENOENT'): number | null {
  try {
    return fs.openSync(lockPath, flags, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === absent) return null;
    throw error;
  }
}

/** Creates the lock file exclusively with `content`; false when it exists already. */
function createLock(lockPath: string, content: string): boolean {
  const fd = openUnless(lockPath, 'wx', 'EEXIST');
  if (fd === null) return false;
  try {
    fs.writeSync(fd, content);
    fs.closeSync(fd);
  } catch (error) {
    // A lock left empty (a full disk) would refuse every later start: it is ours, remove it.
    try {
      fs.closeSync(fd);
    } catch {
      // Already closed, or the close itself failed: the file is removed either way.
    }
    fs.rmSync(lockPath, { force: true });
    throw error;
  }
  return true;
}

/** The lock file's content and modification time; null when there is none. */
function readLock(lockPath: string): Found | null {
  const fd = openUnless(lockPath, 'r', 'ENOENT');
  if (fd === null) return null;
  try {
    const { mtimeMs } = fs.fstatSync(fd);
    return { content: fs.readFileSync(fd, 'utf8'), mtimeMs };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Refreshes our lock's modification time by writing its content again in place (a write is timed
 * by the file system's clock, as fileSystemNow reads it); false when the lock is not ours any more.
 */
function refreshLock(lockPath: string, content: string): boolean {
  const fd = openUnless(lockPath, 'r+', 'ENOENT');
  if (fd === null) return false;
  try {
    // Checked through the same open file, so another server's lock is never written over.
    if (fs.readFileSync(fd, 'utf8') !== content) return false;
    fs.writeSync(fd, content, 0);
    return true;
  } finally {
    fs.closeSync(fd);
  }
}

/** Refreshes the lock every heartbeatMs until stopped; a failure is reported, never thrown. */
function startHeartbeat(
  lockPath: string,
  content: string,
  staleAfterMs: number,
  heartbeatMs: number,
  warn: (message: string) => void,
): NodeJS.Timeout {
  const timer = setInterval(() => {
    try {
      if (refreshLock(lockPath, content)) return;
      clearInterval(timer);
      warn(
        `The database lock ${lockPath} was deleted or taken over while this server held it: ` +
          'another server may be using the same database now; stop one of them.',
      );
    } catch (error) {
      warn(
        `Could not refresh the database lock ${lockPath} (${(error as Error).message}); ` +
          'another server may take it over once its last refresh is ' +
          `${Math.round(staleAfterMs / 1000)} s old.`,
      );
    }
  }, heartbeatMs);
  // The heartbeat alone must not keep a process alive that has nothing else to do.
  timer.unref();
  return timer;
}

/**
 * Takes the lock or throws a LockError naming the holder; returns the release function. While held,
 * the lock's modification time is refreshed every heartbeatMs.
 */
export function acquireLock(lockPathGiven: string, options: LockOptions = {}): () => void {
  const lockPath = path.resolve(lockPathGiven);
  const database = lockPath.replace(/\.lock$/, '');
  const staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS;
  for (let attempt = 0; attempt < 3; attempt++) {
    const content = `${JSON.stringify({ ...thisHolder(), since: new Date().toISOString() })}\n`;
    if (createLock(lockPath, content)) {
      heldHere.set(lockPath, content);
      const heartbeat = startHeartbeat(
        lockPath,
        content,
        staleAfterMs,
        options.heartbeatMs ?? HEARTBEAT_MS,
        options.warn ?? ((message) => console.warn(message)),
      );
      return () => {
        clearInterval(heartbeat);
        if (heldHere.get(lockPath) !== content) return;
        heldHere.delete(lockPath);
        // Only our own lock is removed: one another process holds now must stay.
        if (readLock(lockPath)?.content === content) fs.rmSync(lockPath, { force: true });
      };
    }
    const found = readLock(lockPath);
    if (found === null) continue; // released meanwhile: try again
    const lock = parseLock(found.content);
    if (!lock) {
      throw new LockError(
        `The database at ${database} is locked by ${lockPath}, which this server cannot read ` +
          `(${JSON.stringify(found.content.slice(0, 80))}): another server may be writing it ` +
          `now. If no server uses ${database}, delete ${lockPath} and start again.`,
      );
    }
    const held = heldBecause(lock, lockPath, found, staleAfterMs);
    if (held) {
      const inUse = `The database at ${database} is in use by ${describeHolder(lock, lockPath)}`;
      const stop = 'stop that server first (one process per data directory)';
      if (held.refreshedMsAgo === undefined) {
        throw new LockError(
          `${inUse} (${held.because}); ${stop}. If that server is really gone, delete ` +
            `${lockPath} and start again.`,
        );
      }
      // Whole seconds, and the wait is their difference, so the message adds up as read.
      const ago = Math.round(held.refreshedMsAgo / 1000);
      const after = Math.round(staleAfterMs / 1000);
      throw new LockError(
        `${inUse} (${held.because}; it refreshed the lock ${ago} s ago); ${stop}. If that ` +
          `server is really gone, its lock is taken over once its last refresh is ${after} s ` +
          `old: start again in ${Math.max(0, after - ago)} s, or delete ${lockPath} and start ` +
          'again.',
      );
    }
    // Stale: removed only if it is still the lock judged, neither refreshed since (its holder
    // lives) nor replaced (another process took over).
    const again = readLock(lockPath);
    if (again?.content === found.content && again.mtimeMs === found.mtimeMs) {
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new LockError(
    `Could not take the database lock ${lockPath}: other processes keep taking it; ` +
      `start one server per data directory.`,
  );
}
