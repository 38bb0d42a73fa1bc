// Analysis pipeline benchmark (issue 20 §6). Prints a table and writes bench/results/analysis.json.
// Run: node --import tsx bench/analysis.bench.ts (part of npm run bench; under the machine lock).
//
// - A 10-minute 720p30 H.264 recording (made once with ffmpeg, cached in the temp folder) analysed
//   end to end (probe, keyframes at 1 s, path, detector none): wall time against the video's length,
//   and the keyframe step against a bare `ffmpeg -vf fps=1,scale=…` extraction of the same frames
//   run in the same rounds.
// - Path accuracy on simulated walks (one seed a round) against straight lines between the anchors.
// - The tiny ONNX model's time per keyframe (info), job overhead on PGlite and PostgreSQL (info).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { runFfmpeg, locateFfmpeg } from '../server/analysis/ffmpeg.ts';
import { createOnnxDetector } from '../server/analysis/detectors/onnx-detector.ts';
import { analysisJobs } from '../server/db/schema.ts';
import { createLine, createRecordedInspection, jobsOf } from '../server/test/analysis-fixtures.ts';
import { build, type TestApp } from '../server/test/build.ts';
import { createUser } from '../server/test/fixtures.ts';
import { makeTestVideo } from '../tests/support/test-video.ts';
import { pathError, simulateWalk } from '../tests/support/simulated-walk.ts';
import { tinyYoloModel } from '../tests/support/tiny-onnx.ts';
import { interpolateAnchors, reconstructPath } from '../workers/path-reconstruction.ts';
import { medianRow, type TargetRow } from './lib/report.ts';
import { quickRun, startBenchRun } from './lib/results.ts';
import { spread } from './lib/stats.ts';

const run = startBenchRun('analysis');
// BENCH_QUICK: one round on a 20-second recording, only to prove the bench still runs.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quickRun ? 1 : 3));
const VIDEO_SECONDS = Number(process.env.BENCH_VIDEO_SECONDS ?? (quickRun ? 20 : 600));
const cacheDir = path.join(os.tmpdir(), 'lc-bench-analysis');
const ffmpeg = locateFfmpeg(process.env.FFMPEG_PATH ?? null);

function row(
  target: string,
  samples: number[],
  unit: string,
  goal: string,
  pass: ((median: number) => boolean) | null,
  size = '',
): TargetRow {
  return medianRow(target, size, spread(samples), unit, goal, pass);
}

/** An operator, Blister Line 1 and a walk of `laps` rounds recorded on `file`; queued. */
async function recordedWalk(t: TestApp, file: string, laps: number, seed: number) {
  const operator = await createUser(t, `operator-${seed}-${Date.now()}`, ['operator']);
  const lineId = await createLine(t, null, operator.id);
  const walk = simulateWalk({ seed, laps });
  const { videoId } = await createRecordedInspection(t, {
    lineId,
    operatorId: operator.id,
    file,
    walk,
  });
  return videoId;
}

async function analyse(t: TestApp, videoId: string) {
  const start = performance.now();
  await t.services.ctx.analysis.enqueue(videoId, null);
  const [job] = await jobsOf(t, videoId);
  const done = await t.services.ctx.analysis.settled(job?.id ?? '', 60 * 60_000);
  if (done.state !== 'completed') throw new Error(`analysis failed: ${done.error}`);
  return { wallMs: performance.now() - start, job: done };
}

async function pipelineRows(): Promise<TargetRow[]> {
  fs.mkdirSync(cacheDir, { recursive: true });
  console.log(`making (or reusing) a ${VIDEO_SECONDS} s 720p30 recording…`);
  const file = makeTestVideo(VIDEO_SECONDS, { width: 1280, height: 720, fps: 30, dir: cacheDir });
  const t = await build({ ANALYSIS_POLL_MS: '50' }, { postgresUrl: null });
  const wall: number[] = [];
  const keyframeStep: number[] = [];
  const bare: number[] = [];
  const stepRatio: number[] = [];
  try {
    await t.services.ctx.analysis.start(t.services.ctx.dbKind);
    const laps = Math.max(1, Math.round(VIDEO_SECONDS / 78));
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which contender goes first, so drift spreads evenly.
      const bareFirst = round % 2 === 1;
      const bareRun = async () => {
        const out = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-bench-bare-'));
        const start = performance.now();
        const { code } = await runFfmpeg(ffmpeg, [
          '-i',
          file,
          '-map',
          '0:v:0',
          '-an',
          '-vf',
          "fps=1,scale='min(640,iw)':-2",
          '-f',
          'image2',
          path.join(out, '%06d.png'),
        ]);
        const ms = performance.now() - start;
        fs.rmSync(out, { recursive: true, force: true });
        if (code !== 0) throw new Error('bare ffmpeg failed');
        return ms;
      };
      let bareMs = bareFirst ? await bareRun() : 0;
      const videoId = await recordedWalk(t, file, laps, 100 + round);
      const { wallMs, job } = await analyse(t, videoId);
      if (!bareFirst) bareMs = await bareRun();
      const keyframesMs = job.summary?.stepMs.keyframes ?? Number.NaN;
      wall.push(wallMs / 1000 / VIDEO_SECONDS);
      keyframeStep.push(keyframesMs);
      bare.push(bareMs);
      stepRatio.push(keyframesMs / bareMs);
      console.log(
        `round ${round + 1}: analysis ${(wallMs / 1000).toFixed(1)} s (keyframes ${(keyframesMs / 1000).toFixed(1)} s, ` +
          `${job.summary?.keyframeImages} images), bare ffmpeg ${(bareMs / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await t.close();
  }
  return [
    row(
      'analysis wall time ÷ video duration (720p30, detector none)',
      wall,
      '×',
      '≤ 0.5×',
      (m) => m <= 0.5,
      `${VIDEO_SECONDS} s`,
    ),
    row(
      'keyframe step ÷ bare ffmpeg extraction',
      stepRatio,
      '×',
      '≤ 1.5×',
      (m) => m <= 1.5,
      `${VIDEO_SECONDS} s`,
    ),
    row(
      'keyframe step (info)',
      keyframeStep.map((ms) => ms / 1000),
      ' s',
      'info',
      null,
    ),
    row(
      'bare ffmpeg extraction (info)',
      bare.map((ms) => ms / 1000),
      ' s',
      'info',
      null,
    ),
  ];
}

function accuracyRows(): TargetRow[] {
  const seeds = [3, 11, 29, 47, 83, 101, 131];
  const mean: number[] = [];
  const p95: number[] = [];
  const ratio: number[] = [];
  const noMotion: number[] = [];
  for (const seed of seeds) {
    const walk = simulateWalk({ seed });
    const options = { duration: walk.duration, interval: 0.1 };
    const result = reconstructPath(walk.anchors, walk.motion, options);
    if (!result.ok || result.method !== 'motion')
      throw new Error(`seed ${seed}: motion path not made`);
    const error = pathError(walk, result);
    const straight = pathError(walk, {
      t: result.t,
      ...interpolateAnchors(walk.anchors, result.t),
    });
    const interpolated = reconstructPath(walk.anchors, null, options);
    if (!interpolated.ok) throw new Error(interpolated.reason);
    mean.push(error.mean);
    p95.push(error.p95);
    ratio.push(error.mean / straight.mean);
    noMotion.push(pathError(walk, interpolated).mean);
  }
  const size = `${seeds.length} walks`;
  return [
    row('path mean error, with motion', mean, ' m', '≤ 0.5 m', (m) => m <= 0.5, size),
    row('path 95th-percentile error, with motion', p95, ' m', '≤ 1.0 m', (m) => m <= 1.0, size),
    row(
      'path mean error ÷ straight lines between anchors',
      ratio,
      '×',
      '≤ 0.5×',
      (m) => m <= 0.5,
      size,
    ),
    row('path mean error, no motion samples (info)', noMotion, ' m', 'info', null, size),
  ];
}

async function onnxRow(): Promise<TargetRow> {
  // A YOLOv8n-shaped output (80 classes, 8400 anchors, 640 input), almost all under the threshold.
  const anchors = 8400;
  const output = Array.from({ length: 84 }, (_, c) =>
    Array.from({ length: anchors }, (_, a) =>
      c < 4 ? ([320, 320, 40, 40][c] ?? 0) : a % 997 === 0 && c === 4 + (a % 80) ? 0.9 : 0.01,
    ),
  );
  const model = path.join(cacheDir, 'yolo-shaped.onnx');
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(model, tinyYoloModel({ inputSize: 640, output, names: [] }));
  const detector = await createOnnxDetector(
    { model, labels: null, threshold: 0.25, iouThreshold: 0.45 },
    () => ffmpeg,
  );
  const frames = path.join(cacheDir, 'frames');
  fs.mkdirSync(frames, { recursive: true });
  const source = makeTestVideo(20, { width: 1280, height: 720, fps: 30, dir: cacheDir });
  await runFfmpeg(ffmpeg, [
    '-i',
    source,
    '-vf',
    "fps=1,scale='min(640,iw)':-2",
    '-y',
    path.join(frames, '%03d.png'),
  ]);
  const signal = new AbortController().signal;
  const samples: number[] = [];
  for (const name of fs.readdirSync(frames)) {
    const start = performance.now();
    await detector.detect(
      { filename: name, file: path.join(frames, name), width: 640, height: 360 },
      signal,
    );
    samples.push(performance.now() - start);
  }
  await detector.close();
  return row(
    'ONNX detector per 640×360 keyframe, YOLOv8n-shaped output (info)',
    samples.slice(1),
    ' ms',
    'info',
    null,
    `${samples.length - 1} frames`,
  );
}

async function overheadRows(
  database: 'PGlite' | 'PostgreSQL',
  postgresUrl: string | null,
): Promise<TargetRow[]> {
  const t = await build({ ANALYSIS_POLL_MS: '50' }, { postgresUrl });
  const toClaim: number[] = [];
  const toStep: number[] = [];
  try {
    await t.services.ctx.analysis.start(t.services.ctx.dbKind);
    const file = makeTestVideo(1, { dir: cacheDir });
    for (let i = 0; i < Math.max(5, ROUNDS * 3); i++) {
      const videoId = await recordedWalk(t, file, 1, i);
      const { job } = await analyse(t, videoId);
      const [row] = await t.services.ctx.db
        .select()
        .from(analysisJobs)
        .where(eq(analysisJobs.id, job.id));
      if (!row?.startedAt) throw new Error('job without a start time');
      toClaim.push(row.startedAt.getTime() - row.createdAt.getTime());
      toStep.push(row.summary?.stepMs.start ?? Number.NaN);
    }
  } finally {
    await t.close();
  }
  return [
    row(`job overhead: enqueue → claimed, ${database} (info)`, toClaim, ' ms', 'info', null),
    row(`job overhead: claimed → first step, ${database} (info)`, toStep, ' ms', 'info', null),
  ];
}

async function main() {
  const rows: TargetRow[] = [];
  rows.push(...accuracyRows());
  rows.push(...(await pipelineRows()));
  rows.push(await onnxRow());
  rows.push(...(await overheadRows('PGlite', null)));
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? null;
  if (postgresUrl) rows.push(...(await overheadRows('PostgreSQL', postgresUrl)));
  else console.log('no BENCH_DATABASE_URL / TEST_DATABASE_URL: PostgreSQL overhead not measured');
  await run.finish(rows, { videoSeconds: VIDEO_SECONDS, rounds: ROUNDS });
}

await main();
