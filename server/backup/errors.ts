// Errors of backup and restore in words an operator can act on. PGlite's file system is
// Emscripten's: it throws ErrnoError objects that are not Errors (String() gives "[object Object]")
// and carry Emscripten's own errno numbers, not the operating system's.
import util from 'node:util';

/** Emscripten's errno numbers as PGlite 0.5 builds them (ERRNO_CODES in its dist/): a subset. */
const EMSCRIPTEN_ERRNO: Record<number, string> = {
  2: 'EACCES',
  8: 'EBADF',
  19: 'EDQUOT',
  20: 'EEXIST',
  22: 'EFBIG',
  28: 'EINVAL',
  29: 'EIO',
  31: 'EISDIR',
  33: 'EMFILE',
  41: 'ENFILE',
  44: 'ENOENT',
  48: 'ENOMEM',
  51: 'ENOSPC',
  54: 'ENOTDIR',
  55: 'ENOTEMPTY',
  63: 'EPERM',
  69: 'EROFS',
};

const MEANING: Record<string, string> = {
  EACCES: 'permission denied',
  EBADF: 'bad file descriptor',
  EDQUOT: 'disk quota exceeded',
  EEXIST: 'file already exists',
  EFBIG: 'file too large',
  EINVAL: 'invalid argument',
  EIO: 'input/output error',
  EISDIR: 'is a directory',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  ENOENT: 'no such file or directory',
  ENOMEM: 'out of memory',
  ENOSPC: 'no space left on device',
  ENOTDIR: 'not a directory',
  ENOTEMPTY: 'directory not empty',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
};

/** Codes that mean the disk being written is at fault (full, read-only, refused, failing). */
export const DISK_PROBLEMS: ReadonlySet<string> = new Set([
  'ENOSPC',
  'EDQUOT',
  'EFBIG',
  'EROFS',
  'EACCES',
  'EPERM',
  'EIO',
]);

interface EmscriptenErrnoError {
  name: 'ErrnoError';
  errno: number;
}

const isErrnoError = (error: unknown): error is EmscriptenErrnoError =>
  typeof error === 'object' &&
  error !== null &&
  !(error instanceof Error) &&
  (error as { name?: unknown }).name === 'ErrnoError' &&
  typeof (error as { errno?: unknown }).errno === 'number';

/** The system error code of a thrown value (Node's `code`, or Emscripten's errno by name). */
export function errorCode(error: unknown): string | undefined {
  if (isErrnoError(error)) return EMSCRIPTEN_ERRNO[error.errno];
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What a code means, in words ("no space left on device"), or the code itself. */
export const meaningOf = (code: string): string => MEANING[code] ?? code;

/** Any thrown value as readable text: never "[object Object]". */
export function describeThrown(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (isErrnoError(error)) {
    const code = EMSCRIPTEN_ERRNO[error.errno];
    return code
      ? `${code}: ${meaningOf(code)}`
      : `file system error ${error.errno} (Emscripten errno, PGlite)`;
  }
  if (typeof error === 'string') return error;
  return util.inspect(error, { breakLength: Number.POSITIVE_INFINITY, depth: 3 });
}
