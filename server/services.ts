// Creates the services of one app from its configuration (used by main.ts, tests and the bench).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createDetector } from './analysis/detectors/index.ts';
import { locateFfmpeg } from './analysis/ffmpeg.ts';
import { AnalysisService } from './analysis/runner.ts';
import { createPasswordHasher } from './auth/password.ts';
import { createTokenService } from './auth/token.ts';
import type { Config } from './config.ts';
import type { AppContext, ReadCaches } from './context.ts';
import { openDatabase } from './db/client.ts';
import { ReadCache } from './services/read-cache.ts';
import { LocalStorage } from './storage/local-storage.ts';

/** The signing key: JWT_SECRET, else a random key created once and kept in DATA_DIR (mode 600). */
function signingKey(config: Config): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  const file = path.join(config.dataDir, 'jwt-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
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
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: options.inMemoryDatabase ? null : path.join(config.dataDir, 'pglite'),
    pgliteStart: options.pgliteStart,
  });
  const storage = new LocalStorage(path.join(config.dataDir, 'files'));
  const caches: ReadCaches | null =
    database.kind === 'pglite'
      ? { videoLists: new ReadCache<Buffer>(), users: new ReadCache(10_000) }
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
  const analysis = new AnalysisService(database.db, storage, config.analysis, detector, () =>
    caches?.videoLists.invalidate(),
  );
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    storage,
    passwords: createPasswordHasher(config.scryptLog2N, config.scryptConcurrency),
    tokens: createTokenService(signingKey(config), config.tokenTtlSeconds),
    analysis,
    caches,
  };
  return {
    ctx,
    close: async () => {
      await analysis.stop();
      await detector.close();
      await database.close();
    },
  };
}
