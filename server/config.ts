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
  adminEmail: string | null;
  adminPassword: string | null;
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
    scryptLog2N: int('SCRYPT_LOG2_N', 17, 10, 20),
    scryptConcurrency: int('SCRYPT_CONCURRENCY', 2, 1, 16),
    loginRateLimit: int('LOGIN_RATE_LIMIT', 10, 1, 1_000_000),
    maxUploadBytes: int('MAX_UPLOAD_BYTES', 20 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    adminEmail: adminEmail?.toLowerCase() ?? null,
    adminPassword,
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
