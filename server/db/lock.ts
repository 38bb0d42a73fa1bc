// PGlite has no lock of its own and two processes on one data directory corrupt it: a pid file
// created exclusively guards it. A lock left by a dead process is taken over.
import fs from 'node:fs';

export class LockError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Locks held by this process. A lock file naming our pid that is not in here was left by an
 * earlier process that had the same pid (a restarted container is often pid 1 again). */
const heldHere = new Set<string>();

/** Takes the lock or throws a LockError naming the holder; returns the release function. */
export function acquireLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      heldHere.add(lockPath);
      return () => {
        heldHere.delete(lockPath);
        fs.rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lockPath, 'utf8').trim());
      const held = holder === process.pid ? heldHere.has(lockPath) : holder > 0 && isAlive(holder);
      if (Number.isInteger(holder) && held) {
        throw new LockError(
          `The database at ${lockPath.replace(/\.lock$/, '')} is in use by process ${holder}; ` +
            'stop that server first (one process per data directory).',
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new LockError(`Could not take the database lock ${lockPath}`);
}
