// UI benchmark (issue 5, "Speed"): the real video analysis page in Debian's Chromium, against the
// real server with the demo data plus a generated walk of 10^5, 10^6 and 10^7 keyframe lines on
// Blister Line 1. It measures how soon the path is drawn after the keyframes file arrives, the
// scrub frame (query + draw) with the main thread throttled 4×, and main-thread long tasks while
// loading and scrubbing. Prints a table, writes bench/results/ui.json. Run: npm run bench:ui
// How to read it and the decisions behind it: docs/path-player.md, "Bench".
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import type { Page } from 'playwright';
import { launchBrowser, newContext, signInThroughUi } from '../tests/e2e/support/browser.ts';
import { webBuild } from '../tests/e2e/support/web-build.ts';
import { formatSize, formatSpread, printTable, type TargetRow } from './lib/report.ts';
import { quantile, spread } from './lib/stats.ts';
import { createBenchData } from './ui/bench-data.ts';
import { startBenchServer } from './ui/server.ts';
import { locateTimeSlider, sweepTimeSlider } from './ui/slider-drag.ts';

const RESULTS_URL = new URL('./results/ui.json', import.meta.url);

/** BENCH_UI_SIZES="1e5,1e6" shortens a run while working on the bench itself. */
const SIZES = (process.env.BENCH_UI_SIZES ?? '1e5,1e6,1e7').split(',').map(Number);
if (!SIZES.every((n) => Number.isInteger(n) && n > 0)) {
  throw new Error(`BENCH_UI_SIZES must be whole numbers separated by commas, got ${SIZES}`);
}
/** Page loads per size (10^7 loads take long: fewer). */
const loadRounds = (lines: number) => (lines >= 1e7 ? 2 : 5);
const THROTTLE = 4;
/** Slider positions per sweep; a sweep goes 5% → 95% and back. */
const SWEEP_STEPS = 120;
const SWEEPS = 2;
const LONG_TASK_MS = 50;

interface LongTask {
  start: number;
  duration: number;
  /** PerformanceLongTaskTiming attribution: which frame or container the task ran for. */
  attribution: string[];
}

interface PageRecords {
  longTasks: LongTask[];
  frames: {
    start: number;
    duration: number;
    mainThreadMs: number;
    drawCount: number;
    keptCount: number;
  }[];
}

// Runs in the page before its own scripts: collects long tasks and the player's frame measures.
function installRecorder() {
  const records: PageRecords = { longTasks: [], frames: [] };
  (window as unknown as { __uiBench: PageRecords }).__uiBench = records;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { attribution = [] } = entry as PerformanceEntry & {
        attribution?: { name: string; containerType: string; containerName: string }[];
      };
      records.longTasks.push({
        start: entry.startTime,
        duration: entry.duration,
        attribution: attribution.map((a) =>
          [a.name, a.containerType, a.containerName].filter(Boolean).join(' '),
        ),
      });
    }
  }).observe({ type: 'longtask' });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name !== 'path-player:frame') continue;
      const detail = (entry as PerformanceMeasure).detail as Omit<
        PageRecords['frames'][number],
        'start' | 'duration'
      >;
      records.frames.push({ start: entry.startTime, duration: entry.duration, ...detail });
    }
  }).observe({ type: 'measure' });
}

const records = (page: Page) =>
  page.evaluate(() => (window as unknown as { __uiBench: PageRecords }).__uiBench);

/** Time (ms since navigation) of a performance mark, waiting for it up to `timeoutMs`. */
async function markTime(page: Page, name: string, timeoutMs: number): Promise<number> {
  const handle = await page.waitForFunction(
    (mark) => performance.getEntriesByName(mark, 'mark')[0]?.startTime ?? null,
    name,
    { timeout: timeoutMs, polling: 50 },
  );
  return (await handle.jsonValue()) as number;
}

const longest = (tasks: { duration: number }[]) =>
  tasks.reduce((most, task) => Math.max(most, task.duration), 0);

interface LoadRound {
  arrivedMs: number;
  drawnMs: number;
  completeMs: number;
  longestTaskMs: number;
  longTasks: LongTask[];
}

async function loadOnce(page: Page, videoId: string, lines: number): Promise<LoadRound> {
  const timeout = lines >= 1e7 ? 600_000 : 120_000;
  await page.goto(`/video/${videoId}`);
  const arrivedMs = await markTime(page, 'path-player:keyframes-arrived', timeout);
  const drawnMs = await markTime(page, 'path-player:path-drawn', timeout);
  const completeMs = await markTime(page, 'path-player:path-complete', timeout);
  const { longTasks } = await records(page);
  const loading = longTasks.filter((task) => task.start <= completeMs);
  return {
    arrivedMs,
    drawnMs,
    completeMs,
    longestTaskMs: longest(loading),
    longTasks: loading,
  };
}

interface ScrubRun {
  frames: PageRecords['frames'];
  longestTaskMs: number;
  longTasks: LongTask[];
}

/** Drags the time slider across the path and back, SWEEPS times, one position per frame. */
async function scrub(page: Page): Promise<ScrubRun> {
  const track = await locateTimeSlider(page);
  const startedAt = await page.evaluate(() => performance.now());
  await sweepTimeSlider(page, track, SWEEPS, SWEEP_STEPS);
  const { frames, longTasks } = await records(page);
  const during = longTasks.filter((task) => task.start >= startedAt);
  return {
    frames: frames.filter((frame) => frame.start >= startedAt),
    longestTaskMs: longest(during),
    longTasks: during,
  };
}

const ms = (value: number) => `${value.toFixed(value >= 100 ? 0 : 1)} ms`;

async function main() {
  const loadStart = os.loadavg();
  const started = Date.now();
  console.log(
    `UI bench: sizes ${SIZES.map(formatSize).join(', ')}; load average ${loadStart.map((l) => l.toFixed(2)).join(' ')}`,
  );
  console.log('Building the web app…');
  const distDir = await webBuild();
  console.log('Preparing the data folder (demo data and the generated walks)…');
  const data = await createBenchData(SIZES, distDir, console.log);
  const server = await startBenchServer(data.env);
  const browser = await launchBrowser();
  const rows: TargetRow[] = [];
  const measurements: Record<string, unknown> = {};
  const scrubP95 = new Map<number, number>();
  const kept = new Map<number, number>();
  let chromium = 'unknown';
  try {
    chromium = browser.version();
    const context = await newContext(browser, { baseUrl: server.baseUrl });
    await context.addInitScript(installRecorder);
    const page = await context.newPage();
    page.setDefaultTimeout(600_000);
    // Tall enough that the path player and the time slider are on screen together.
    await page.setViewportSize({ width: 1280, height: 1400 });
    await signInThroughUi(page, 'admin@example.com', 'demo-password', '/admin');
    const cdp = await context.newCDPSession(page);

    for (const lines of SIZES) {
      const videoId = data.videoIds.get(lines)!;
      const size = formatSize(lines);
      const loads: LoadRound[] = [];
      for (let round = 0; round < loadRounds(lines); round++) {
        const load = await loadOnce(page, videoId, lines);
        loads.push(load);
        console.log(
          `  ${size} load ${round + 1}: arrived ${ms(load.arrivedMs)}, drawn +${ms(load.drawnMs - load.arrivedMs)}, whole path +${ms(load.completeMs - load.arrivedMs)}, longest task ${ms(load.longestTaskMs)}${load.longTasks.map((task) => `; ${ms(task.duration)} at ${ms(task.start)}`).join('')}`,
        );
      }
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
      const run = await scrub(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      if (run.frames.length === 0)
        throw new Error(`no path frames were drawn while scrubbing ${size}`);
      const latency = run.frames.map((frame) => frame.duration);
      const mainThread = run.frames.map((frame) => frame.mainThreadMs);
      const p95 = quantile(latency, 0.95);
      scrubP95.set(lines, p95);
      kept.set(lines, run.frames[0]!.keptCount);
      console.log(
        `  ${size} scrub (${THROTTLE}× throttled): ${run.frames.length} frames, p95 ${ms(p95)}, main thread p95 ${ms(quantile(mainThread, 0.95))}, kept ${run.frames[0]!.keptCount} points, longest task ${ms(run.longestTaskMs)}`,
      );

      const drawMs = loads.map((load) => load.drawnMs - load.arrivedMs);
      const drawSpread = spread(drawMs);
      rows.push({
        target: 'path drawn after the keyframes arrive (worst load)',
        size,
        value: drawSpread.max,
        spread: drawSpread,
        measured: formatSpread(drawSpread, ' ms'),
        goal: '≤ 300 ms',
        pass: lines === 1e6 ? drawSpread.max <= 300 : null,
      });
      const completeSpread = spread(loads.map((load) => load.completeMs - load.arrivedMs));
      rows.push({
        target: 'whole path ready for scrubbing after arrival (info)',
        size,
        value: completeSpread.median,
        spread: completeSpread,
        measured: formatSpread(completeSpread, ' ms'),
        goal: '—',
        pass: null,
      });
      rows.push({
        target: `scrub frame p95, query + draw (${THROTTLE}× throttled)`,
        size,
        value: p95,
        spread: spread(latency),
        measured: `${ms(p95)} (median ${ms(quantile(latency, 0.5))}, max ${ms(Math.max(...latency))}, ${latency.length} frames)`,
        goal: '≤ 8 ms',
        pass: lines === 1e7 ? p95 <= 8 : null,
      });
      const mainP95 = quantile(mainThread, 0.95);
      rows.push({
        target: `scrub frame main-thread time p95 (${THROTTLE}×, info)`,
        size,
        value: mainP95,
        spread: spread(mainThread),
        measured: ms(mainP95),
        goal: '—',
        pass: null,
      });
      const loadLongest = Math.max(...loads.map((load) => load.longestTaskMs));
      rows.push({
        target: 'longest main-thread task while loading',
        size,
        value: loadLongest,
        spread: null,
        measured: `${loadLongest === 0 ? 'none over 50 ms' : ms(loadLongest)} (${loads.reduce((n, load) => n + load.longTasks.length, 0)} long tasks)`,
        goal: `≤ ${LONG_TASK_MS} ms`,
        pass: loadLongest <= LONG_TASK_MS,
      });
      rows.push({
        target: `longest main-thread task while scrubbing (${THROTTLE}×)`,
        size,
        value: run.longestTaskMs,
        spread: null,
        measured: `${run.longestTaskMs === 0 ? 'none over 50 ms' : ms(run.longestTaskMs)} (${run.longTasks.length} long tasks)`,
        goal: `≤ ${LONG_TASK_MS} ms`,
        pass: run.longestTaskMs <= LONG_TASK_MS,
      });
      measurements[size] = { keptPoints: run.frames[0]!.keptCount, loads, scrub: run };
    }

    const small = scrubP95.get(1e5);
    const large = scrubP95.get(1e7);
    if (small !== undefined && large !== undefined) {
      const ratio = large / small;
      rows.push({
        target: 'scrub frame p95 at 10^7 ÷ at 10^5',
        size: '',
        value: ratio,
        spread: null,
        measured: `${ratio.toFixed(2)}× (${ms(large)} ÷ ${ms(small)})`,
        goal: '≤ 1.5×',
        pass: ratio <= 1.5,
      });
    }
  } finally {
    await browser.close();
    await server.stop();
    await data.remove();
  }

  console.log('');
  printTable(rows);
  const meta = {
    date: new Date(started).toISOString(),
    durationS: Math.round((Date.now() - started) / 1000),
    node: process.version,
    chromium,
    cpu: os.cpus()[0]?.model ?? 'unknown CPU',
    cores: os.cpus().length,
    loadAverageAtStart: loadStart,
    loadAverageAtEnd: os.loadavg(),
    sizes: SIZES,
    keptPoints: Object.fromEntries(kept),
    throttle: THROTTLE,
    sweeps: { count: SWEEPS, steps: SWEEP_STEPS },
  };
  await mkdir(new URL('.', RESULTS_URL), { recursive: true });
  await writeFile(
    RESULTS_URL,
    `${JSON.stringify({ meta, targets: rows, measurements }, null, 2)}\n`,
  );
  console.log(`\nWrote ${RESULTS_URL.pathname}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
