// UI benchmark (issue 5, "Speed"): the real video analysis page in Debian's Chromium, against the
// real server with the demo data plus a generated walk of 10^5, 10^6 and 10^7 keyframe lines on
// Blister Line 1. It measures how soon the path is drawn after the keyframes file arrives, the
// scrub frame (query + draw) with the main thread throttled 4×, and main-thread long tasks while
// loading and scrubbing. Every target is judged on the median of its rounds (page loads, scrub
// sweeps). Prints a table, writes bench/results/ui.json. Run: npm run bench:ui
// How to read it and the decisions behind it: bench/README.md, "Video page benchmark".
import type { Page } from 'playwright';
import { launchBrowser, newContext, signInThroughUi } from '../tests/e2e/support/browser.ts';
import { webBuild } from '../tests/e2e/support/web-build.ts';
import { formatSize, medianRow, type TargetRow } from './lib/report.ts';
import { quickRun, startBenchRun } from './lib/results.ts';
import { quantile, spread } from './lib/stats.ts';
import { createBenchData } from './ui/bench-data.ts';
import { startBenchServer } from './ui/server.ts';
import { locateTimeSlider, sweepTimeSlider } from './ui/slider-drag.ts';

/** BENCH_UI_SIZES="1e5,1e6" shortens a run while working on the bench itself. */
const SIZES = (process.env.BENCH_UI_SIZES ?? (quickRun ? '1e5' : '1e5,1e6,1e7'))
  .split(',')
  .map(Number);
if (!SIZES.every((n) => Number.isInteger(n) && n > 0)) {
  throw new Error(`BENCH_UI_SIZES must be whole numbers separated by commas, got ${SIZES}`);
}
/** Page loads per size (10^7 loads take long: fewer). */
const loadRounds = (lines: number) => (quickRun ? 1 : lines >= 1e7 ? 3 : 5);
const THROTTLE = 4;
/** Slider positions each way per sweep; a sweep goes 5% → 95% and back, one round. */
const SWEEP_STEPS = quickRun ? 40 : 100;
const SCRUB_ROUNDS = quickRun ? 1 : 5;
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

/** Drags the time slider across the path and back once, one position per frame. */
async function scrub(page: Page): Promise<ScrubRun> {
  const track = await locateTimeSlider(page);
  const startedAt = await page.evaluate(() => performance.now());
  await sweepTimeSlider(page, track, 1, SWEEP_STEPS);
  const { frames, longTasks } = await records(page);
  const during = longTasks.filter((task) => task.start >= startedAt);
  return {
    frames: frames.filter((frame) => frame.start >= startedAt),
    longestTaskMs: longest(during),
    longTasks: during,
  };
}

const ms = (value: number) => `${value.toFixed(value >= 100 ? 0 : 1)} ms`;

/** Per-round values of one measure, as a row judged on their median. */
function roundsRow(
  target: string,
  size: string,
  values: readonly number[],
  goal: string,
  pass: ((median: number) => boolean) | null,
): TargetRow {
  return medianRow(target, size, spread(values), ' ms', goal, pass);
}

async function main() {
  const run = startBenchRun('ui');
  console.log(
    `UI bench: sizes ${SIZES.map(formatSize).join(', ')}${quickRun ? ' (BENCH_QUICK)' : ''}`,
  );
  console.log('Building the web app…');
  const distDir = await webBuild();
  console.log('Preparing the data folder (demo data and the generated walks)…');
  const data = await createBenchData(SIZES, distDir, console.log);
  const server = await startBenchServer(data.env);
  const browser = await launchBrowser();
  const rows: TargetRow[] = [];
  const measurements: Record<string, unknown> = {};
  /** Each scrub round's frame latency p95, per size. */
  const scrubP95 = new Map<number, number[]>();
  const kept = new Map<number, number>();
  try {
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
      const scrubs: ScrubRun[] = [];
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
      try {
        for (let round = 0; round < SCRUB_ROUNDS; round++) {
          const run = await scrub(page);
          if (run.frames.length === 0) {
            throw new Error(`no path frames were drawn while scrubbing ${size}`);
          }
          scrubs.push(run);
        }
      } finally {
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      }
      const latencyP95 = scrubs.map((r) =>
        quantile(
          r.frames.map((f) => f.duration),
          0.95,
        ),
      );
      const mainP95 = scrubs.map((r) =>
        quantile(
          r.frames.map((f) => f.mainThreadMs),
          0.95,
        ),
      );
      scrubP95.set(lines, latencyP95);
      kept.set(lines, scrubs[0]!.frames[0]!.keptCount);
      console.log(
        `  ${size} scrub (${THROTTLE}× throttled): ${SCRUB_ROUNDS} sweeps of ${scrubs[0]!.frames.length} frames, p95 ${latencyP95.map(ms).join(' / ')}, kept ${kept.get(lines)} points, longest task ${scrubs.map((r) => ms(r.longestTaskMs)).join(' / ')}`,
      );

      rows.push(
        roundsRow(
          'path drawn after the keyframes arrive',
          size,
          loads.map((load) => load.drawnMs - load.arrivedMs),
          lines === 1e6 ? '≤ 300 ms' : '(info)',
          lines === 1e6 ? (m) => m <= 300 : null,
        ),
        roundsRow(
          'whole path ready for scrubbing after arrival',
          size,
          loads.map((load) => load.completeMs - load.arrivedMs),
          '(info)',
          null,
        ),
        roundsRow(
          `scrub frame p95 per sweep, query + draw (${THROTTLE}× throttled)`,
          size,
          latencyP95,
          lines === 1e7 ? '≤ 8 ms' : '(info)',
          lines === 1e7 ? (m) => m <= 8 : null,
        ),
        roundsRow(
          `scrub frame main-thread time p95 per sweep (${THROTTLE}×)`,
          size,
          mainP95,
          '(info)',
          null,
        ),
        roundsRow(
          'longest main-thread task per load (0: none over 50 ms)',
          size,
          loads.map((load) => load.longestTaskMs),
          `≤ ${LONG_TASK_MS} ms`,
          (m) => m <= LONG_TASK_MS,
        ),
        roundsRow(
          `longest main-thread task per sweep (${THROTTLE}×; 0: none over 50 ms)`,
          size,
          scrubs.map((r) => r.longestTaskMs),
          `≤ ${LONG_TASK_MS} ms`,
          (m) => m <= LONG_TASK_MS,
        ),
      );
      measurements[size] = { keptPoints: kept.get(lines), loads, scrubs };
    }

    const small = scrubP95.get(1e5);
    const large = scrubP95.get(1e7);
    if (small !== undefined && large !== undefined) {
      rows.push(
        medianRow(
          'scrub frame p95 at 10^7 ÷ at 10^5, per sweep',
          '',
          spread(large.map((p95, round) => p95 / small[round]!)),
          '×',
          '≤ 1.5×',
          (m) => m <= 1.5,
        ),
      );
    }
  } finally {
    await browser.close();
    await server.stop();
    await data.remove();
  }

  await run.finish(rows, {
    settings: {
      sizes: SIZES,
      keptPoints: Object.fromEntries(kept),
      throttle: THROTTLE,
      scrub: { rounds: SCRUB_ROUNDS, stepsEachWay: SWEEP_STEPS },
    },
    measurements,
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
