// `npm run bench`: every benchmark in turn, each in a process of its own (so one's memory and JIT
// state never colour the next), then how long each took. Exits 1 when a bench could not measure
// (a crash, contenders that disagree); missed targets are FAIL rows in its table, not a failure.
import { spawnSync } from 'node:child_process';
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

const benches: { name: string; args: string[] }[] = [
  { name: 'core', args: ['--expose-gc', '--import', 'tsx', 'bench/core.bench.ts'] },
  { name: 'api', args: ['--import', 'tsx', 'bench/api.bench.ts'] },
  { name: 'bundle-size', args: ['--import', 'tsx', 'bench/bundle-size.ts'] },
  { name: 'ui', args: ['--import', 'tsx', 'bench/ui.bench.ts'] },
  { name: 'analysis', args: ['--import', 'tsx', 'bench/analysis.bench.ts'] },
  { name: 'reports', args: ['--expose-gc', '--import', 'tsx', 'bench/reports.bench.ts'] },
  { name: 'capture', args: ['--import', 'tsx', 'bench/capture.bench.ts'] },
];

const summary: string[] = [];
let failed = 0;
const started = performance.now();
for (const { name, args } of benches) {
  console.log(`\n=== ${name}${quickRun ? ' (BENCH_QUICK)' : ''} ===`);
  const start = performance.now();
  const cpuBefore = childrenCpuSeconds();
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  const seconds = (performance.now() - start) / 1000;
  const cpuAfter = childrenCpuSeconds();
  const cpu =
    cpuBefore === null || cpuAfter === null ? '' : `, ${(cpuAfter - cpuBefore).toFixed(0)} s CPU`;
  const ok = result.status === 0;
  if (!ok) failed++;
  const outcome = ok ? 'ran' : `FAILED (exit ${result.status ?? result.signal})`;
  summary.push(`${name.padEnd(12)} ${seconds.toFixed(0).padStart(4)} s${cpu}  ${outcome}`);
}
console.log(`\n${summary.join('\n')}`);
console.log(`all benches: ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (failed > 0) process.exitCode = 1;
