// One results file per bench run: the machine it ran on, the commit it measured and its rows, so two
// files can be compared. Every bench starts a run first (load average, clock) and finishes it last.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { chromiumPath } from '../../tests/support/chromium.ts';
import { printTable, type TargetRow } from './report.ts';

/**
 * BENCH_QUICK=1: a smoke run of every bench (small sizes, few rounds) that proves the benches
 * still run; its figures are not for the record, so it writes `<name>.quick.json`.
 */
export const quickRun = process.env.BENCH_QUICK === '1';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  /** 1, 5 and 15-minute load averages when the run started and when it ended. */
  loadAverageAtStart: number[];
  loadAverageAtEnd: number[];
  node: string;
  v8: string;
  /** The Chromium the browser benches drive (CHROMIUM_PATH), or null when it is not installed. */
  chromium: string | null;
}

export interface Commit {
  sha: string | null;
  /** Uncommitted changes in the tree: the figures are then not those of `sha` alone. */
  dirty: boolean;
}

export interface BenchRun {
  name: string;
  /** Prints the target table and the machine, and writes bench/results/<name>.json (its path). */
  finish(targets: readonly TargetRow[], details?: Record<string, unknown>): Promise<string>;
}

const loadAverage = () => os.loadavg().map((l) => Math.round(l * 100) / 100);

function run(command: string, args: string[]): string | null {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

function commit(): Commit {
  const sha = run('git', ['rev-parse', 'HEAD']);
  const status = run('git', ['status', '--porcelain', '--untracked-files=no']);
  return { sha, dirty: status !== null && status !== '' };
}

/** Starts timing a bench run called `name` (its results file's name). */
export function startBenchRun(name: string): BenchRun {
  const startedAt = new Date();
  const loadAverageAtStart = loadAverage();
  return {
    name,
    async finish(targets, details = {}) {
      const machine: Machine = {
        cpu: os.cpus()[0]?.model ?? 'unknown',
        cores: os.cpus().length,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        loadAverageAtStart,
        loadAverageAtEnd: loadAverage(),
        node: process.version,
        v8: process.versions.v8,
        chromium: run(chromiumPath, ['--version']),
      };
      const durationS = Math.round((Date.now() - startedAt.getTime()) / 1000);
      const result = {
        bench: name,
        quick: quickRun,
        startedAt: startedAt.toISOString(),
        durationS,
        machine,
        commit: commit(),
        targets,
        ...details,
      };
      console.log('');
      printTable(targets);
      console.log(
        `${machine.cpu} × ${machine.cores}, load ${machine.loadAverageAtStart[0]} → ${machine.loadAverageAtEnd[0]}, node ${machine.node}, ${machine.chromium ?? 'no Chromium'}, commit ${result.commit.sha?.slice(0, 10) ?? 'unknown'}${result.commit.dirty ? ' + changes' : ''}, ${durationS} s${quickRun ? ' (BENCH_QUICK: a smoke run, not for the record)' : ''}`,
      );
      const file = new URL(`../results/${name}${quickRun ? '.quick' : ''}.json`, import.meta.url);
      await mkdir(new URL('.', file), { recursive: true });
      await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
      console.log(`Wrote ${file.pathname}`);
      return file.pathname;
    },
  };
}
