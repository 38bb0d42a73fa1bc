// Configuration from environment variables, validated once at start-up: every problem is
// collected so the operator sees one message listing all of them.
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Built web app served with history fallback; absent folder → only /api is served. */
  distDir: string;
  /** Real PostgreSQL; when absent the embedded PGlite in `dataDir/pglite` is used. */
  databaseUrl: string | null;
  /** HS256 key for tokens and media cookies; absent → a random key kept in `dataDir/jwt-secret`. */
  jwtSecret: string | null;
  tokenTtlSeconds: number;
  /** log2 of the scrypt cost N (OWASP: 17). Tests lower it to stay fast. */
  scryptLog2N: number;
  /** Hashes computed at once (each takes ~128 MiB at N=2^17). */
  scryptConcurrency: number;
  /** Login attempts per client IP per minute. */
  loginRateLimit: number;
  maxUploadBytes: number;
  /** Largest inspection video a resumable upload may declare (413 above it). */
  maxVideoBytes: number;
  /** An unfinished video upload is removed this long after it was created. */
  uploadExpiryHours: number;
  adminEmail: string | null;
  adminPassword: string | null;
  /** Load the demo dataset into an empty database (default: when no admin is configured). */
  demo: boolean;
  logLevel: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const text = (name: string): string | null => {
    const value = env[name]?.trim();
    return value ? value : null;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = text(name);
    if (raw === null) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got '${raw}')`);
      return fallback;
    }
    return value;
  };

  const databaseUrl = text('DATABASE_URL');
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const jwtSecret = text('JWT_SECRET');
  if (jwtSecret !== null && jwtSecret.length < 32) {
    problems.push('JWT_SECRET must be at least 32 characters');
  }
  const adminEmail = text('ADMIN_EMAIL');
  const adminPassword = env.ADMIN_PASSWORD ?? null;
  if ((adminEmail === null) !== (adminPassword === null)) {
    problems.push('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if (adminEmail !== null && !/^[^\s@]+@[^\s@]+$/.test(adminEmail)) {
    problems.push('ADMIN_EMAIL must be an email address');
  }
  if (adminPassword !== null && adminPassword.length < 8) {
    problems.push('ADMIN_PASSWORD must be at least 8 characters');
  }
  const demoRaw = text('DEMO');
  if (demoRaw !== null && demoRaw !== 'on' && demoRaw !== 'off') {
    problems.push(`DEMO must be 'on' or 'off' (got '${demoRaw}')`);
  }
  const logLevel = text('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }

  const config: Config = {
    port: int('PORT', 8080, 0, 65535),
    host: text('HOST') ?? '0.0.0.0',
    dataDir: path.resolve(text('DATA_DIR') ?? 'data'),
    distDir: path.resolve(text('DIST_DIR') ?? 'dist'),
    databaseUrl,
    jwtSecret,
    tokenTtlSeconds: int('TOKEN_TTL_SECONDS', 12 * 3600, 60, 7 * 24 * 3600),
    scryptLog2N: int('SCRYPT_LOG2_N', 17, 10, 20),
    scryptConcurrency: int('SCRYPT_CONCURRENCY', 2, 1, 16),
    loginRateLimit: int('LOGIN_RATE_LIMIT', 10, 1, 1_000_000),
    maxUploadBytes: int('MAX_UPLOAD_BYTES', 20 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    maxVideoBytes: int('MAX_VIDEO_BYTES', 4 * 1024 ** 3, 1024, 64 * 1024 ** 3),
    uploadExpiryHours: int('UPLOAD_EXPIRY_HOURS', 72, 1, 24 * 90),
    adminEmail: adminEmail?.toLowerCase() ?? null,
    adminPassword,
    demo: demoRaw === null ? adminEmail === null : demoRaw === 'on',
    logLevel,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
