// A Chromium trace of the UI bench's scrub (10^5 lines, 4× throttled unless TRACE_THROTTLE), summarised: the page
// thread's rendering and input work per scrub step, by trace event, beside the frame latencies the
// bench reports. For working on the scrub frame (docs/path-player.md, "Scrubbing"), not a bench:
//   node --import tsx bench/ui/trace-scrub.ts [out-dir]
// writes trace.json, a screenshot of the page before the scrub and summary.txt into out-dir.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { launchBrowser, newContext, signInThroughUi } from '../../tests/e2e/support/browser.ts';
import { webBuild } from '../../tests/e2e/support/web-build.ts';
import { quantile } from '../lib/stats.ts';
import { createBenchData } from './bench-data.ts';
import { startBenchServer } from './server.ts';
import { locateTimeSlider, sweepTimeSlider } from './slider-drag.ts';

const LINES = 1e5;
const STEPS = 120;
const SWEEPS = Number(process.env.TRACE_SWEEPS ?? 2);
/** TRACE_THROTTLE=1 compares CPU work with less noise; the bench throttles 4×. */
const THROTTLE = Number(process.env.TRACE_THROTTLE ?? 4);

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  /** Thread (CPU) time: unlike dur, not stretched by the throttling's pauses or other processes. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** Wall and CPU time and count of complete events by name on one thread, over the trace. */
function summarise(events: TraceEvent[], tid: number, pid: number) {
  const totals = new Map<string, { ms: number; cpuMs: number; count: number }>();
  for (const event of events) {
    if (event.tid !== tid || event.pid !== pid || event.ph !== 'X') continue;
    const entry = totals.get(event.name) ?? { ms: 0, cpuMs: 0, count: 0 };
    entry.ms += (event.dur ?? 0) / 1000;
    entry.cpuMs += (event.tdur ?? 0) / 1000;
    entry.count++;
    totals.set(event.name, entry);
  }
  return [...totals.entries()].sort((a, b) => b[1].ms - a[1].ms);
}

async function main() {
  const out = process.argv[2] ?? 'bench/results/trace-scrub';
  await mkdir(out, { recursive: true });
  const distDir = await webBuild();
  const data = await createBenchData([LINES], distDir, () => {});
  const server = await startBenchServer(data.env);
  const browser = await launchBrowser();
  try {
    const context = await newContext(browser, { baseUrl: server.baseUrl });
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 1400 });
    await signInThroughUi(page, 'admin@example.com', 'demo-password', '/admin');
    await page.goto(`/video/${data.videoIds.get(LINES)}`);
    await page.waitForFunction(
      () => performance.getEntriesByName('path-player:path-complete', 'mark').length > 0,
    );
    await page.evaluate(() => {
      const frames: number[] = [];
      (window as unknown as { __frames: number[] }).__frames = frames;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (entry.name === 'path-player:frame') frames.push(entry.duration);
        }
      }).observe({ type: 'measure' });
    });
    // The media element is masked: its loading spinner moves.
    await page.screenshot({
      path: path.join(out, 'page.png'),
      fullPage: true,
      mask: [page.locator('video')],
      animations: 'disabled',
    });
    const cdp = await context.newCDPSession(page);
    // The composited layers (each one adds layerization and commit work to every render).
    const layers = new Promise<{ layerId: string; width: number; height: number }[]>((resolve) =>
      cdp.on('LayerTree.layerTreeDidChange', (event) => resolve(event.layers ?? [])),
    );
    await cdp.send('LayerTree.enable');
    const layerLines: string[] = [];
    for (const layer of await layers) {
      const { compositingReasons = [] } = await cdp
        .send('LayerTree.compositingReasons', { layerId: layer.layerId })
        .catch(() => ({ compositingReasons: [] as string[] }));
      layerLines.push(`  ${layer.width}×${layer.height}: ${compositingReasons.join(', ')}`);
    }
    await cdp.send('LayerTree.disable');
    const track = await locateTimeSlider(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    await browser.startTracing(page, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'blink.user_timing',
        'toplevel',
        ...(process.env.TRACE_INVALIDATIONS
          ? ['disabled-by-default-devtools.timeline.invalidationTracking']
          : []),
      ],
    });
    await sweepTimeSlider(page, track, SWEEPS, STEPS);
    const trace = await browser.stopTracing();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await writeFile(path.join(out, 'trace.json'), trace);
    const frames = await page.evaluate(
      () => (window as unknown as { __frames: number[] }).__frames,
    );

    const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] })
      .traceEvents;
    const main = events.find(
      (event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain',
    );
    if (!main) throw new Error('no renderer main thread in the trace');
    const steps = SWEEPS * (2 * STEPS + 1);
    const lines = [
      `${layerLines.length} composited layers:`,
      ...layerLines,
      `frames ${frames.length}: p50 ${quantile(frames, 0.5).toFixed(1)} ms, p95 ${quantile(frames, 0.95).toFixed(1)} ms, max ${Math.max(...frames).toFixed(1)} ms`,
      `page thread per scrub step (${steps} steps), by trace event (nested events overlap): wall ms, CPU ms (${THROTTLE}× throttling stretches wall time), count`,
      ...summarise(events, main.tid, main.pid)
        .slice(0, 25)
        .map(
          ([name, { ms, cpuMs, count }]) =>
            `  ${name.padEnd(48)} ${(ms / steps).toFixed(3).padStart(8)} ${(cpuMs / steps).toFixed(3).padStart(8)}  ×${(count / steps).toFixed(2)}`,
        ),
    ];
    await writeFile(path.join(out, 'summary.txt'), `${lines.join('\n')}\n`);
    console.log(lines.join('\n'));
  } finally {
    await browser.close();
    await server.stop();
    await data.remove();
  }
}

await main();
