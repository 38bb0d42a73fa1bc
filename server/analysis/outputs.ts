// Makes a set of analysis results the video's in one transaction: keyframes text, keyframe images,
// calibration and predictions switch at once (from a pipeline run, fenced on the job's holder, or
// from the ingestion API). The files of the results they replace are removed after the commit.
// Reviewers' decisions on the replaced detections are never lost: one on a detection the new
// results hold unchanged moves to it, any other stays with the detection as it was (docs/reports.md).
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { analysisJobs, dispositions, inspections, predictions, videos } from '../db/schema.ts';
import { iso, newId } from '../ids.ts';
import type { DetectorInfo, VideoCalibration } from '../schemas/analysis.ts';
import type { DispositionKind } from '../schemas/reports.ts';
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

/** A reviewer's decision on a detection, as the trail names it. */
interface DecisionRef {
  inspectionId: string;
  predictionId: string;
  disposition: DispositionKind;
  reviewerId: string;
  reviewerName: string;
}

/** What became of the decisions on the replaced detections (the trail entry's `decisions`). */
export interface MovedDecisions {
  /** On a detection the new results hold unchanged: moved to its new prediction id (`to`). */
  carriedOver: (DecisionRef & { to: string })[];
  /** On a detection they do not hold: kept with that detection as it was. */
  replaced: (DecisionRef & { keyframe: string; labels: string[] })[];
}

/** The trail entry's part for the decisions, when there were any. */
export const decisionsEntry = ({ carriedOver, replaced }: MovedDecisions) =>
  carriedOver.length + replaced.length > 0 ? { decisions: { carriedOver, replaced } } : {};

/**
 * What the new results replaced: the files, the length the video had (the phone's, first), and
 * what became of the reviewers' decisions on the replaced detections.
 */
export interface ReplacedResults extends ReplacedFiles {
  duration: number;
  decisions: MovedDecisions;
}

interface DetectionFields {
  filename: string;
  classLabels: string[];
  confs: number[];
  boxesNormalized: number[][];
}

/** The same detection: the same keyframe file, labels, confidences and boxes. */
const sameDetection = (d: DetectionFields) =>
  JSON.stringify([d.filename, d.classLabels, d.confs, d.boxesNormalized]);

/** Replaces the video's results inside `tx`; answers what they replace (null: no video). */
export async function replaceResults(
  tx: Tx,
  videoId: string,
  results: AnalysisResults,
): Promise<ReplacedResults | null> {
  // The inspections first (as refuseIfSignedEvidence takes them): a decision being stored waits,
  // then lands on the new predictions, never on a deleted one without its detection kept.
  await tx
    .select({ id: inspections.id })
    .from(inspections)
    .where(eq(inspections.videoId, videoId))
    .for('update');
  const [old] = await tx
    .select({
      keyframesKey: videos.keyframesKey,
      imagesPrefix: videos.keyframeImagesPrefix,
      subfolder: videos.subfolder,
      duration: videos.duration,
      analysisVersion: videos.analysisVersion,
    })
    .from(videos)
    .where(eq(videos.id, videoId))
    .for('update');
  if (!old) return null;
  const decided = await tx
    .select({
      inspectionId: dispositions.inspectionId,
      predictionId: dispositions.predictionId,
      disposition: dispositions.disposition,
      reviewerId: dispositions.reviewerId,
      reviewerName: dispositions.reviewerName,
      filename: predictions.filename,
      subfolder: predictions.subfolder,
      classLabels: predictions.classLabels,
      confs: predictions.confs,
      boxesNormalized: predictions.boxesNormalized,
    })
    .from(dispositions)
    .innerJoin(predictions, eq(predictions.id, dispositions.predictionId))
    .where(eq(predictions.videoId, videoId))
    .orderBy(dispositions.inspectionId, dispositions.predictionId);
  await tx
    .update(videos)
    .set({
      status: 'completed',
      statusReason: results.statusReason,
      keyframesKey: results.keyframesKey,
      keyframeImagesPrefix: results.imagesPrefix,
      calibration: results.calibration,
      detector: results.detector,
      analysisVersion: results.analysisVersion,
      ...(results.duration !== undefined ? { duration: results.duration } : {}),
    })
    .where(eq(videos.id, videoId));
  await tx.delete(predictions).where(eq(predictions.videoId, videoId));
  const inserted = (results.predictions ?? []).map((p) => ({
    id: newId(),
    videoId,
    filename: p.filename,
    subfolder: old.subfolder,
    classLabels: p.classLabels,
    confs: p.confs,
    boxesNormalized: p.boxesNormalized,
    detector: results.detector,
  }));
  if (inserted.length > 0) await tx.insert(predictions).values(inserted);
  const moved = await moveDecisions(tx, decided, inserted, old.analysisVersion);
  return {
    keyframesKey: old.keyframesKey,
    imagesPrefix: old.imagesPrefix,
    duration: old.duration,
    decisions: moved,
  };
}

type DecidedRow = Omit<DecisionRef, 'disposition'> &
  DetectionFields & { disposition: string; subfolder: string };

/**
 * Moves each decision on a replaced detection to the same detection among the new predictions
 * (each new one takes at most one decision per inspection), else keeps the detection as it was
 * with the decision.
 */
async function moveDecisions(
  tx: Tx,
  decided: readonly DecidedRow[],
  inserted: readonly (DetectionFields & { id: string })[],
  analysisVersion: string | null,
): Promise<MovedDecisions> {
  const moved: MovedDecisions = { carriedOver: [], replaced: [] };
  if (decided.length === 0) return moved;
  const byDetection = new Map<string, (typeof inserted)[number][]>();
  for (const p of inserted) {
    const key = sameDetection(p);
    byDetection.set(key, [...(byDetection.get(key) ?? []), p]);
  }
  const taken = new Set<string>();
  const replacedAt = iso(new Date());
  for (const row of decided) {
    const ref: DecisionRef = {
      inspectionId: row.inspectionId,
      predictionId: row.predictionId,
      disposition: row.disposition as DispositionKind,
      reviewerId: row.reviewerId,
      reviewerName: row.reviewerName,
    };
    const same = byDetection
      .get(sameDetection(row))
      ?.find((p) => !taken.has(`${row.inspectionId}/${p.id}`));
    const which = and(
      eq(dispositions.inspectionId, row.inspectionId),
      eq(dispositions.predictionId, row.predictionId),
    );
    if (same) {
      taken.add(`${row.inspectionId}/${same.id}`);
      await tx.update(dispositions).set({ predictionId: same.id }).where(which);
      moved.carriedOver.push({ ...ref, to: same.id });
      continue;
    }
    const time = Number.parseFloat(row.filename);
    await tx
      .update(dispositions)
      .set({
        replaced: {
          filename: row.filename,
          subfolder: row.subfolder,
          labels: row.classLabels,
          confs: row.confs,
          boxes: row.boxesNormalized,
          time: Number.isFinite(time) ? time : null,
          analysisVersion,
          replacedAt,
        },
      })
      .where(which);
    moved.replaced.push({ ...ref, keyframe: row.filename, labels: row.classLabels });
  }
  return moved;
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
