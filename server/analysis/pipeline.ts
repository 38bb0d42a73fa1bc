// One run of the analysis of one video (docs/analysis.md): probe → keyframe images → path →
// detections. Everything it writes goes under a prefix of its own (one per attempt); the runner
// makes it the video's in one fenced transaction (outputs.ts), so a rerun or a crash never leaves
// half of a result visible.
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline as pipe } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import {
  checkAnchors,
  type PathResult,
  reconstructPath,
} from '../../workers/path-reconstruction.ts';
import type { AnalysisConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { captures, floorplanConfigs, inspections, videos } from '../db/schema.ts';
import type { AnalysisStep, AnalysisSummary, VideoCalibration } from '../schemas/analysis.ts';
import type { Storage } from '../storage/storage.ts';
import { anchorsFor, calibrationFor, type PlanScale } from './anchors.ts';
import type { Detector } from './detectors/detector.ts';
import { extractKeyframes, NotAVideoError, type ProbeResult, probe } from './ffmpeg.ts';
import type { JobRow } from './job-queue.ts';
import { makeWorkFolder } from './work-folders.ts';

/** Path points per second in the keyframes text (the keyframe image times are added). */
export const PATH_INTERVAL_S = 0.1;

/** A failure no retry can fix (not a video, bad capture data): the job fails at once. */
export class PermanentError extends Error {}

/**
 * A run that could make no path for a video that has one (results ingested from an external SLAM,
 * or from an earlier run on capture data since lost): it fails before doing any work and the video
 * keeps its results, since replacing them would silently drop the path (docs/analysis.md).
 */
export class PathWouldBeLostError extends PermanentError {
  constructor(reason: string) {
    super(
      `${reason}; this run replaced nothing: the video keeps its earlier path, keyframe images and detections`,
    );
  }
}

export interface PipelineDeps {
  db: Db;
  storage: Storage;
  config: AnalysisConfig;
  ffmpeg: () => string;
  detector: Detector;
  /** performance.now() when the job was claimed: the summary reports the time to the first step. */
  claimedAt?: number;
}

export interface PredictionOut {
  filename: string;
  classLabels: string[];
  confs: number[];
  boxesNormalized: number[][];
}

/** What a successful run produced; the files are already stored under `prefix`. */
export interface RunOutputs {
  prefix: string;
  keyframesKey: string | null;
  imagesPrefix: string;
  calibration: VideoCalibration | null;
  /** Null when the detector makes none (`none`). */
  predictions: PredictionOut[] | null;
  /** Why there is no path (also the video's status reason), else null. */
  noPathReason: string | null;
  duration: number;
  summary: AnalysisSummary;
}

export type Report = (step: AnalysisStep, progress: number) => Promise<void>;

/** The storage prefix of one attempt of one job. */
export const runPrefix = (job: Pick<JobRow, 'id' | 'videoId' | 'attempts'>) =>
  `analysis/${job.videoId}/${job.id}-${job.attempts}`;

export const keyframeName = (time: number) => `${time.toFixed(3)}.png`;

export async function runPipeline(
  deps: PipelineDeps,
  job: JobRow,
  signal: AbortSignal,
  report: Report,
): Promise<RunOutputs> {
  const { db, storage, config } = deps;
  const [video] = await db.select().from(videos).where(eq(videos.id, job.videoId));
  if (!video) throw new PermanentError('the video was deleted');
  const prefix = runPrefix(job);
  const stepMs: Record<string, number> = {};
  let stepStart = performance.now();
  const step = async (name: AnalysisStep, progress: number) => {
    const now = performance.now();
    await report(name, progress);
    stepStart = now;
  };
  const done = (name: AnalysisStep) => {
    stepMs[name] = Math.round(performance.now() - stepStart);
  };

  const capture = await readCapture(db, video.id, video.lineClearanceId);
  const cannotPlace = noPathReason(capture.anchors);
  if (cannotPlace && video.keyframesKey) throw new PathWouldBeLostError(cannotPlace);

  const work = await makeWorkFolder(job);
  try {
    if (deps.claimedAt !== undefined) stepMs.start = Math.round(performance.now() - deps.claimedAt);
    await step('probe', 0.02);
    const input = path.join(work, `input${path.extname(video.storageKey)}`);
    if (!(await storage.stat(video.storageKey))) {
      throw new PermanentError('the video file is missing from storage');
    }
    await pipe(storage.read(video.storageKey), createWriteStream(input), { signal });
    const ffmpeg = deps.ffmpeg();
    let probed: ProbeResult;
    try {
      probed = await probe(ffmpeg, input, signal);
    } catch (error) {
      if (error instanceof NotAVideoError) throw new PermanentError(error.message);
      throw error;
    }
    done('probe');

    const scanTimes = capture.scanTimes.filter((t) => t <= probed.duration);

    await step('keyframes', 0.1);
    const framesDir = path.join(work, 'frames');
    let lastReport = performance.now();
    await fs.mkdir(framesDir);
    const frames = await extractKeyframes(
      ffmpeg,
      input,
      framesDir,
      config.keyframeInterval,
      scanTimes,
      signal,
      // Live progress for /analysis, at most every 2 s (each report is a database write).
      (time) => {
        const now = performance.now();
        if (now - lastReport < 2000) return;
        lastReport = now;
        void report('keyframes', 0.1 + 0.5 * Math.min(1, time / probed.duration)).catch(() => {});
      },
    );
    if (frames.length === 0) throw new PermanentError('no frame of the video could be decoded');
    const imagesPrefix = `${prefix}/images`;
    const byName = new Map<string, { time: number; file: string }>();
    for (const frame of frames) {
      const name = keyframeName(frame.time);
      if (byName.has(name)) continue;
      byName.set(name, frame);
      await storage.put(`${imagesPrefix}/${name}`, await fs.readFile(frame.file));
    }
    done('keyframes');

    await step('path', 0.6);
    let pathResult: PathResult;
    if (typeof capture.anchors === 'string') {
      pathResult = { ok: false, reason: capture.anchors };
    } else {
      pathResult = reconstructPath(capture.anchors, capture.motion, {
        duration: probed.duration,
        interval: PATH_INTERVAL_S,
        extraTimes: [...byName.values()].map((frame) => frame.time),
      });
    }
    let keyframesKey: string | null = null;
    let calibration: VideoCalibration | null = null;
    if (pathResult.ok && capture.scale && typeof capture.anchors !== 'string') {
      keyframesKey = `${prefix}/keyframes.txt`;
      await storage.put(keyframesKey, Buffer.from(keyframesText(pathResult, byName), 'utf8'));
      calibration = calibrationFor(capture.anchors, capture.scale);
    }
    done('path');

    await step('detections', 0.7);
    let predictions: PredictionOut[] | null = null;
    if (deps.detector.detects) {
      predictions = [];
      let n = 0;
      for (const [name, frame] of byName) {
        const found = await deps.detector.detect(
          { filename: name, file: frame.file, width: probed.width, height: probed.height },
          signal,
        );
        if (found.length > 0) {
          predictions.push({
            filename: name,
            classLabels: found.map((d) => d.label),
            confs: found.map((d) => d.conf),
            boxesNormalized: found.map((d) => d.box),
          });
        }
        n++;
        if (n % 10 === 0) await report('detections', 0.7 + (0.25 * n) / byName.size);
      }
    }
    done('detections');

    const noPathReason = pathResult.ok ? null : pathResult.reason;
    return {
      prefix,
      keyframesKey,
      imagesPrefix,
      calibration,
      predictions,
      noPathReason,
      duration: probed.duration,
      summary: {
        duration: probed.duration,
        container: probed.container,
        codec: probed.codec,
        width: probed.width,
        height: probed.height,
        keyframeImages: byName.size,
        anchors: typeof capture.anchors === 'string' ? 0 : capture.anchors.length,
        path: pathResult.ok ? pathResult.method : 'none',
        pathPoints: pathResult.ok ? pathResult.t.length : 0,
        pathNote: pathResult.ok ? pathResult.note : pathResult.reason,
        predictions: predictions?.length ?? null,
        detectorNote: deps.detector.detects
          ? null
          : 'no detector configured (DETECTOR=none): no detections were made',
        stepMs,
      },
    };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** The keyframes text (spec §3): index, x, y (metres), time; a keyframe image's name after it. */
export function keyframesText(
  result: Extract<PathResult, { ok: true }>,
  images: Map<string, { time: number }>,
): string {
  const names = new Map<number, string>();
  for (const [name, frame] of images) names.set(frame.time, name);
  const lines: string[] = [];
  for (let i = 0; i < result.t.length; i++) {
    const t = result.t[i] as number;
    const name = names.get(t);
    if (name !== undefined) names.delete(t);
    const x = (result.x[i] as number).toFixed(3);
    const y = (result.y[i] as number).toFixed(3);
    lines.push(`${i} ${x} ${y} ${t.toFixed(3)}${name ? ` ${name}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Why the capture can place no path (the path step's own anchor check), or null. */
function noPathReason(anchors: CaptureInput['anchors']): string | null {
  if (typeof anchors === 'string') return anchors;
  const checked = checkAnchors(anchors);
  return typeof checked === 'string' ? checked : null;
}

interface CaptureInput {
  anchors: ReturnType<typeof anchorsFor>;
  motion: Parameters<typeof reconstructPath>[1];
  scanTimes: number[];
  scale: PlanScale | null;
}

/** The inspection's scans and motion, and the line's plan scale, for one video. */
async function readCapture(db: Db, videoId: string, lineId: string | null): Promise<CaptureInput> {
  const [inspection] = await db
    .select({ id: inspections.id, checklist: inspections.checklist })
    .from(inspections)
    .where(eq(inspections.videoId, videoId));
  const [capture] = inspection
    ? await db.select().from(captures).where(eq(captures.inspectionId, inspection.id))
    : [];
  const [config] = lineId
    ? await db
        .select({ configuration: floorplanConfigs.configuration })
        .from(floorplanConfigs)
        .where(eq(floorplanConfigs.lineClearanceId, lineId))
    : [];
  const scans = capture?.scans ?? [];
  const configuration = config?.configuration ?? null;
  const scale: PlanScale | null = configuration
    ? {
        pixelsPerMeter: configuration.coordinateSystem.pixelsPerMeter ?? 50,
        imagePerDisplay:
          (configuration.coordinateSystem.sourceImageWidth ?? configuration.displaySize.width) /
          configuration.displaySize.width,
      }
    : null;
  return {
    anchors: !inspection
      ? 'the video belongs to no inspection, so there are no tag scans to place it: no path'
      : !scale
        ? 'the line has no floor-plan configuration to place the tags on: no path'
        : anchorsFor(scans, inspection.checklist, scale),
    motion: capture?.motion ?? null,
    scanTimes: scans.map((scan) => scan.videoTime),
    scale,
  };
}
