// A real server process (the bundle `npm start` runs) on a test app's data and database, for what one process
// cannot show: a kill -9 in the middle of a job, two processes on one PostgreSQL. Started in its own
// process group so that stopping it also stops the ffmpeg it runs; stopped by pid, never by name.
import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { currentServerBundle } from '../../tests/support/server-bundle.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  baseUrl: string;
  /** SIGKILL to the whole group: no shutdown hook runs, the job is left mid-step. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful), SIGKILL after 10 s. */
  stop(): Promise<void>;
  output(): string;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--enable-source-maps', await currentServerBundle()], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: string[] = [];
  let baseUrl: string | null = null;
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      lines.push(line);
      if (lines.length > 200) lines.shift();
      baseUrl ??= /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1] ?? null;
    }
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const signalGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, signal);
    } catch {}
  };
  const deadline = Date.now() + 120_000;
  while (!baseUrl) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${lines.join('\n')}`);
    if (Date.now() > deadline) {
      signalGroup('SIGKILL');
      throw new Error(`server did not start:\n${lines.join('\n')}`);
    }
    await sleep(50);
  }
  return {
    baseUrl,
    async kill9() {
      signalGroup('SIGKILL');
      await exited(child);
    },
    async stop() {
      // The server alone: its shutdown stops its own ffmpeg and hands the job back.
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      process.kill(child.pid, 'SIGTERM');
      const done = await Promise.race([exited(child).then(() => true), sleep(10_000)]);
      if (!done) signalGroup('SIGKILL');
      await exited(child);
    },
    output: () => lines.join('\n'),
  };
}
