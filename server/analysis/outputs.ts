// Makes a set of analysis results the video's in one transaction: keyframes text, keyframe images,
// calibration and predictions switch at once (from a pipeline run, fenced on the job's holder, or
// from the ingestion API). The files of the results they replace are removed after the commit.
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { analysisJobs, predictions, videos } from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { DetectorInfo, VideoCalibration } from '../schemas/analysis.ts';
import type { Storage } from '../storage/storage.ts';
import type { JobQueue, JobRow } from './job-queue.ts';
import type { PredictionOut, RunOutputs } from './pipeline.ts';

export interface AnalysisResults {
  keyframesKey: string | null;
  imagesPrefix: string | null;
  calibration: VideoCalibration | null;
  predictions: PredictionOut[] | null;
  detector: DetectorInfo | null;
  analysisVersion: string;
  statusReason: string | null;
  duration?: number;
}

export interface ReplacedFiles {
  keyframesKey: string | null;
  imagesPrefix: string | null;
}

/** What the new results replaced: the files, and the length the video had (the phone's, first). */
export interface ReplacedResults extends ReplacedFiles {
  duration: number;
}

/** Replaces the video's results inside `tx`; answers what they replace (null: no video). */
export async function replaceResults(
  tx: Tx,
  videoId: string,
  results: AnalysisResults,
): Promise<ReplacedResults | null> {
  const [old] = await tx
    .select({
      keyframesKey: videos.keyframesKey,
      imagesPrefix: videos.keyframeImagesPrefix,
      subfolder: videos.subfolder,
      duration: videos.duration,
    })
    .from(videos)
    .where(eq(videos.id, videoId))
    .for('update');
  if (!old) return null;
  await tx
    .update(videos)
    .set({
      status: 'completed',
      statusReason: results.statusReason,
      keyframesKey: results.keyframesKey,
      keyframeImagesPrefix: results.imagesPrefix,
      calibration: results.calibration,
      analysisVersion: results.analysisVersion,
      ...(results.duration !== undefined ? { duration: results.duration } : {}),
    })
    .where(eq(videos.id, videoId));
  await tx.delete(predictions).where(eq(predictions.videoId, videoId));
  if (results.predictions && results.predictions.length > 0) {
    await tx.insert(predictions).values(
      results.predictions.map((p) => ({
        id: newId(),
        videoId,
        filename: p.filename,
        subfolder: old.subfolder,
        classLabels: p.classLabels,
        confs: p.confs,
        boxesNormalized: p.boxesNormalized,
        detector: results.detector,
      })),
    );
  }
  return { keyframesKey: old.keyframesKey, imagesPrefix: old.imagesPrefix, duration: old.duration };
}

/** Removes the replaced files that the new results do not reuse. */
export async function removeReplaced(
  storage: Storage,
  old: ReplacedFiles,
  now: ReplacedFiles,
): Promise<void> {
  if (old.keyframesKey && old.keyframesKey !== now.keyframesKey) {
    await storage.delete(old.keyframesKey);
  }
  if (old.imagesPrefix && old.imagesPrefix !== now.imagesPrefix) {
    await storage.deletePrefix(old.imagesPrefix);
  }
}

/** Commits a pipeline run if the job is still this worker's; answers the replaced files. */
export async function commitRun(
  db: Db,
  queue: JobQueue,
  job: JobRow,
  worker: string,
  outputs: RunOutputs,
  auditEntry: (tx: Tx, replaced: ReplacedResults) => Promise<void>,
): Promise<ReplacedFiles | null> {
  return db.transaction(async (tx) => {
    const held = await tx
      .update(analysisJobs)
      .set({
        state: 'completed',
        step: null,
        progress: 1,
        error: null,
        summary: outputs.summary,
        lockedBy: null,
        lockedUntil: null,
        finishedAt: new Date(),
      })
      .where(queue.held(job, worker))
      .returning({ id: analysisJobs.id });
    if (held.length === 0) return null;
    const old = await replaceResults(tx, job.videoId, {
      keyframesKey: outputs.keyframesKey,
      imagesPrefix: outputs.imagesPrefix,
      calibration: outputs.calibration,
      predictions: outputs.predictions,
      detector: job.detector,
      analysisVersion: job.pipelineVersion,
      statusReason: outputs.noPathReason,
      duration: outputs.duration,
    });
    // Unreachable in practice: deleting a video deletes its jobs (cascade) first.
    if (!old) throw new Error('the video was deleted during the analysis');
    await auditEntry(tx, old);
    return old;
  });
}
