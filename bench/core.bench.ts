// Core benchmark (issue 2 §4): the WebAssembly path core against idiomatic JS, hand-written JS
// and opencv.js, on seeded keyframe files of 10^5, 10^6 and 10^7 lines. One process; contenders
// alternate over ROUNDS rounds; rows report medians of per-round ratios with their spread.
// Targets measure what the product runs (loadPath's resident kernels in the path worker, the scrub
// query); the copying API's rows only inform. Run with `npm run bench`; how to read the output:
// bench/README.md.
import { readFile } from 'node:fs/promises';
import { affineFromThreePoints } from '../tests/reference/affine.ts';
import { homographyFromFourPoints, mapPoint } from '../tests/reference/homography.ts';
import { mapAndClampReference } from '../tests/reference/mapping.ts';
import { scanTagsReference, thinReference } from '../tests/reference/path.ts';
import { createNodePathEngine } from '../workers/path-engine.node.ts';
import {
  MAP_CHUNK_POINTS,
  PathEngine,
  READ_CHUNK_POINTS,
  SCRATCH_ALIGNMENT_OFFSET,
} from '../workers/path-engine.ts';
import type { Calibration, KeyframeColumns, TransformResult, XY } from '../workers/path-types.ts';
import { parseKeyframesBytes } from './baselines/byte-parser.ts';
import {
  clampAfterOpenCv,
  loadOpenCv,
  mapWithOpenCv,
  type OpenCv,
  residentOpenCv,
  solveWithOpenCv,
} from './baselines/opencv.ts';
import { parseKeyframesSplit } from './baselines/split-parser.ts';
import { barePass, PAGE_BYTES } from './lib/bare-pass.ts';
import { generateKeyframeText } from './lib/keyframe-text.ts';
import { createPrng } from './lib/prng.ts';
import { formatSize, medianRow, type TargetRow } from './lib/report.ts';
import { quickRun, startBenchRun } from './lib/results.ts';
import { alternate, type Measured, ratioSpread } from './lib/rounds.ts';
import { benchCalibration, benchImage, benchTags, randomCalibrations } from './lib/scenario.ts';
import { quantile, type Spread, spread } from './lib/stats.ts';

/** BENCH_SIZES="1e5,1e6" and BENCH_ROUNDS=5 shorten a run while working on the bench itself. */
function fromEnvironment(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = raw.split(',').map(Number);
  if (!values.every((v) => Number.isInteger(v) && v > 0)) {
    throw new Error(`${name} must be positive whole numbers separated by commas, got "${raw}"`);
  }
  return values;
}

const SIZES = fromEnvironment('BENCH_SIZES', quickRun ? [1e5] : [1e5, 1e6, 1e7]);
const [ROUNDS = 15] = fromEnvironment('BENCH_ROUNDS', [quickRun ? 3 : 15]);
/**
 * Rounds at 10^7 lines: one round of the split parser there takes seconds, and 15 of them alone
 * would take a fair share of `npm run bench`'s 15 minutes on a busy 2-core machine.
 */
const LARGE_ROUNDS = Math.min(ROUNDS, 5);
const roundsAt = (n: number) => (n >= 1e7 ? LARGE_ROUNDS : ROUNDS);
const SEED = 0x5eed;
const FIRST_CALL_ENGINES = quickRun ? 2 : 5;
const QUERIES_PER_ROUND = quickRun ? 2_000 : 20_000;
const SOLVE_CALIBRATIONS = 200;
const WASM_BUDGET_BYTES = 32 * 1024;
const THIN_DISTANCE_PX = 12;
const WASM_URL = new URL('../build/path-core.wasm', import.meta.url);

const rows: TargetRow[] = [];
const measurements: Record<string, unknown>[] = [];

function log(message: string): void {
  console.log(`[${(performance.now() / 1000).toFixed(0).padStart(4)} s] ${message}`);
}

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function addRow(
  target: string,
  n: number | null,
  s: Spread,
  unit: string,
  goal: string,
  /** null for rows that only inform (no target at this size). */
  pass: ((median: number) => boolean) | null,
): void {
  rows.push(medianRow(target, n === null ? '' : formatSize(n), s, unit, goal, pass));
}

/** A row passing when the core is at least `factor` times faster than `slow`, per round. */
function speedupRow(
  target: string,
  n: number | null,
  slow: Measured,
  fast: Measured,
  factor: number,
): void {
  addRow(
    target,
    n,
    ratioSpread(slow, fast),
    '×',
    factor === 1 ? '> 1× (faster)' : `≥ ${factor}×`,
    (m) => (factor === 1 ? m > 1 : m >= factor),
  );
}

/**
 * The resident mapping row against the JS loop: its speed-up is bounded by a bare read + write pass
 * over the same bytes (`ceiling`, per round, same process). When the ceiling's median is below the
 * target, no in-place kernel could make the row pass, so it only informs and says so (bench/README.md).
 */
function ceilingRow(
  target: string,
  n: number,
  slow: Measured,
  fast: Measured,
  ceiling: Spread,
  factor: number,
): void {
  if (ceiling.median >= factor) {
    speedupRow(target, n, slow, fast, factor);
    return;
  }
  const goal = `(info: a bare read+write pass bounds it at ${ceiling.median.toFixed(1)}×, < ${factor}×)`;
  addRow(target, n, ratioSpread(slow, fast), '×', goal, null);
}

/**
 * A row of the copying API (JS arrays in, through linear memory, out again): work the product never
 * does, since loadPath keeps its points in linear memory, so the row only informs. With `copying`
 * (the API's copies alone) its goal column shows the most any copying API could gain over `slow`.
 */
function apiRow(
  target: string,
  n: number,
  slow: Measured,
  api: Measured,
  copying?: Measured,
): void {
  const bound =
    copying === undefined
      ? ''
      : `; the copying alone bounds it at ${ratioSpread(slow, copying).median.toFixed(1)}×`;
  addRow(target, n, ratioSpread(slow, api), '×', `(info: not the product's path${bound})`, null);
}

/** A kernel's target row (resident in linear memory, as loadPath runs it) and its copying API row. */
function kernelRows(
  what: string,
  n: number,
  results: Map<string, Measured>,
  baseline: string,
  factor: number,
  /** The contender that does only the API's copying, when measured. */
  copying?: string,
): void {
  const slow = results.get(baseline)!;
  speedupRow(
    `${what} (resident kernel, as loadPath) vs ${baseline}`,
    n,
    slow,
    results.get('wasm-resident')!,
    factor,
  );
  apiRow(
    `${what} (copying API) vs ${baseline}`,
    n,
    slow,
    results.get('wasm-api')!,
    copying === undefined ? undefined : results.get(copying),
  );
}

/**
 * The copying the engine's streaming calls do besides their kernel: x and y through a reused
 * scratch array of `chunk` points (the engine's own chunk for that call), and with `out` back out.
 * The scratch sits where the engine's does relative to a 64-byte boundary (a memmove's speed
 * depends on it); a plain Float64Array would land wherever the allocator puts it, different from
 * one process to the next.
 */
function streamCopy(
  x: Float64Array,
  y: Float64Array,
  chunk: number,
  out?: { x: Float64Array; y: Float64Array },
) {
  const bytes = 16 * chunk + SCRATCH_ALIGNMENT_OFFSET;
  const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE_BYTES) });
  const scratch = new Float64Array(memory.buffer, SCRATCH_ALIGNMENT_OFFSET, 2 * chunk);
  return () => {
    for (let start = 0; start < x.length; start += chunk) {
      const end = Math.min(start + chunk, x.length);
      scratch.set(x.subarray(start, end), 0);
      scratch.set(y.subarray(start, end), chunk);
      if (out === undefined) continue;
      out.x.set(scratch.subarray(0, end - start), start);
      out.y.set(scratch.subarray(chunk, chunk + end - start), start);
    }
  };
}

function record(group: string, n: number | null, results: Map<string, Measured>): void {
  for (const [contender, m] of results) {
    measurements.push({
      group,
      n,
      contender,
      firstMs: m.firstMs,
      ms: spread(m.samplesMs),
      samplesMs: m.samplesMs,
    });
  }
}

/** Throws when a contender's output differs: a fast wrong answer must never be benchmarked. */
function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bench: results disagree: ${what}`);
}

function sameValues(a: ArrayLike<number>, b: ArrayLike<number>, relative = 0): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (!(d <= relative * Math.max(Math.abs(b[i]!), 1))) return false;
  }
  return true;
}

/**
 * The module bytes plus a custom section holding `nonce`: the code is identical, but V8's
 * per-process native module cache (keyed by the bytes) misses, so the engine compiles and tiers
 * up from scratch as in a fresh page.
 */
function withNonce(wasm: Uint8Array, nonce: string): Uint8Array<ArrayBuffer> {
  const name = new TextEncoder().encode('bench-nonce');
  const payload = new TextEncoder().encode(nonce);
  const body = [name.length, ...name, ...payload];
  if (name.length > 127 || body.length > 127) throw new Error('nonce too long for a 1-byte LEB128');
  return Uint8Array.from([...wasm, 0, body.length, ...body]);
}

// ---- parse --------------------------------------------------------------------------------

async function benchParse(
  engine: PathEngine,
  wasm: Uint8Array<ArrayBuffer>,
  text: Uint8Array,
  n: number,
) {
  const wasmParse = engine.parseKeyframes(text);
  const bytes = parseKeyframesBytes(text);
  const split = parseKeyframesSplit(text);
  for (const key of ['index', 'x', 'y', 't'] as const) {
    check(sameValues(wasmParse.columns[key], bytes[key]), `parse ${key} (wasm vs byte parser)`);
    check(sameValues(wasmParse.columns[key], split[key]), `parse ${key} (wasm vs split parser)`);
  }
  check(wasmParse.report.points === n && wasmParse.report.badLines === 0, 'parse report');

  const resident = engine.residentKeyframes(text);
  const residentColumns = resident.readColumns();
  resident.dispose();
  for (const key of ['index', 'x', 'y', 't'] as const) {
    check(
      sameValues(residentColumns[key], wasmParse.columns[key]),
      `parse ${key} (resident vs API)`,
    );
  }

  log(`${formatSize(n)} parse: ${(text.length / 1e6).toFixed(0)} MB, ${roundsAt(n)} rounds`);
  const results = alternate(
    [
      { name: 'wasm-api', run: () => engine.parseKeyframes(text) },
      // As loadPath parses: the columns stay in linear memory (freed again, as the next load would).
      { name: 'wasm-resident', run: () => engine.residentKeyframes(text).dispose() },
      { name: 'JS byte parser', run: () => parseKeyframesBytes(text) },
      { name: 'JS split+parseFloat', run: () => parseKeyframesSplit(text) },
    ],
    roundsAt(n),
  );
  record('parse', n, results);
  // The product parses as loadPath does, into linear memory it keeps: that is the target. The
  // copying API's parseKeyframes (new JS arrays, as the JS parsers return) only informs.
  for (const [baseline, factor] of [
    ['JS split+parseFloat', 10],
    ['JS byte parser', 2.5],
  ] as const) {
    speedupRow(
      `parse (resident, as loadPath) vs ${baseline}`,
      n,
      results.get(baseline)!,
      results.get('wasm-resident')!,
      factor,
    );
    apiRow(
      `parse (copying API, new arrays) vs ${baseline}`,
      n,
      results.get(baseline)!,
      results.get('wasm-api')!,
    );
  }
  const gigabytesPerSecond = (m: Measured) =>
    spread(m.samplesMs.map((ms) => text.length / ms / 1e6));
  addRow(
    'parse throughput (resident, as loadPath parses)',
    n,
    gigabytesPerSecond(results.get('wasm-resident')!),
    ' GB/s',
    '≥ 1 GB/s',
    (m) => m >= 1,
  );
  addRow(
    'parse throughput (copying API, columns copied out to new arrays)',
    n,
    gigabytesPerSecond(results.get('wasm-api')!),
    ' GB/s',
    "(info: not the product's path)",
    null,
  );

  // First call on fresh engines, each compiled from byte-distinct but equal code, and on fresh
  // instances of the already compiled module: fresh memory, warm code. The product's first parse is
  // loadPath's in a fresh worker, into fresh memory: the target divides its first call by the same
  // parse on warm code into fresh memory, so it measures compiling and tiering up, as issue 2 asks.
  const firstCall = async (
    source: () => Uint8Array<ArrayBuffer> | WebAssembly.Module,
    parse: (engine: PathEngine) => void,
  ): Promise<number[]> => {
    const times: number[] = [];
    for (let k = 0; k < FIRST_CALL_ENGINES; k++) {
      const fresh = await PathEngine.create(source());
      collectGarbage();
      const start = performance.now();
      parse(fresh);
      times.push(performance.now() - start);
      fresh.dispose();
    }
    return times;
  };
  let nonce = 0;
  const freshModule = () => withNonce(wasm, `${n}:${nonce++}`);
  const compiled = await WebAssembly.compile(wasm);
  for (const [label, name, parse, product] of [
    [
      ' (resident, as loadPath)',
      'wasm-resident',
      (e: PathEngine) => e.residentKeyframes(text).dispose(),
      true,
    ],
    [' (copying API)', 'wasm-api', (e: PathEngine) => e.parseKeyframes(text), false],
  ] as const) {
    const warmedMs = spread(results.get(name)!.samplesMs).median;
    const firstMs = await firstCall(freshModule, parse);
    const freshInstanceMs = await firstCall(() => compiled, parse);
    const warmCodeMs = spread(freshInstanceMs).median;
    measurements.push({
      group: `parse-first-call${label}`,
      n,
      firstMs,
      freshInstanceMs,
      warmedMedianMs: warmedMs,
    });
    addRow(
      `parse${label} first call ÷ the same on warm code, fresh memory`,
      n,
      spread(firstMs.map((ms) => ms / warmCodeMs)),
      '×',
      product ? '≤ 1.3×' : "(info: not the product's path)",
      product ? (m) => m <= 1.3 : null,
    );
    addRow(
      `parse${label} first call ÷ warmed (memory reused)`,
      n,
      spread(firstMs.map((ms) => ms / warmedMs)),
      '×',
      '(info)',
      null,
    );
  }
  return wasmParse.columns;
}

// ---- map, thin, tag scan --------------------------------------------------------------------

function benchMap(
  engine: PathEngine,
  cv: OpenCv,
  columns: KeyframeColumns,
  transform: TransformResult,
  n: number,
) {
  const { x, y } = columns;
  const matrix = transform.matrix;
  const api = engine.mapToImage(transform, x, y, benchImage);
  const js = mapAndClampReference(matrix, false, x, y, benchImage);
  const viaCv = mapWithOpenCv(cv, matrix, x, y);
  const cvClamped = clampAfterOpenCv(viaCv.x, viaCv.y, benchImage);
  check(api.clamped === js.clamped && cvClamped === js.clamped, 'clamp counts');
  check(
    sameValues(api.x, js.x, 1e-15) && sameValues(api.y, js.y, 1e-15),
    'mapped points (wasm vs JS)',
  );
  check(
    sameValues(viaCv.x, js.x, 1e-12) && sameValues(viaCv.y, js.y, 1e-12),
    'mapped points (opencv vs JS)',
  );

  // Like for like, twice. API: every contender reads the JS arrays x, y and writes the mapped
  // points into the same caller-provided arrays (no new arrays: their page faults would only add
  // the same cost to everyone). Resident: every contender keeps the points in its own memory and
  // maps them there; the points are restored before each call (untimed), for all three.
  const out = { x: new Float64Array(n), y: new Float64Array(n) };
  check(
    engine.mapToImage(transform, x, y, benchImage, out).clamped === js.clamped &&
      sameValues(out.x, api.x) &&
      sameValues(out.y, api.y),
    'map into caller arrays',
  );
  let resident = engine.resident(x, y);
  const restore = () => {
    resident.dispose();
    resident = engine.resident(x, y);
  };
  check(resident.mapToImage(transform, benchImage).clamped === js.clamped, 'resident clamp count');
  const mapped = resident.read();
  check(sameValues(mapped.x, api.x) && sameValues(mapped.y, api.y), 'resident map');
  const cvResident = residentOpenCv(cv, matrix, x, y);
  check(cvResident.mapAndClamp(benchImage) === js.clamped, 'opencv resident clamp count');
  const cvMapped = cvResident.read();
  check(sameValues(cvMapped.x, viaCv.x) && sameValues(cvMapped.y, viaCv.y), 'opencv resident map');
  const inPlace = { x: new Float64Array(n), y: new Float64Array(n) };
  const restoreInPlace = () => {
    inPlace.x.set(x);
    inPlace.y.set(y);
  };
  // What the API does besides mapping; and the memory ceiling of any in-place kernel.
  const copyInAndOut = streamCopy(x, y, MAP_CHUNK_POINTS, out);
  const pass = barePass(x, y);

  log(`${formatSize(n)} map + clamp`);
  const results = alternate(
    [
      { name: 'wasm-api', run: () => engine.mapToImage(transform, x, y, benchImage, out) },
      {
        name: 'opencv.js',
        run: () => clampAfterOpenCv(...xy(mapWithOpenCv(cv, matrix, x, y, out)), benchImage),
      },
      { name: 'JS loop', run: () => mapAndClampReference(matrix, false, x, y, benchImage, out) },
      { name: 'copy in and out', run: copyInAndOut },
      { name: 'wasm read+write pass', run: pass.run },
      {
        name: 'wasm-resident',
        prepare: restore,
        run: () => resident.mapToImage(transform, benchImage),
      },
      {
        name: 'opencv.js resident',
        prepare: () => cvResident.restore(x, y),
        run: () => cvResident.mapAndClamp(benchImage),
      },
      {
        name: 'JS loop in place',
        prepare: restoreInPlace,
        run: () => mapAndClampReference(matrix, false, inPlace.x, inPlace.y, benchImage, inPlace),
      },
    ],
    roundsAt(n),
  );
  record('map', n, results);
  const kernel = results.get('wasm-resident')!;
  speedupRow(
    'map+clamp (resident, in place, as loadPath) vs opencv.js',
    n,
    results.get('opencv.js resident')!,
    kernel,
    4,
  );
  const jsInPlace = results.get('JS loop in place')!;
  const ceiling = ratioSpread(jsInPlace, results.get('wasm read+write pass')!);
  ceilingRow(
    'map+clamp (resident, in place, as loadPath) vs JS loop',
    n,
    jsInPlace,
    kernel,
    ceiling,
    5,
  );
  addRow(
    'map+clamp resident ceiling: JS loop in place ÷ a bare WASM read+write pass',
    n,
    ceiling,
    '×',
    '(info)',
    null,
  );
  const viaApi = results.get('wasm-api')!;
  const copying = results.get('copy in and out')!;
  apiRow(
    'map+clamp (copying API, into caller arrays) vs opencv.js',
    n,
    results.get('opencv.js')!,
    viaApi,
    copying,
  );
  apiRow(
    'map+clamp (copying API, into caller arrays) vs JS loop',
    n,
    results.get('JS loop')!,
    viaApi,
    copying,
  );
  resident.dispose();
  cvResident.delete();
  return api;
}

/** A mapped {x, y} as the argument pair clampAfterOpenCv takes. */
function xy(points: { x: Float64Array; y: Float64Array }): [Float64Array, Float64Array] {
  return [points.x, points.y];
}

function benchThin(engine: PathEngine, dx: Float64Array, dy: Float64Array, n: number) {
  const kept = thinReference(dx, dy, THIN_DISTANCE_PX);
  check(sameValues(engine.thin(dx, dy, THIN_DISTANCE_PX), kept), 'thinning (wasm API vs JS)');
  const resident = engine.resident(dx, dy);
  check(sameValues(resident.thin(THIN_DISTANCE_PX), kept), 'thinning (resident vs JS)');

  log(`${formatSize(n)} thin (${kept.length} of ${n} kept)`);
  const results = alternate(
    [
      { name: 'wasm-api', run: () => engine.thin(dx, dy, THIN_DISTANCE_PX) },
      { name: 'wasm-resident', run: () => resident.thin(THIN_DISTANCE_PX) },
      { name: 'JS loop', run: () => thinReference(dx, dy, THIN_DISTANCE_PX) },
      { name: 'copy in', run: streamCopy(dx, dy, READ_CHUNK_POINTS) },
    ],
    roundsAt(n),
  );
  record('thin', n, results);
  kernelRows('thin', n, results, 'JS loop', 2, 'copy in');
  resident.dispose();
}

function benchScan(
  engine: PathEngine,
  mx: Float64Array,
  my: Float64Array,
  tags: readonly XY[],
  n: number,
) {
  const scanned = scanTagsReference(mx, my, tags, 10);
  check(sameValues(engine.scanTags(mx, my, tags).indices, scanned), 'tag scan (wasm API vs JS)');
  const resident = engine.resident(mx, my);
  check(sameValues(resident.scanTags(tags).indices, scanned), 'tag scan (resident vs JS)');

  log(`${formatSize(n)} tag scan (${scanned.length} of ${tags.length} tags scanned)`);
  const results = alternate(
    [
      { name: 'wasm-api', run: () => engine.scanTags(mx, my, tags) },
      { name: 'wasm-resident', run: () => resident.scanTags(tags) },
      { name: 'JS brute force', run: () => scanTagsReference(mx, my, tags, 10) },
    ],
    roundsAt(n),
  );
  record('scan', n, results);
  kernelRows('tag scan, 200 tags', n, results, 'JS brute force', 2);
  resident.dispose();
}

// ---- scrub query ----------------------------------------------------------------------------

/** Median cost of one performance.now() pair: subtracted from every individually timed query. */
function timerOverheadNs(): number {
  const samples: number[] = [];
  for (let i = 0; i < 100_000; i++) {
    const start = performance.now();
    samples.push((performance.now() - start) * 1e6);
  }
  return quantile(samples, 0.5);
}

/**
 * One round of random scrub times on a loaded path through `call` (the worker's scrub, or the bare
 * query). Each call is timed on its own (minus the timer's own cost) for the percentiles; the whole
 * batch is timed too, for the mean.
 */
function queryRound(
  call: (time: number) => unknown,
  bounds: { min: number; max: number },
  seed: number,
  overheadNs: number,
) {
  const random = createPrng(seed);
  const times = Float64Array.from(
    { length: QUERIES_PER_ROUND },
    () => bounds.min + random() * (bounds.max - bounds.min),
  );
  const latencies = new Float64Array(QUERIES_PER_ROUND);
  for (let i = 0; i < times.length; i++) {
    const start = performance.now();
    call(times[i]!);
    latencies[i] = Math.max(0, (performance.now() - start) * 1e6 - overheadNs);
  }
  const start = performance.now();
  for (let i = 0; i < times.length; i++) call(times[i]!);
  const meanNs = ((performance.now() - start) * 1e6) / times.length;
  const sorted = Array.from(latencies);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), meanNs };
}

/**
 * The scrub step's core call, as the path worker makes it for every frame: `scrub` (the query plus
 * the nearest keyframe's number) is the target; the bare `query` is shown beside it.
 */
function benchQueries(
  loaded: Map<number, { engine: PathEngine; bounds: { min: number; max: number } }>,
) {
  const overheadNs = timerOverheadNs();
  const sizes = [...loaded.keys()];
  const calls = {
    scrub: (engine: PathEngine) => (time: number) => engine.scrub(time),
    query: (engine: PathEngine) => (time: number) => engine.query(time),
  };
  type Samples = { p50: number[]; p99: number[]; mean: number[] };
  const empty = (): Samples => ({ p50: [], p99: [], mean: [] });
  const perSize = new Map(sizes.map((n) => [n, { scrub: empty(), query: empty() }]));
  log(
    `scrub: ${QUERIES_PER_ROUND} times per size per round, timer overhead ${overheadNs.toFixed(0)} ns`,
  );
  for (const n of sizes) {
    const { engine, bounds } = loaded.get(n)!;
    for (const call of Object.values(calls)) queryRound(call(engine), bounds, SEED, overheadNs); // warm-up
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < sizes.length; k++) {
      const n = sizes[(r + k) % sizes.length]!;
      const { engine, bounds } = loaded.get(n)!;
      for (const name of ['scrub', 'query'] as const) {
        const q = queryRound(calls[name](engine), bounds, SEED + r + 1, overheadNs);
        const s = perSize.get(n)![name];
        s.p50.push(q.p50);
        s.p99.push(q.p99);
        s.mean.push(q.meanNs);
      }
    }
  }
  for (const [n, { scrub, query }] of perSize) {
    for (const [name, s] of [
      ['scrub', scrub],
      ['query', query],
    ] as const) {
      measurements.push({
        group: name,
        n,
        overheadNs,
        p50Ns: spread(s.p50),
        p99Ns: spread(s.p99),
        meanNs: spread(s.mean),
      });
    }
    const target = n === 1e7;
    addRow(
      'scrub p99 latency (engine.scrub, as the worker per frame)',
      n,
      spread(scrub.p99.map((ns) => ns / 1000)),
      ' µs',
      target ? '≤ 1 µs' : '(info)',
      target ? (m) => m <= 1 : null,
    );
    addRow(
      'scrub query alone p99 latency (engine.query)',
      n,
      spread(query.p99.map((ns) => ns / 1000)),
      ' µs',
      '(info)',
      null,
    );
  }
  if (sizes.length < 2) return;
  const small = perSize.get(Math.min(...sizes))!.scrub;
  const large = perSize.get(Math.max(...sizes))!.scrub;
  addRow(
    `scrub p99 ${formatSize(Math.max(...sizes))} ÷ ${formatSize(Math.min(...sizes))}`,
    null,
    spread(large.p99.map((v, r) => v / small.p99[r]!)),
    '×',
    '≤ 5×',
    (m) => m <= 5,
  );
}

// ---- solve ----------------------------------------------------------------------------------

/** Largest distance (image px) between two matrices' mappings of the points and a grid over them. */
function mappingDeviation(
  a: readonly number[],
  b: readonly number[],
  points: readonly XY[],
): number {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  let worst = 0;
  for (let i = 0; i <= 4; i++) {
    for (let j = 0; j <= 4; j++) {
      const x = Math.min(...xs) + ((Math.max(...xs) - Math.min(...xs)) * i) / 4;
      const y = Math.min(...ys) + ((Math.max(...ys) - Math.min(...ys)) * j) / 4;
      const p = mapPoint(a, x, y);
      const q = mapPoint(b, x, y);
      worst = Math.max(worst, Math.hypot(p.x - q.x, p.y - q.y));
    }
  }
  return worst;
}

function benchSolve(engine: PathEngine, cv: OpenCv) {
  for (const pairs of [4, 3] as const) {
    const kind = pairs === 4 ? 'perspective' : 'affine';
    const cvName = pairs === 4 ? 'getPerspectiveTransform' : 'getAffineTransform';
    const calibrations: Calibration[] = randomCalibrations(SOLVE_CALIBRATIONS, pairs, SEED + pairs);
    const wasmErrors: number[] = [];
    const cvErrors: number[] = [];
    for (const c of calibrations) {
      const reference =
        pairs === 4
          ? homographyFromFourPoints(c.slamPoints, c.floorplanPoints)
          : affineFromThreePoints(c.slamPoints, c.floorplanPoints);
      const result = engine.solveTransform(c, benchImage);
      check(
        reference !== null && result.kind === kind,
        `solve chose ${result.kind}, expected ${kind}`,
      );
      wasmErrors.push(mappingDeviation(result.matrix, reference!, c.slamPoints));
      cvErrors.push(
        mappingDeviation(
          solveWithOpenCv(cv, c.slamPoints, c.floorplanPoints),
          reference!,
          c.slamPoints,
        ),
      );
    }
    log(`solve ${pairs} points: ${SOLVE_CALIBRATIONS} calibrations per sample`);
    const results = alternate(
      [
        { name: 'wasm', run: () => calibrations.map((c) => engine.solveTransform(c, benchImage)) },
        {
          name: 'opencv',
          run: () => calibrations.map((c) => solveWithOpenCv(cv, c.slamPoints, c.floorplanPoints)),
        },
      ],
      ROUNDS,
    );
    record(`solve-${pairs}`, null, results);
    measurements.push({
      group: `solve-${pairs}-accuracy`,
      wasmErrorPx: spread(wasmErrors),
      opencvErrorPx: spread(cvErrors),
    });
    speedupRow(
      `solve ${pairs}-point vs opencv ${cvName}`,
      null,
      results.get('opencv')!,
      results.get('wasm')!,
      1,
    );
    const wasmError = spread(wasmErrors);
    const cvError = spread(cvErrors);
    rows.push({
      target: `solve ${pairs}-point error vs float64 reference`,
      size: '',
      value: wasmError.max,
      spread: wasmError,
      measured: `max ${wasmError.max.toExponential(1)} px (median ${wasmError.median.toExponential(1)}); opencv max ${cvError.max.toExponential(1)} (median ${cvError.median.toExponential(1)})`,
      goal: '≤ opencv',
      pass: wasmError.max <= cvError.max && wasmError.median <= cvError.median,
    });
  }
}

// ---- main -----------------------------------------------------------------------------------

async function main(): Promise<void> {
  const run = startBenchRun('core');
  const wasm = new Uint8Array(await readFile(WASM_URL));
  console.log(
    `Core bench: sizes ${SIZES.map(formatSize).join(', ')}, ${ROUNDS} rounds (${LARGE_ROUNDS} at 10^7), seed ${SEED}${quickRun ? ' (BENCH_QUICK)' : ''}`,
  );
  if (!(globalThis as { gc?: unknown }).gc)
    console.log('(run with node --expose-gc for a GC before every sample)');
  const { cv, loadMs } = await loadOpenCv();
  log(`opencv.js ready in ${loadMs.toFixed(0)} ms`);
  const engine = await createNodePathEngine();
  // Solving gets its own instance, so the parse timings never depend on what a solve leaves behind.
  const solver = await createNodePathEngine();
  const transform = solver.solveTransform(benchCalibration, benchImage);
  check(transform.kind === 'perspective', `bench calibration solved as ${transform.kind}`);
  const display = engine.displayGeometry(benchImage);
  const loaded = new Map<number, { engine: PathEngine; bounds: { min: number; max: number } }>();

  for (const n of SIZES) {
    const text = generateKeyframeText(n, SEED + n);
    const columns = await benchParse(engine, wasm, text, n);
    const mapped = benchMap(engine, cv, columns, transform, n);
    const dx = mapped.x.map((v) => v * display.scale);
    const dy = mapped.y.map((v) => v * display.scale);
    benchThin(engine, dx, dy, n);
    const tags = benchTags(SEED);
    benchScan(engine, mapped.x, mapped.y, tags, n);

    const pathEngine = await createNodePathEngine();
    const start = performance.now();
    const path = pathEngine.loadPath({
      text,
      calibration: benchCalibration,
      image: benchImage,
      tags,
    });
    const loadMs = performance.now() - start;
    check(path.report.points === n, 'loadPath point count');
    measurements.push({ group: 'loadPath', n, firstMs: loadMs, kept: path.kept.index.length });
    log(
      `${formatSize(n)} loadPath (first call) ${loadMs.toFixed(0)} ms, ${path.kept.index.length} kept`,
    );
    loaded.set(n, { engine: pathEngine, bounds: path.bounds });
    collectGarbage();
  }
  benchQueries(loaded);
  benchSolve(solver, cv);

  rows.push({
    target: 'build/path-core.wasm size',
    size: '',
    value: wasm.length,
    spread: null,
    measured: `${(wasm.length / 1024).toFixed(1)} KB (${wasm.length} bytes)`,
    goal: '≤ 32 KB',
    pass: wasm.length <= WASM_BUDGET_BYTES,
  });

  await run.finish(rows, {
    settings: {
      rounds: ROUNDS,
      roundsAt10e7: LARGE_ROUNDS,
      seed: SEED,
      sizes: SIZES,
      opencvLoadMs: loadMs,
    },
    measurements,
  });
}

// opencv.js installs process-wide handlers that rethrow with its whole 7 MB source attached:
// report failures here instead, with a non-zero exit code (missed targets still exit 0).
main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
