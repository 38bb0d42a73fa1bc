// Something test files share, made once per source state into a temp folder named by a hash
// of its sources. Test files may run in parallel: one makes it (holding a lock folder with its
// pid), the others wait; a lock whose maker died is taken over. Older states are removed later.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

const staleAfterMs = 60 * 60 * 1000;

/** Files under `folder` (relative to the repo), sorted, without those matching `skip`. */
export function filesUnder(folder: string, skip?: RegExp): string[] {
  return readdirSync(path.join(repoRoot, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !skip?.test(file))
    .sort();
}

/** A short hash of the files' names (relative to the repo) and contents, and of `salt`. */
export function hashFiles(files: readonly string[], salt = ''): string {
  const hash = createHash('sha256');
  hash.update(salt);
  for (const file of files) {
    hash.update(path.relative(repoRoot, file));
    hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid in a lock folder; 0 while it is still being written or already gone. */
function lockOwner(lock: string): number {
  try {
    return Number(readFileSync(path.join(lock, 'pid'), 'utf8')) || 0;
  } catch {
    return 0;
  }
}

/** Removes folders of this kind (`prefix` + hash) of older source states, left by earlier runs. */
function removeOld(prefix: string, keep: string): void {
  const parent = path.dirname(keep);
  for (const name of readdirSync(parent)) {
    const full = path.join(parent, name);
    if (!name.startsWith(prefix) || full === keep) continue;
    // Another worker may remove its lock or scratch folder between the listing and this look.
    const found = statSync(full, { throwIfNoEntry: false });
    if (found && Date.now() - found.mtimeMs > staleAfterMs) {
      rmSync(full, { recursive: true, force: true });
    }
  }
}

export interface BuildOnceOptions {
  /** Folder name prefix in the temp folder, e.g. 'lc-e2e-web-'. */
  prefix: string;
  /** Where the folder goes; the temp folder when omitted. */
  parent?: string;
  /** Hash of the sources it is made from. */
  hash: string;
  /** A file inside the folder that exists only once it is complete. */
  doneMarker: string;
  timeoutMs: number;
  /**
   * Makes it in `scratch`, a fresh folder of this process's own (created), which becomes the
   * shared folder only once `make` resolves: a failed or killed make is never handed out.
   */
  make: (scratch: string) => Promise<void>;
}

async function makeAtomically(
  target: string,
  make: (scratch: string) => Promise<void>,
): Promise<void> {
  const scratch = `${target}.tmp-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch);
  try {
    await make(scratch);
    renameSync(scratch, target);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
}

/** The folder of the current source state, made by this file or waited for. */
export async function buildOnce(options: BuildOnceOptions): Promise<string> {
  const parent = options.parent ?? tmpdir();
  mkdirSync(parent, { recursive: true });
  const target = path.join(parent, `${options.prefix}${options.hash}`);
  const lock = `${target}.lock`;
  const done = path.join(target, options.doneMarker);
  const deadline = Date.now() + options.timeoutMs;
  while (!existsSync(done)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${target}`);
    try {
      mkdirSync(lock);
    } catch {
      const owner = lockOwner(lock);
      if (owner > 0 && !processAlive(owner)) rmSync(lock, { recursive: true, force: true });
      await sleep(250);
      continue;
    }
    try {
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      if (!existsSync(done)) await makeAtomically(target, options.make);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  // Handed out is in use: another run's removeOld measures an hour from its last use, not its make.
  const now = new Date();
  utimesSync(target, now, now);
  removeOld(options.prefix, target);
  return target;
}
