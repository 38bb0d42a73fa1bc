// A full or read-only disk under the file store or the database, recognised wherever it surfaces:
// a Node error from the file store, or a PostgreSQL/PGlite error from the database (which arrives
// as a DatabaseError, usually wrapped in Drizzle's DrizzleQueryError as its `cause`). The error
// handler (app.ts) answers it with 507 in words an operator can pass on; GET /api/health reports it.
import fs from 'node:fs';
import path from 'node:path';

export type StorageProblem = 'full' | 'read-only';

export interface StorageFailure {
  problem: StorageProblem;
  /** The failed operation removed a file, which routes do after their change committed. */
  removal: boolean;
}

/** Node's error codes for a disk that cannot take a write. */
const NODE_CODES: Record<string, StorageProblem> = {
  ENOSPC: 'full',
  EDQUOT: 'full',
  EROFS: 'read-only',
};

/** Node syscalls that remove a file or folder (`fs.rm` reports the unlink or rmdir, or rm). */
const REMOVALS = new Set(['unlink', 'rmdir', 'rm']);

/**
 * SQLSTATEs of a failed file operation in PostgreSQL and PGlite: disk_full always means a full
 * disk; the others only with the operating system's words in the message, since they have other
 * causes too (42501 is also "permission denied for table"). Tried by hand on PGlite 0.5: a full
 * tmpfs gives 53100 "could not extend file …: No space left on device", a read-only bind mount of
 * its folder 42501 "could not open file …: Read-only file system" (PostgreSQL files EROFS as a
 * permission error), and a message raised without a class is XX000 ("could not create
 * temporary file …: %m"). 58030 is io_error.
 */
const DISK_FULL = '53100';
const FILE_ACCESS_CODES = new Set(['42501', '58030', 'XX000']);
const READ_ONLY_TEXT = /Read-only file system/i;
const FULL_TEXT = /No space left on device|Disk quota exceeded/i;

/**
 * Whether `target`, or the nearest folder above it that exists, is on a read-only file system
 * (access(W_OK) answers EROFS there, even for root). For errors that hide EROFS: Node's recursive
 * mkdir reports it as ENOENT when the folder does not exist yet (after an error it does not
 * expect it looks the path up, which is missing), so a first upload into a new folder of a
 * read-only store would otherwise pass for a missing folder.
 */
export function onReadOnlyFileSystem(target: string): boolean {
  for (let folder = target; ; folder = path.dirname(folder)) {
    if (fs.existsSync(folder)) {
      try {
        fs.accessSync(folder, fs.constants.W_OK);
        return false;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'EROFS';
      }
    }
    if (path.dirname(folder) === folder) return false;
  }
}

function problemOf(error: object): StorageFailure | null {
  const fields = error as { code?: unknown; message?: unknown; syscall?: unknown; path?: unknown };
  const { code, message, syscall } = fields;
  if (typeof code !== 'string') return null;
  const nodeProblem = NODE_CODES[code];
  if (nodeProblem) {
    return { problem: nodeProblem, removal: typeof syscall === 'string' && REMOVALS.has(syscall) };
  }
  if (code === 'ENOENT' && syscall === 'mkdir' && typeof fields.path === 'string') {
    return onReadOnlyFileSystem(fields.path) ? { problem: 'read-only', removal: false } : null;
  }
  if (code === DISK_FULL) return { problem: 'full', removal: false };
  if (FILE_ACCESS_CODES.has(code) && typeof message === 'string') {
    if (READ_ONLY_TEXT.test(message)) return { problem: 'read-only', removal: false };
    if (FULL_TEXT.test(message)) return { problem: 'full', removal: false };
  }
  return null;
}

/** The storage problem behind an error (or behind its causes), or null when it is another error. */
export function storageFailure(error: unknown): StorageFailure | null {
  let current: unknown = error;
  // A few levels of `cause` are enough (Drizzle wraps once); the bound guards against a cycle.
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const found = problemOf(current);
    if (found) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * What the person who made the request is told (507). A failed write means nothing was saved:
 * files are written before the database commits, and a failed statement rolls its transaction
 * back. A failed removal comes after a commit, so there the change may already be saved. A
 * resumable upload's PATCH (`uploadChunk`) is the exception: its bytes are appended as they
 * arrive, those that reached the disk stay, and the upload goes on after them.
 */
export function storageFailureMessage(
  failure: StorageFailure,
  method: string,
  uploadChunk = false,
): string {
  const state = `The server's storage is ${failure.problem}`;
  const tell = 'Tell the administrator (the server log has the details).';
  if (failure.removal) {
    return `${state}, so files could not be removed; the change itself may have been saved: check it before trying again. ${tell}`;
  }
  if (method === 'GET' || method === 'HEAD') return `${state}. ${tell}`;
  if (uploadChunk && method === 'PATCH') {
    return `${state}, so the upload stopped; it goes on from what the server received once there is room. ${tell}`;
  }
  return `${state}, so nothing was saved. ${tell}`;
}
