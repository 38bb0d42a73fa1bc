// The demo records' histories (docs/demo-data.md, "The trail"): each step of a record is written
// as the product path that makes it writes it (the same rows, the same audit entry), dated when it
// would have happened. The loader collects every record's steps and writes them in time order, so
// the trail's ids (its chain order) and its times agree.
import { eq } from 'drizzle-orm';
import { type AnalysisResults, replaceResults } from '../analysis/outputs.ts';
import { audit } from '../audit/audit.ts';
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/client.ts';
import { captures, inspections, uploads, users, videos } from '../db/schema.ts';
import { readRecord } from '../reports/record.ts';
import { writeSigned } from '../reports/signing.ts';
import { toInspection } from '../routes/inspections.ts';
import type { CaptureData, ChecklistSnapshot } from '../schemas/capture.ts';
import type { SignatureMeaning } from '../schemas/signatures.ts';
import { checkCapture, NOT_UPLOADED_NOTE } from '../services/capture.ts';
import type { DemoCapture } from './dataset-types.ts';

/** One step of a record's history: its rows and its audit entry, written at `at`. */
export interface StoryStep {
  at: Date;
  write: (tx: Tx) => Promise<void>;
}

/** Who did a step, as `audit` takes it (a demo user, or nobody for the system's own steps). */
export type Actor = Parameters<typeof audit>[1];

/**
 * When each step happens after the inspection's submit, which the phone sends as the recording
 * ends, then attaches the capture and uploads the file (src/lib/capture/upload-queue.ts).
 */
export const AFTER_SUBMIT_MS = {
  capture: 1_000,
  uploadStart: 2_000,
  /** A 110–140 KB file received and hashed. */
  verified: 12_000,
  /** The external analysis posts its results a minute after the file is there. */
  analysed: 72_000,
  /** A reviewer signs 25 minutes after the inspection ended. */
  signed: 25 * 60_000,
} as const;

export const after = (from: Date, ms: number) => new Date(from.getTime() + ms);

/** The steps in time order; steps at the same time keep the order they were given in. */
export const inTimeOrder = (steps: StoryStep[]) =>
  [...steps].sort((a, b) => a.at.getTime() - b.at.getTime());

/** A video row as the operator's submit creates it, audited with the submit's note. */
export function submitVideo(row: typeof videos.$inferInsert, recorder: Actor, at: Date): StoryStep {
  return {
    at,
    write: async (tx) => {
      const [video] = await tx
        .insert(videos)
        .values({ ...row, createdAt: at })
        .returning();
      await audit(tx, recorder, {
        action: 'create',
        entity: 'video',
        entityId: row.id,
        newValue: { ...video, note: NOT_UPLOADED_NOTE },
        at,
      });
    },
  };
}

/** The tus upload that brought a demo video's file (server/services/video-uploads.ts). */
export interface DemoUpload {
  id: string;
  userId: string;
  size: number;
  sha256: string;
  container: 'webm' | 'mp4';
  /** The device's name for the file (its Upload-Metadata filename). */
  filename: string;
  /** Where the verified file is kept (`arrivedFileKey`): the loader stored it there. */
  fileKey: string;
}

/** Results made outside the server, switched in as `PUT /api/ingest/videos/{id}/analysis` does. */
export interface IngestedResults {
  results: AnalysisResults;
  /** Keyframes in its text, as the ingestion API counts them. */
  points: number;
  images: number;
}

/**
 * A video's file arriving by tus (upload.create; upload.complete and verify, in finish()), then
 * either its results ingested (analysis.ingest) or, with none, its analysis queued in the verify's
 * transaction (analysis.enqueue), as commitFile queues it.
 */
export function arrivalSteps(
  ctx: Pick<AppContext, 'analysis'>,
  videoId: string,
  upload: DemoUpload,
  ingested: IngestedResults | null,
  who: { recorder: Actor; ingester: Actor },
  submittedAt: Date,
): StoryStep[] {
  const started = after(submittedAt, AFTER_SUBMIT_MS.uploadStart);
  const verified = after(submittedAt, AFTER_SUBMIT_MS.verified);
  const { id, size, sha256 } = upload;
  const steps: StoryStep[] = [
    {
      at: started,
      write: async (tx) => {
        const [row] = await tx
          .insert(uploads)
          .values({
            id,
            videoId,
            userId: upload.userId,
            size,
            sha256,
            container: upload.container,
            storageKey: `uploads/${id}`,
            createdAt: started,
          })
          .returning();
        await audit(tx, who.recorder, {
          action: 'upload.create',
          entity: 'upload',
          entityId: id,
          newValue: { ...row, filename: upload.filename },
          at: started,
        });
      },
    },
    {
      at: verified,
      write: async (tx) => {
        await audit(tx, who.recorder, {
          action: 'upload.complete',
          entity: 'upload',
          entityId: id,
          newValue: { videoId, size, sha256 },
          at: verified,
        });
        const [video] = await tx.select().from(videos).where(eq(videos.id, videoId));
        await tx
          .update(videos)
          .set({ sha256, size, storageKey: upload.fileKey })
          .where(eq(videos.id, videoId));
        await tx.update(uploads).set({ status: 'verified' }).where(eq(uploads.id, id));
        await audit(tx, who.recorder, {
          action: 'verify',
          entity: 'video',
          entityId: videoId,
          oldValue: { sha256: video?.sha256, size: video?.size, storageKey: video?.storageKey },
          newValue: { sha256, size, storageKey: upload.fileKey, upload: id },
          at: verified,
        });
        if (!ingested) await enqueueAnalysis(ctx, tx, videoId, upload.userId, verified);
      },
    },
  ];
  if (ingested) steps.push(ingestStep(videoId, ingested, who.ingester, submittedAt));
  return steps;
}

/**
 * Queues the video's analysis with the entry `AnalysisService.enqueue` writes (its `auditJob`),
 * dated: the service's own entry can only be dated now.
 */
async function enqueueAnalysis(
  ctx: Pick<AppContext, 'analysis'>,
  tx: Tx,
  videoId: string,
  requestedBy: string | null,
  at: Date,
): Promise<void> {
  const job = await ctx.analysis.queue.enqueue(
    videoId,
    requestedBy,
    ctx.analysis.detector.info,
    tx,
  );
  if (!job) return;
  await audit(tx, null, {
    action: 'analysis.enqueue',
    entity: 'video',
    entityId: videoId,
    actorEmail: requestedBy ? null : 'analysis',
    newValue: {
      jobId: job.id,
      attempt: job.attempts,
      requestedBy: job.requestedBy,
      pipelineVersion: job.pipelineVersion,
      detector: job.detector,
    },
    at,
  });
}

function ingestStep(
  videoId: string,
  { results, points, images }: IngestedResults,
  ingester: Actor,
  submittedAt: Date,
): StoryStep {
  const at = after(submittedAt, AFTER_SUBMIT_MS.analysed);
  return {
    at,
    write: async (tx) => {
      const [video] = await tx.select().from(videos).where(eq(videos.id, videoId));
      await replaceResults(tx, videoId, results);
      await audit(tx, ingester, {
        action: 'analysis.ingest',
        entity: 'video',
        entityId: videoId,
        oldValue: {
          analysisVersion: video?.analysisVersion ?? null,
          keyframesKey: video?.keyframesKey ?? null,
        },
        newValue: {
          analysisVersion: results.analysisVersion,
          detector: results.detector,
          points,
          images,
          predictions: results.predictions?.length ?? 0,
          calibration: results.calibration,
        },
        at,
      });
    },
  };
}

/** A demo inspection: its row as submitted (pending), and what happened to it after. */
export interface PlannedInspection {
  row: Omit<typeof inspections.$inferInsert, 'checklist' | 'status'> & { id: string };
  /** Seconds of its recording: the capture's scans must lie within it. */
  duration: number;
  capture: DemoCapture | null;
  review: { signerId: string; meaning: SignatureMeaning; notes: string; at: Date } | null;
}

/**
 * The inspection's submit (`POST /api/inspections`: pending, with its line's checklist), its
 * capture (`PUT /api/inspections/{id}/capture`) and its signature (server/reports/signing.ts).
 */
export function inspectionSteps(
  ctx: Pick<AppContext, 'storage'>,
  inspection: PlannedInspection,
  checklist: ChecklistSnapshot | null,
  actor: (userId: string) => Actor,
  submittedAt: Date,
): StoryStep[] {
  const { row, capture, review } = inspection;
  const { id } = row;
  const operator = actor(row.operatorId);
  const steps: StoryStep[] = [
    {
      at: submittedAt,
      write: async (tx) => {
        const [created] = await tx
          .insert(inspections)
          .values({ ...row, status: 'pending', checklist, receivedAt: submittedAt })
          .returning();
        if (!created) throw new Error(`Demo dataset: inspection ${id} was not stored`);
        await audit(tx, operator, {
          action: 'create',
          entity: 'inspection',
          entityId: id,
          newValue: toInspection(created, null),
          at: submittedAt,
        });
      },
    },
  ];
  if (capture && checklist) {
    const at = after(submittedAt, AFTER_SUBMIT_MS.capture);
    steps.push({
      at,
      write: (tx) => attachCapture(tx, id, capture, checklist, inspection.duration, operator, at),
    });
  }
  if (review) {
    steps.push({ at: review.at, write: (tx) => sign(tx, ctx, id, review, actor(review.signerId)) });
  }
  return steps;
}

/** Scans get their tag from the checklist, checked and audited as the capture route does. */
async function attachCapture(
  tx: Tx,
  inspectionId: string,
  recorded: DemoCapture,
  checklist: ChecklistSnapshot,
  duration: number,
  operator: Actor,
  at: Date,
): Promise<void> {
  const data: CaptureData = checkCapture(
    { scans: recorded.scans.map((scan) => ({ ...scan, tagIndex: null })), motion: recorded.motion },
    checklist,
    duration,
  );
  await tx.insert(captures).values({ inspectionId, ...data });
  await audit(tx, operator, {
    action: 'attach',
    entity: 'capture',
    entityId: inspectionId,
    newValue: {
      scans: data.scans,
      motionSamples: data.motion?.t.length ?? 0,
      checkpointsScanned: new Set(data.scans.map((s) => s.tagIndex).filter((i) => i !== null)).size,
    },
    at,
  });
}

/**
 * The reviewer's e-signature as `signInspection` writes it: the signature over the record as it
 * stands, the inspection's review fields, and the approve/reject entry dated at its signedAt.
 */
async function sign(
  tx: Tx,
  ctx: Pick<AppContext, 'storage'>,
  inspectionId: string,
  review: NonNullable<PlannedInspection['review']>,
  signer: Actor,
): Promise<void> {
  const record = await readRecord(tx, inspectionId);
  const [user] = await tx.select().from(users).where(eq(users.id, review.signerId));
  if (!user) throw new Error(`Demo dataset: no signer ${review.signerId}`);
  const { meaning, notes, at: signedAt } = review;
  await writeSigned({ db: tx, storage: ctx.storage }, signer, record, {
    signer: { id: user.id, name: user.name, email: user.email },
    meaning,
    notes,
    signedAt,
  });
}
