// The API server as its own process on the bench's data folder, started and stopped by pid.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentServerBundle } from '../../tests/support/server-bundle.ts';

export interface BenchServer {
  baseUrl: string;
  /** The server process (e.g. to read its peak memory). */
  pid: number;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 120_000;

export async function startBenchServer(env: Record<string, string>): Promise<BenchServer> {
  // LOG_LEVEL info: the address is read from fastify's 'listening at' line.
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  };
  // The bench's own embedded database and demo accounts, whatever the shell has.
  for (const name of ['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD']) delete childEnv[name];
  const child = spawn(process.execPath, ['--enable-source-maps', await currentServerBundle()], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  let baseUrl: string | null = null;
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      output.push(line);
      if (output.length > 40) output.shift();
      baseUrl ??= /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1] ?? null;
    }
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid, 'SIGTERM');
      const done = await Promise.race([exited.then(() => true), sleep(10_000)]);
      if (!done) process.kill(child.pid, 'SIGKILL');
      await exited;
    }
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (true) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the bench server did not start:\n${output.join('\n')}`);
    }
    if (baseUrl) {
      const healthy = await fetch(`${baseUrl}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) return { baseUrl, pid: child.pid ?? 0, stop };
    }
    await sleep(100);
  }
}
