// Creates the services of one app from its configuration (used by main.ts, tests and the bench).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createDetector } from './analysis/detectors/index.ts';
import { locateFfmpeg } from './analysis/ffmpeg.ts';
import { AnalysisService } from './analysis/runner.ts';
import { createRefusalLog } from './audit/refusals.ts';
import { createCredentialGuard } from './auth/credentials.ts';
import { createPasswordHasher } from './auth/password.ts';
import { createTokenService } from './auth/token.ts';
import type { Config } from './config.ts';
import type { AppContext, ReadCaches } from './context.ts';
import { openDatabase } from './db/client.ts';
import { summarizeVideo } from './reports/report.ts';
import { ReadCache } from './services/read-cache.ts';
import { LocalStorage } from './storage/local-storage.ts';

/**
 * DATA_DIR holds the database, the stored files and the signing key: readable by this user only.
 * Created 0700; an existing folder open to others is closed (files inside inherit the protection).
 */
export function prepareDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if ((fs.statSync(dataDir).mode & 0o077) !== 0) fs.chmodSync(dataDir, 0o700);
}

/** The signing key: JWT_SECRET, else a random key created once and kept in DATA_DIR (mode 600). */
function signingKey(config: Config): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  const file = path.join(config.dataDir, 'jwt-secret');
  if (!fs.existsSync(file)) {
    fs.writeFileSync(file, randomBytes(48).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim());
}

export interface Services {
  ctx: AppContext;
  close(): Promise<void>;
}

export async function createServices(
  config: Config,
  options: {
    inMemoryDatabase?: boolean;
    pgliteStart?: Uint8Array<ArrayBuffer>;
  } = {},
): Promise<Services> {
  prepareDataDir(config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: options.inMemoryDatabase ? null : path.join(config.dataDir, 'pglite'),
    pgliteStart: options.pgliteStart,
  });
  const passwords = createPasswordHasher(
    config.scryptLog2N,
    config.scryptConcurrency,
    config.scryptQueue,
  );
  const refusals = createRefusalLog(database.db);
  const storage = new LocalStorage(path.join(config.dataDir, 'files'));
  const caches: ReadCaches | null =
    database.kind === 'pglite'
      ? {
          videoLists: new ReadCache<Buffer>({
            maxEntries: 500,
            maxBytes: config.videoListCacheBytes,
            sizeOf: (body) => body.length,
          }),
          users: new ReadCache({ maxEntries: 10_000 }),
        }
      : null;
  let detector: Awaited<ReturnType<typeof createDetector>>;
  try {
    detector = await createDetector(config.analysis.detector, () =>
      locateFfmpeg(config.analysis.ffmpegPath),
    );
  } catch (error) {
    await database.close();
    throw error;
  }
  // Jobs change videos outside any request: the request hooks cannot invalidate for them.
  const analysis = new AnalysisService(
    database.db,
    storage,
    config.analysis,
    detector,
    () => caches?.videoLists.invalidate(),
    (videoId) => summarizeVideo({ db: database.db, storage }, videoId),
  );
  const key = signingKey(config);
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    storage,
    passwords,
    tokens: createTokenService(key, {
      sessionSeconds: config.tokenTtlSeconds,
      idleSeconds: config.sessionIdleMinutes * 60,
      mediaSeconds: config.mediaTokenTtlSeconds,
    }),
    credentials: createCredentialGuard(database.db, passwords, config, key),
    refusals,
    analysis,
    caches,
  };
  return {
    ctx,
    close: async () => {
      await analysis.stop();
      await detector.close();
      // Counted refusals are written before the database closes.
      await refusals.close();
      await database.close();
    },
  };
}
