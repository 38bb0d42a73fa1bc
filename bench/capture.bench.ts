// Capture benchmark (issue 19, "Benchmarks"): ratios measured side by side in one run.
//  - QR decoding of 1280×720 frames in the worker (zxing-wasm) vs jsQR on the same frames, in
//    Chromium; and every code jsQR finds must be found.
//  - On-device SHA-256 streamed in 1 MiB parts through the hashing worker vs WebCrypto's one-shot
//    digest of the same bytes, in Chromium.
//  - A 200 MB upload on loopback: tus into the real server (SHA-256 verified) vs one plain PUT to a
//    bare Node server that hashes and stores it; and the server's peak memory (VmHWM) with a
//    200 MB upload vs a 20 MB one (each in a fresh server process).
//  - Recording with Chromium's fake camera on the real inspection page: the page's JS heap after
//    10 minutes vs after 1 minute.
// Prints a table and writes bench/results/capture.json. Run: npm run bench:capture (built app).
// BENCH_PARTS=browser,upload,recording (the default: all) runs some of them, written to
// capture-<parts>.json; `npm run bench` runs the recording alongside the other benches this way.
// Shorter while working on the bench: BENCH_RECORD_MINUTES=2 BENCH_UPLOAD_MB=50.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Page } from 'playwright';
import { Upload } from 'tus-js-client';
import { createServer } from 'vite';
import { uploadChunkBytes } from '../src/lib/capture/upload-chunks.ts';
import { newContext } from '../tests/e2e/support/browser.ts';
import { writeQrY4m } from '../tests/e2e/support/fake-camera.ts';
import { webBuild } from '../tests/e2e/support/web-build.ts';
import { chromiumArgs, chromiumPath } from '../tests/support/chromium.ts';
import { formatSpread, type TargetRow } from './lib/report.ts';
import { quickRun, startBenchRun } from './lib/results.ts';
import { spread } from './lib/stats.ts';
import { createBenchData } from './ui/bench-data.ts';
import { type BenchServer, startBenchServer } from './ui/server.ts';

const allParts = ['browser', 'upload', 'recording'];
const parts = new Set((process.env.BENCH_PARTS ?? allParts.join(',')).split(','));
const run = startBenchRun(
  parts.size === allParts.length
    ? 'capture'
    : `capture-${allParts.filter((p) => parts.has(p)).join('-')}`,
);
const MB = 1024 * 1024;
// BENCH_QUICK: small inputs, two rounds and 30 s of recording, only to prove the bench still runs.
const RECORD_MINUTES = Number(process.env.BENCH_RECORD_MINUTES ?? 10);
/** The recording's JS heap is read every interval, RECORD_INTERVALS times. */
const HEAP_INTERVAL_S = quickRun ? 10 : 60;
const RECORD_INTERVALS = quickRun ? 3 : RECORD_MINUTES;
const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? (quickRun ? 20 : 200));
const ROUNDS = quickRun ? 2 : 5;
const QR_FRAMES = quickRun ? 4 : 16;
const HASH_BYTES = (quickRun ? 8 : 64) * MB;
const duration = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`);

const rows: TargetRow[] = [];
const measurements: Record<string, unknown> = {};

function ratioRow(target: string, ratios: number[], goal: number, size = '') {
  const s = spread(ratios);
  rows.push({
    target,
    size,
    value: s.median,
    spread: s,
    measured: formatSpread(s, '×'),
    goal: `≥ ${goal}×`,
    pass: s.median >= goal,
  });
}

// ---- QR and SHA-256 in Chromium, on a Vite-served bench page --------------------------------

async function browserTargets() {
  const vite = await createServer({
    configFile: path.resolve('vite.config.ts'),
    server: { port: 0, host: '127.0.0.1', proxy: {} },
    logLevel: 'error',
  });
  await vite.listen();
  const address = vite.httpServer?.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/bench/capture/page.html`);
    await page.waitForFunction(() => document.title === 'ready', null, { timeout: 120_000 });
    await page.evaluate((n) => window.bench.prepareFrames(n), QR_FRAMES);

    const zxingMs: number[] = [];
    const jsqrMs: number[] = [];
    let missed: string[] = [];
    const found = { zxing: 0, jsqr: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so drift does not favour one.
      const order = round % 2 === 0 ? ['zxing', 'jsqr'] : ['jsqr', 'zxing'];
      for (const name of order) {
        if (name === 'zxing') {
          const pass = await page.evaluate(() => window.bench.zxingPass());
          zxingMs.push(pass.ms);
          found.zxing = pass.codes.flat().length;
          const jsqr = await page.evaluate(() => window.bench.jsqrPass().codes);
          missed = jsqr.flatMap((code, i) =>
            code && !pass.codes[i]?.includes(code) ? [code] : [],
          );
          found.jsqr = jsqr.filter(Boolean).length;
        } else {
          jsqrMs.push((await page.evaluate(() => window.bench.jsqrPass())).ms);
        }
      }
    }
    ratioRow(
      'QR decoding 1280×720 frames: worker (zxing-wasm) fps ÷ jsQR fps',
      zxingMs.map((ms, r) => (jsqrMs[r] as number) / ms),
      3,
      `${QR_FRAMES} frames`,
    );
    rows.push({
      target: 'every code jsQR finds is found by the worker',
      size: `${found.jsqr} by jsQR, ${found.zxing} by zxing`,
      value: missed.length,
      spread: null,
      measured: missed.length === 0 ? 'none missed' : `missed: ${missed.join(', ')}`,
      goal: 'none missed',
      pass: missed.length === 0,
    });
    measurements.qr = { frames: QR_FRAMES, zxingMs, jsqrMs, found, missed };

    const streamedMs: number[] = [];
    const oneShotMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const a = await page.evaluate(
        ([n, p]) => window.bench.streamedSha256(n ?? 0, p ?? 0),
        [HASH_BYTES, MB],
      );
      const b = await page.evaluate((n) => window.bench.webCryptoSha256(n), HASH_BYTES);
      if (a.digest !== b.digest) throw new Error('the streamed and one-shot digests differ');
      streamedMs.push(a.ms);
      oneShotMs.push(b.ms);
    }
    ratioRow(
      'SHA-256 streamed in 1 MiB parts (worker) ÷ one-shot WebCrypto, throughput',
      streamedMs.map((ms, r) => (oneShotMs[r] as number) / ms),
      0.7,
      '64 MiB',
    );
    measurements.sha256 = { bytes: HASH_BYTES, streamedMs, oneShotMs };
  } finally {
    await browser.close();
    await vite.close();
  }
}

// ---- Uploads on loopback ---------------------------------------------------------------------

interface Session {
  baseUrl: string;
  token: string;
  lineId: string;
}

async function operatorSession(server: BenchServer): Promise<Session> {
  const login = await fetch(`${server.baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'operator@example.com', password: 'demo-password' }),
  });
  const { token } = (await login.json()) as { token: string };
  const lines = (await (
    await fetch(`${server.baseUrl}/api/my/lines`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { line: { _id: string; status: string } }[];
  const line = lines.find((l) => l.line.status === 'active');
  if (!line) throw new Error('the demo operator has no active line');
  return { baseUrl: server.baseUrl, token, lineId: line.line._id };
}

let uploadsMade = 0;

/**
 * An upload of the file with its last bytes made unique (and hashed again, outside the timing):
 * the server refuses a file already stored as another video's.
 */
async function tusUpload(session: Session, original: Buffer): Promise<number> {
  const file = Buffer.from(original);
  file.writeUInt32BE(++uploadsMade, file.length - 4);
  const sha256 = createHash('sha256').update(file).digest('hex');
  const created = await fetch(`${session.baseUrl}/api/inspections`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      clientRef: crypto.randomUUID(),
      lineClearanceId: session.lineId,
      productLeaving: 'P',
      batchLeaving: 'B',
      productComing: 'P2',
      batchComing: 'B2',
      startTime: new Date(Date.now() - 60_000).toISOString(),
      endTime: new Date().toISOString(),
      video: { container: 'webm', duration: 60 },
    }),
  });
  const { videoId } = (await created.json()) as { videoId: string };
  const start = performance.now();
  await new Promise<void>((resolve, reject) => {
    new Upload(file, {
      endpoint: `${session.baseUrl}/api/uploads`,
      chunkSize: uploadChunkBytes(file.length),
      retryDelays: [],
      headers: { authorization: `Bearer ${session.token}` },
      metadata: { videoId, sha256, filetype: 'video/webm', filename: 'bench.webm' },
      onSuccess: () => resolve(),
      onError: reject,
    }).start();
  });
  return performance.now() - start;
}

async function plainPut(port: number, file: Buffer, sha256: string): Promise<number> {
  const start = performance.now();
  const answer = await new Promise<string>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path: '/file',
        headers: { 'content-length': file.length },
      },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => resolve(Buffer.concat(parts).toString()));
      },
    );
    request.on('error', reject);
    request.end(file);
  });
  if ((JSON.parse(answer) as { sha256: string }).sha256 !== sha256) {
    throw new Error('the plain PUT stored other bytes');
  }
  return performance.now() - start;
}

async function startPlainPut(dir: string): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/capture/plain-put-server.ts', dir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => reject(new Error('the plain PUT server exited')));
  });
  return { port, child };
}

/** Peak resident memory of a process so far (Linux VmHWM), in MiB. */
const peakMiB = (pid: number) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

function videoBytes(size: number): { file: Buffer; sha256: string } {
  const file = randomBytes(size);
  file.writeUInt32BE(0x1a45dfa3, 0);
  return { file, sha256: createHash('sha256').update(file).digest('hex') };
}

async function uploadTargets(distDir: string) {
  const big = videoBytes(UPLOAD_MB * MB);
  const small = videoBytes(Math.round((UPLOAD_MB / 10) * MB));
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'lc-bench-put-'));
  const plain = await startPlainPut(scratch);
  const peaks: Record<string, number> = {};
  const tusMs: number[] = [];
  const putMs: number[] = [];
  try {
    // Peak memory: a fresh server for each size, one upload, then its high-water mark.
    for (const [name, upload] of [
      ['small', small],
      ['big', big],
    ] as const) {
      const data = await createBenchData([], distDir, () => {});
      const server = await startBenchServer(data.env);
      try {
        await tusUpload(await operatorSession(server), upload.file);
        peaks[name] = peakMiB(server.pid);
        if (name === 'big') {
          const session = await operatorSession(server);
          for (let round = 0; round < ROUNDS; round++) {
            if (round % 2 === 0) {
              tusMs.push(await tusUpload(session, big.file));
              putMs.push(await plainPut(plain.port, big.file, big.sha256));
            } else {
              putMs.push(await plainPut(plain.port, big.file, big.sha256));
              tusMs.push(await tusUpload(session, big.file));
            }
          }
        }
      } finally {
        await server.stop();
        await data.remove();
      }
    }
  } finally {
    plain.child.kill('SIGTERM');
    rmSync(scratch, { recursive: true, force: true });
  }
  ratioRow(
    'upload on loopback: tus (verified) throughput ÷ one plain PUT',
    tusMs.map((ms, r) => (putMs[r] as number) / ms),
    0.7,
    `${UPLOAD_MB} MB`,
  );
  const ratio = (peaks.big ?? 0) / (peaks.small ?? 1);
  rows.push({
    target: `server peak memory: ${UPLOAD_MB} MB upload ÷ ${UPLOAD_MB / 10} MB upload (VmHWM)`,
    size: `${Math.round(peaks.big ?? 0)} / ${Math.round(peaks.small ?? 0)} MiB`,
    value: ratio,
    spread: null,
    measured: `${ratio.toFixed(2)}×`,
    goal: '≤ 1.2×',
    pass: ratio <= 1.2,
  });
  measurements.upload = { bytes: big.file.length, tusMs, putMs, peakMiB: peaks };
}

// ---- Recording with the fake camera ----------------------------------------------------------

async function jsHeapAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  await cdp.detach();
  return usedSize;
}

async function recordingTarget(distDir: string) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'lc-bench-camera-'));
  const y4m = path.join(folder, 'tags.y4m');
  writeQrY4m(
    y4m,
    Array.from({ length: 8 }, (_, i) => `LC1-TAG-0${i + 1}`),
  );
  const data = await createBenchData([], distDir, () => {});
  const server = await startBenchServer(data.env);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      ...chromiumArgs,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${y4m}`,
    ],
  });
  try {
    const session = await operatorSession(server);
    const context = await newContext(browser, { baseUrl: server.baseUrl, token: session.token });
    await context.grantPermissions(['camera']);
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/inspection/${session.lineId}`);
    for (const label of [
      'Product leaving the line',
      'Batch leaving the line',
      'Product coming next',
      'Batch coming next',
    ]) {
      await page.getByLabel(label).fill('bench');
    }
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await page.getByRole('button', { name: 'Record' }).click({ timeout: 60_000 });
    const started = Date.now();
    const heap: { seconds: number; bytes: number }[] = [];
    for (let interval = 1; interval <= RECORD_INTERVALS; interval++) {
      const seconds = interval * HEAP_INTERVAL_S;
      await sleep(started + seconds * 1000 - Date.now());
      heap.push({ seconds, bytes: await jsHeapAfterGc(page) });
      console.log(
        `recording: ${duration(seconds)}, JS heap ${(heap.at(-1)!.bytes / MB).toFixed(1)} MiB`,
      );
    }
    await page.getByRole('button', { name: 'Stop' }).click();
    const size = await page
      .locator('.capture-summary')
      .textContent({ timeout: 120_000 })
      .catch(() => '');
    const first = heap[0]?.bytes ?? 1;
    const last = heap.at(-1)?.bytes ?? 0;
    rows.push({
      target: `recording: JS heap after ${duration(RECORD_INTERVALS * HEAP_INTERVAL_S)} ÷ after ${duration(HEAP_INTERVAL_S)}`,
      size: `${(last / MB).toFixed(1)} / ${(first / MB).toFixed(1)} MiB`,
      value: last / first,
      spread: null,
      measured: `${(last / first).toFixed(2)}×`,
      goal: '≤ 1.2×',
      pass: last / first <= 1.2,
    });
    measurements.recording = { intervalSeconds: HEAP_INTERVAL_S, heap, summary: size };
  } finally {
    await browser.close();
    await server.stop();
    await data.remove();
    rmSync(folder, { recursive: true, force: true });
  }
}

async function main() {
  const distDir = await webBuild();
  if (parts.has('browser')) {
    console.log('QR decoding and SHA-256 in Chromium…');
    await browserTargets();
  }
  if (parts.has('upload')) {
    console.log(`Uploads of ${UPLOAD_MB} MB on loopback…`);
    await uploadTargets(distDir);
  }
  if (parts.has('recording')) {
    console.log(
      `Recording with the fake camera for ${duration(RECORD_INTERVALS * HEAP_INTERVAL_S)}…`,
    );
    await recordingTarget(distDir);
  }
  await run.finish(rows, { measurements });
}

declare global {
  interface Window {
    bench: typeof import('./capture/page.ts').benchApi;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
