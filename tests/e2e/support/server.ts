// The real API server for one end-to-end test file: its own process (started and stopped by pid),
// its own data folder with the demo data and the current web build.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildOnce, filesUnder, hashFiles, repoRoot } from '../../support/build-once.ts';
import { currentServerBundle } from '../../support/server-bundle.ts';
import { Api } from './api.ts';
import { demoAccount, demoPassword } from './demo.ts';
import { webBuild } from './web-build.ts';

export interface TestServer {
  baseUrl: string;
  stop: () => Promise<void>;
}

interface ServerProcess {
  baseUrl: string;
  /** Stops the process (SIGTERM, SIGKILL after a while); the data folder stays. */
  stop: () => Promise<void>;
}

const startTimeoutMs = 120_000;
const stopTimeoutMs = 10_000;
const keptOutputLines = 40;
const templateReady = 'template-ready';

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts the server bundle (`npm start`'s) on `dataDir` and a free port; resolves once GET /api/health answers 200. */
async function spawnServer(
  dataDir: string,
  distDir: string,
  extraEnv: Record<string, string> = {},
): Promise<ServerProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DIST_DIR: distDir,
    DEMO: 'on',
    // Every test signs in and sets up users many times from one address.
    LOGIN_RATE_LIMIT: '100000',
    PASSWORD_RATE_LIMIT: '100000',
    PASSWORD_ADDRESS_RATE_LIMIT: '100000',
    // Hashes store their own cost: the cheapest allowed keeps the many logins fast.
    SCRYPT_LOG2_N: '10',
    LOG_LEVEL: 'info',
    ...extraEnv,
  };
  // The suite must use its own embedded database and the demo accounts, whatever the shell has.
  for (const name of ['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'JWT_SECRET']) {
    delete env[name];
  }
  const child = spawn(process.execPath, ['--enable-source-maps', await currentServerBundle()], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  let baseUrl: string | null = null;
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      output.push(line);
      if (output.length > keptOutputLines) output.shift();
      baseUrl ??= /Server listening at (https?:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1] ?? null;
    }
  };
  // Both pipes are always drained, so a chatty log never blocks the server.
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const stop = async () => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid, 'SIGTERM');
      const done = await Promise.race([exited(child).then(() => true), sleep(stopTimeoutMs)]);
      if (!done) process.kill(child.pid, 'SIGKILL');
      await exited(child);
    }
  };

  const deadline = Date.now() + startTimeoutMs;
  let ready: string | null = null;
  try {
    while (ready === null) {
      if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`no healthy answer within ${startTimeoutMs} ms`);
      await sleep(100);
      ready = await healthyUrl(baseUrl);
    }
  } catch (error) {
    await stop();
    throw new Error(`e2e server did not start: ${String(error)}\n${output.join('\n')}`);
  }
  return { baseUrl: ready, stop };
}

/** The base URL once the server has printed it and GET /api/health answers 200; else null. */
async function healthyUrl(baseUrl: string | null): Promise<string | null> {
  if (!baseUrl) return null;
  try {
    const status = baseUrl.startsWith('https:')
      ? await httpsStatus(`${baseUrl}/api/health`)
      : (await fetch(`${baseUrl}/api/health`)).status;
    return status === 200 ? baseUrl : null;
  } catch {
    return null;
  }
}

/** A test server's self-signed certificate is not checked: this only asks whether it is up. */
function httpsStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { rejectUnauthorized: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

/**
 * A data folder as the server leaves it after its first start with the demo data, made once per
 * state of the server's sources: each test file starts from a copy instead of creating the
 * database, migrating it and loading the demo data again (several seconds a file).
 */
function demoDataTemplate(distDir: string): Promise<string> {
  return buildOnce({
    prefix: 'lc-e2e-data-template-',
    // Templates made before the demo analysis was awaited (it ran again in every copy) must go.
    hash: hashFiles(
      [...filesUnder('server', /\.test\.ts$/), path.join(repoRoot, 'package-lock.json')],
      'demo analysis completed',
    ),
    doneMarker: templateReady,
    timeoutMs: startTimeoutMs,
    make: async (scratch) => {
      const server = await spawnServer(scratch, distDir);
      try {
        // Finished here, the demo's queued analysis is not run again by every test file's server.
        const admin = await Api.login(server.baseUrl, demoAccount('admin').email, demoPassword);
        await demoAnalysisDone(admin);
      } finally {
        // A clean stop closes the database, so the copies open it as a normal restart would.
        await server.stop();
      }
      writeFileSync(path.join(scratch, templateReady), '');
    },
  });
}

/**
 * The video whose analysis the demo data queues, once the server's runner has completed it (it
 * starts with the server; the 38 s demo video takes seconds). Throws if the analysis failed.
 */
export async function demoAnalysisDone(admin: Api): Promise<string> {
  type Row = { videoId: string; job: { state: string; error: string | null } | null };
  for (const end = Date.now() + startTimeoutMs; Date.now() < end; await sleep(250)) {
    const row = (await admin.get<Row[]>('/api/analysis')).find((r) => r.job !== null);
    if (row?.job?.state === 'completed') return row.videoId;
    if (row?.job?.state === 'failed') throw new Error(`the demo analysis failed: ${row.job.error}`);
  }
  throw new Error(`the demo analysis did not finish within ${startTimeoutMs} ms`);
}

/** A server on a fresh copy of the demo data (deleted again by `stop`), with extra settings. */
export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const distDir = await webBuild();
  const template = await demoDataTemplate(distDir);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lc-e2e-data-'));
  cpSync(template, dataDir, { recursive: true });
  rmSync(path.join(dataDir, templateReady));
  try {
    const server = await spawnServer(dataDir, distDir, env);
    return {
      baseUrl: server.baseUrl,
      stop: async () => {
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
