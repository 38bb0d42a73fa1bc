// Configuration from environment variables, validated once at start-up: every problem is
// collected so the operator sees one message listing all of them.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { guessablePasswordRefusal, isGuessablePassword } from './auth/guessable-password.ts';
import { MIN_PASSWORD_LENGTH } from './schemas/password-rule.ts';
import { DIRECTION_CONTROLS } from './schemas/text-rules.ts';
import { MAX_USER_NAME_LENGTH } from './schemas/users.ts';

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
  /** A session's absolute life from its sign-in, however active its user. */
  tokenTtlSeconds: number;
  /**
   * Minutes without activity that end a session: a bearer token lives this long unless the app
   * renews it (POST /api/session/renew), and the app signs out at this limit.
   */
  sessionIdleMinutes: number;
  /** log2 of the scrypt cost N (OWASP: 17). Tests lower it to stay fast. */
  scryptLog2N: number;
  /** Hashes computed at once (each takes ~128 MiB at N=2^17). */
  scryptConcurrency: number;
  /** Hashes that may wait for a free slot; beyond that a request answers 503. */
  scryptQueue: number;
  /** Failed password checks per client address per minute (429 beyond); successes never count. */
  loginRateLimit: number;
  /** Failed password checks of one account within the window that lock it. */
  loginMaxFailures: number;
  loginFailureWindowSeconds: number;
  /** The first lock's length; each further lock without a sign-in in between doubles it. */
  loginLockSeconds: number;
  /**
   * Days a browser stays known for an account after a sign-in there (its failures then count
   * against the browser, not the account's lock); 0: no browser is known.
   */
  knownBrowserDays: number;
  /** Requests to password-setting routes per user and per address per minute. */
  passwordRateLimit: number;
  /** The same routes' requests a minute from one client address (a training room behind one NAT). */
  passwordAddressRateLimit: number;
  /** A user's own new password may not be one of its last this many (0: no history is kept). */
  passwordHistory: number;
  /** Days after which a password must be replaced at the next sign-in; 0: never. */
  passwordMaxAgeDays: number;
  /** Lifetime of the media-only token in the media cookie. */
  mediaTokenTtlSeconds: number;
  /** Fastify's `trustProxy`: false, a hop count, or the proxies' addresses and CIDRs. */
  trustProxy: false | number | string[];
  /** PEM files; when both are set the server speaks HTTPS only. */
  tls: { cert: string; key: string } | null;
  /** Whole-request limit (headers and body), and the idle limit of a connection. */
  requestTimeoutSeconds: number;
  connectionTimeoutSeconds: number;
  /** Bytes of serialized video lists kept by the read cache (PGlite only). */
  videoListCacheBytes: number;
  maxUploadBytes: number;
  /** Largest inspection video a resumable upload may declare (413 above it). */
  maxVideoBytes: number;
  /** An unfinished video upload is removed this long after it was created. */
  uploadExpiryHours: number;
  adminEmail: string | null;
  adminPassword: string | null;
  /** The first admin's name, printed on what it signs (21 CFR 11.50): a person's, not a role's. */
  adminName: string;
  /** Load the demo dataset into an empty database (default: when no admin is configured). */
  demo: boolean;
  logLevel: string;
  analysis: AnalysisConfig;
}

/** The analysis pipeline's settings (docs/analysis.md). */
export interface AnalysisConfig {
  /** Jobs this process runs at once; 0 runs none here (another process takes them). */
  concurrency: number;
  /** Seconds between regular keyframe images. */
  keyframeInterval: number;
  maxAttempts: number;
  /** How long a claimed job stays this process's without a heartbeat. */
  leaseSeconds: number;
  retryBaseSeconds: number;
  pollMs: number;
  ffmpegPath: string | null;
  detector: DetectorConfig;
}

export type DetectorConfig =
  | { kind: 'none' }
  | { kind: 'onnx'; model: string; labels: string | null; threshold: number; iouThreshold: number }
  | {
      kind: 'http';
      url: string;
      token: string | null;
      threshold: number;
      timeoutMs: number;
      retries: number;
      /** Recorded with the predictions (DETECTOR_VERSION): the service's own version name. */
      version: string;
    };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const UNPRINTABLE = new RegExp(`[\\u0000-\\u001f\\u007f${DIRECTION_CONTROLS}]`);

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const text = (name: string): string | null => {
    const value = env[name]?.trim();
    return value ? value : null;
  };
  const number = (name: string, fallback: number, min: number, max: number, integer = false) => {
    const raw = text(name);
    if (raw === null) return fallback;
    const value = Number(raw);
    const valid = integer ? Number.isInteger(value) : Number.isFinite(value);
    if (!valid || value < min || value > max) {
      const kind = integer ? 'an integer' : 'a number';
      problems.push(`${name} must be ${kind} from ${min} to ${max} (got '${raw}')`);
      return fallback;
    }
    return value;
  };
  const int = (name: string, fallback: number, min: number, max: number) =>
    number(name, fallback, min, max, true);

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
  if (adminPassword !== null && adminPassword.length < MIN_PASSWORD_LENGTH) {
    problems.push(`ADMIN_PASSWORD must be at least ${MIN_PASSWORD_LENGTH} characters`);
  } else if (adminPassword !== null && isGuessablePassword(adminPassword)) {
    problems.push(guessablePasswordRefusal('ADMIN_PASSWORD'));
  }
  const adminName = text('ADMIN_NAME') ?? 'Administrator';
  // The rules of a name typed in the users form: stored, and shown and printed as written.
  if (adminName.length > MAX_USER_NAME_LENGTH) {
    problems.push(`ADMIN_NAME must be at most ${MAX_USER_NAME_LENGTH} characters`);
  }
  if (UNPRINTABLE.test(adminName)) {
    problems.push('ADMIN_NAME must not contain control characters or invisible direction controls');
  }
  const demoRaw = text('DEMO');
  if (demoRaw !== null && demoRaw !== 'on' && demoRaw !== 'off') {
    problems.push(`DEMO must be 'on' or 'off' (got '${demoRaw}')`);
  }
  const trustProxy = parseTrustProxy(text('TRUST_PROXY'), problems);
  const tls = readTls(text('TLS_CERT'), text('TLS_KEY'), problems);
  const logLevel = text('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }

  const detectorKind = text('DETECTOR') ?? 'none';
  let detector: DetectorConfig = { kind: 'none' };
  const threshold = number('DETECTOR_THRESHOLD', 0.25, 0, 1);
  if (detectorKind === 'onnx') {
    const model = text('DETECTOR_MODEL');
    const labels = text('DETECTOR_LABELS');
    if (model === null)
      problems.push("DETECTOR=onnx needs DETECTOR_MODEL (the model's .onnx file)");
    detector = {
      kind: 'onnx',
      model: path.resolve(model ?? ''),
      labels: labels === null ? null : path.resolve(labels),
      threshold,
      iouThreshold: number('DETECTOR_IOU', 0.45, 0, 1),
    };
  } else if (detectorKind === 'http') {
    const url = text('DETECTOR_URL');
    if (url === null || !/^https?:\/\//.test(url)) {
      problems.push('DETECTOR=http needs DETECTOR_URL (http:// or https://)');
    }
    detector = {
      kind: 'http',
      url: url ?? '',
      token: text('DETECTOR_TOKEN'),
      threshold,
      timeoutMs: int('DETECTOR_TIMEOUT_MS', 30_000, 100, 600_000),
      retries: int('DETECTOR_RETRIES', 2, 0, 10),
      version: text('DETECTOR_VERSION') ?? 'unversioned',
    };
  } else if (detectorKind !== 'none') {
    problems.push(`DETECTOR must be none, onnx or http (got '${detectorKind}')`);
  }

  const config: Config = {
    port: int('PORT', 8080, 0, 65535),
    host: text('HOST') ?? '0.0.0.0',
    dataDir: path.resolve(text('DATA_DIR') ?? 'data'),
    distDir: path.resolve(text('DIST_DIR') ?? 'dist'),
    databaseUrl,
    jwtSecret,
    tokenTtlSeconds: int('TOKEN_TTL_SECONDS', 12 * 3600, 60, 7 * 24 * 3600),
    sessionIdleMinutes: int('SESSION_IDLE_MINUTES', 30, 1, 720),
    scryptLog2N: int('SCRYPT_LOG2_N', 17, 10, 20),
    scryptConcurrency: int('SCRYPT_CONCURRENCY', 2, 1, 16),
    scryptQueue: int('SCRYPT_QUEUE', 32, 0, 10_000),
    loginRateLimit: int('LOGIN_RATE_LIMIT', 50, 1, 1_000_000),
    loginMaxFailures: int('LOGIN_MAX_FAILURES', 5, 1, 1000),
    loginFailureWindowSeconds: int('LOGIN_FAILURE_WINDOW_SECONDS', 15 * 60, 1, 24 * 3600),
    loginLockSeconds: int('LOGIN_LOCK_SECONDS', 60, 1, 24 * 3600),
    // Browsers keep a cookie at most 400 days (Chrome), whatever Max-Age asks.
    knownBrowserDays: int('KNOWN_BROWSER_DAYS', 90, 0, 400),
    passwordRateLimit: int('PASSWORD_RATE_LIMIT', 10, 1, 1_000_000),
    passwordAddressRateLimit: int('PASSWORD_ADDRESS_RATE_LIMIT', 50, 1, 1_000_000),
    // Each remembered password costs a hash at every change: 24 is the most common policies ask.
    passwordHistory: int('PASSWORD_HISTORY', 5, 0, 24),
    passwordMaxAgeDays: int('PASSWORD_MAX_AGE_DAYS', 0, 0, 3650),
    mediaTokenTtlSeconds: int('MEDIA_TOKEN_TTL_SECONDS', 15 * 60, 10, 24 * 3600),
    trustProxy,
    tls,
    requestTimeoutSeconds: int('REQUEST_TIMEOUT_SECONDS', 120, 1, 3600),
    connectionTimeoutSeconds: int('CONNECTION_TIMEOUT_SECONDS', 60, 1, 3600),
    videoListCacheBytes: int('VIDEO_LIST_CACHE_BYTES', 64 * 1024 * 1024, 0, 2 ** 32),
    maxUploadBytes: int('MAX_UPLOAD_BYTES', 20 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    maxVideoBytes: int('MAX_VIDEO_BYTES', 4 * 1024 ** 3, 1024, 64 * 1024 ** 3),
    uploadExpiryHours: int('UPLOAD_EXPIRY_HOURS', 72, 1, 24 * 90),
    adminEmail: adminEmail?.toLowerCase() ?? null,
    adminPassword,
    adminName,
    demo: demoRaw === null ? adminEmail === null : demoRaw === 'on',
    logLevel,
    analysis: {
      concurrency: int('ANALYSIS_CONCURRENCY', 1, 0, 16),
      keyframeInterval: number('KEYFRAME_INTERVAL', 1, 0.1, 3600),
      maxAttempts: int('ANALYSIS_MAX_ATTEMPTS', 3, 1, 20),
      leaseSeconds: int('ANALYSIS_LEASE_SECONDS', 60, 2, 3600),
      retryBaseSeconds: number('ANALYSIS_RETRY_SECONDS', 10, 0, 3600),
      pollMs: int('ANALYSIS_POLL_MS', 2000, 50, 60_000),
      ffmpegPath: text('FFMPEG_PATH'),
      detector,
    },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

const PROXY_KEYWORDS = ['loopback', 'linklocal', 'uniquelocal'];

/** `TRUST_PROXY`: off (default), a hop count, or addresses, CIDRs and proxy-addr's keywords. */
function parseTrustProxy(raw: string | null, problems: string[]): false | number | string[] {
  if (raw === null || raw === 'off' || raw === 'false') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops >= 1 && hops <= 10) return hops;
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isProxyEntry(entry));
  if (bad.length > 0 || entries.length === 0) {
    problems.push(
      `TRUST_PROXY must be off, a hop count from 1 to 10, or a comma-separated list of addresses, CIDRs or ${PROXY_KEYWORDS.join('/')} (bad: '${bad.join("', '") || raw}')`,
    );
    return false;
  }
  return entries;
}

function isProxyEntry(entry: string): boolean {
  if (PROXY_KEYWORDS.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/** Both TLS files or neither; each must be a readable PEM file. */
function readTls(
  certPath: string | null,
  keyPath: string | null,
  problems: string[],
): Config['tls'] {
  if (certPath === null && keyPath === null) return null;
  if (certPath === null || keyPath === null) {
    problems.push('TLS_CERT and TLS_KEY must be set together');
    return null;
  }
  const read = (name: string, file: string, marker: RegExp) => {
    try {
      const pem = fs.readFileSync(file, 'utf8');
      if (marker.test(pem)) return pem;
      problems.push(`${name} (${file}) is not a PEM file`);
    } catch (error) {
      problems.push(`${name} (${file}) cannot be read: ${(error as Error).message}`);
    }
    return '';
  };
  const cert = read('TLS_CERT', certPath, /-----BEGIN CERTIFICATE-----/);
  const key = read('TLS_KEY', keyPath, /-----BEGIN [A-Z ]*PRIVATE KEY-----/);
  return cert && key ? { cert, key } : null;
}
