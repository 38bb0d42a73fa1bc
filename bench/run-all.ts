// `npm run bench`: every benchmark in turn, each in a process of its own (so one's memory and JIT
// state never colour the next), then how long each took. Exits 1 when a bench could not measure
// (a crash, contenders that disagree); missed targets are FAIL rows in its table, not a failure.
// The capture bench's 10-minute recording runs alongside the benches after the API's: it measures
// the page's heap, not time, and takes a sixth of a core, so the whole run fits its 15 minutes; the
// API bench, whose p99 at a fixed rate needs both cores, runs before it starts (bench/README.md).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { quickRun } from './lib/results.ts';

/**
 * CPU seconds of this process's finished children (and theirs, once reaped), from /proc: beside
 * the wall time it tells what a run would take on a machine nobody else is using. null off Linux.
 */
function childrenCpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime are the 16th and 17th fields, in clock ticks (100 a second on Linux).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

const captureArgs = ['--import', 'tsx', 'bench/capture.bench.ts'];
/** In this order; the recording starts after the API bench. */
const benches: { name: string; args: string[] }[] = [
  { name: 'api', args: ['--import', 'tsx', 'bench/api.bench.ts'] },
  { name: 'bundle-size', args: ['--import', 'tsx', 'bench/bundle-size.ts'] },
  { name: 'core', args: ['--expose-gc', '--import', 'tsx', 'bench/core.bench.ts'] },
  { name: 'ui', args: ['--import', 'tsx', 'bench/ui.bench.ts'] },
  { name: 'analysis', args: ['--import', 'tsx', 'bench/analysis.bench.ts'] },
  { name: 'reports', args: ['--expose-gc', '--import', 'tsx', 'bench/reports.bench.ts'] },
  { name: 'capture', args: captureArgs },
];
const sequentialCapture = { BENCH_PARTS: 'browser,upload' };

/** The recording, started first; its output is printed after the others' (one table at a time). */
function startRecording(): Promise<{ status: number | null; output: string; seconds: number }> {
  const start = performance.now();
  const child = spawn(process.execPath, captureArgs, {
    env: { ...process.env, BENCH_PARTS: 'recording' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (part: Buffer) => {
    output += part;
  });
  child.stderr.on('data', (part: Buffer) => {
    output += part;
  });
  return new Promise((resolve) =>
    child.on('close', (status) =>
      resolve({ status, output, seconds: (performance.now() - start) / 1000 }),
    ),
  );
}

const summary: string[] = [];
let failed = 0;
const started = performance.now();
let recording: ReturnType<typeof startRecording> | null = null;
for (const { name, args } of benches) {
  // A quick run's figures are not for the record: its recording starts at once, to end sooner.
  if (name === (quickRun ? 'api' : 'core')) recording = startRecording();
  console.log(`\n=== ${name}${quickRun ? ' (BENCH_QUICK)' : ''} ===`);
  const start = performance.now();
  const cpuBefore = childrenCpuSeconds();
  const result = spawnSync(process.execPath, args, {
    stdio: 'inherit',
    env: name === 'capture' ? { ...process.env, ...sequentialCapture } : process.env,
  });
  const seconds = (performance.now() - start) / 1000;
  const cpuAfter = childrenCpuSeconds();
  const cpu =
    cpuBefore === null || cpuAfter === null ? '' : `, ${(cpuAfter - cpuBefore).toFixed(0)} s CPU`;
  const ok = result.status === 0;
  if (!ok) failed++;
  const outcome = ok ? 'ran' : `FAILED (exit ${result.status ?? result.signal})`;
  summary.push(`${name.padEnd(12)} ${seconds.toFixed(0).padStart(4)} s${cpu}  ${outcome}`);
}
console.log(`\n=== capture recording (ran alongside the others) ===`);
const recorded = await (recording ?? startRecording());
process.stdout.write(recorded.output);
if (recorded.status !== 0) failed++;
summary.push(
  `${'recording'.padEnd(12)} ${recorded.seconds.toFixed(0).padStart(4)} s alongside  ${recorded.status === 0 ? 'ran' : `FAILED (exit ${recorded.status})`}`,
);
console.log(`\n${summary.join('\n')}`);
console.log(`all benches: ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (failed > 0) process.exitCode = 1;
