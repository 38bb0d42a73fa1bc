// A failed start in the words of the setting to fix (docs/server.md, "Configuration"): the
// operator reads which setting and why, not a stack trace. Errors not known here keep theirs.
import type { Config } from './config.ts';

interface SystemError {
  code?: string;
  path?: string;
  message?: string;
  cause?: unknown;
}

const asSystemError = (error: unknown): SystemError =>
  typeof error === 'object' && error !== null ? (error as SystemError) : {};

/** The error, or the first cause in its chain, carrying a system error code. */
function rootCause(error: unknown): SystemError {
  for (let at = asSystemError(error), depth = 0; depth < 5; depth++) {
    if (at.code) return at;
    if (!at.cause) break;
    at = asSystemError(at.cause);
  }
  return asSystemError(error);
}

/** The message to print for a start that failed, or null for an error to print whole. */
export function startupProblem(
  error: unknown,
  config: Pick<Config, 'port' | 'host' | 'dataDir' | 'databaseUrl' | 'tls'> | null,
): string | null {
  if (!config) return null;
  const cause = rootCause(error);
  const said = cause.message ?? String(error);
  const { port, host, dataDir } = config;
  switch (cause.code) {
    case 'EADDRINUSE':
      return `PORT ${port} is already in use on ${host} (another server, or this one still running): stop it, or set PORT to a free port`;
    case 'EACCES':
      if (cause.path?.startsWith(dataDir)) {
        return `DATA_DIR ${dataDir} cannot be written by this user (${said}): give it the folder, or set DATA_DIR`;
      }
      return `PORT ${port} on ${host} needs privileges this user lacks (${said}): use a port above 1023 behind the reverse proxy (docs/deployment.md)`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `HOST ${host} is not an address of this machine (${said}): set HOST to one of its addresses, or 0.0.0.0 for all`;
    case 'EROFS':
    case 'EEXIST':
    case 'ENOTDIR':
      return `DATA_DIR ${dataDir} cannot be used as the data folder (${said}): set DATA_DIR to a writable folder`;
    case 'ECONNREFUSED':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      if (config.databaseUrl) {
        return `DATABASE_URL: the PostgreSQL server cannot be reached (${said}): start it, or check the host and port`;
      }
      return null;
    default:
      if (config.tls && /key values mismatch|KEY_VALUES_MISMATCH/i.test(said)) {
        return `TLS_CERT and TLS_KEY do not belong together (${said}): give the key that was made with the certificate`;
      }
      return null;
  }
}
