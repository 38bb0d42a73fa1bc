// The analysis job queue: rows in `analysis_jobs`, the same SQL on PGlite and PostgreSQL. A job is
// claimed with FOR UPDATE SKIP LOCKED (two processes never take the same row) and then held by a
// lease that the runner renews; a job whose holder died (kill -9, crash) is taken again once its
// lease runs out. Every write that ends a run is fenced on the holder, so a process that lost its
// lease can never commit over the process that took the job over. Here too: the guard that keeps
// a signed inspection's video and results as signed (runs, ingestion and deletion all use it).
import { and, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { analysisJobs, inspections, signatures, videos } from '../db/schema.ts';
import { HttpError } from '../http/errors.ts';
import { iso, newId } from '../ids.ts';
import type { AnalysisStep, DetectorInfo } from '../schemas/analysis.ts';

export type JobRow = typeof analysisJobs.$inferSelect;

/**
 * A change refused because the video is the evidence of a signed inspection (409): the signature's
 * record hash covers the video and its analysis, and dispositions name its predictions.
 */
export class SignedEvidenceError extends HttpError {
  constructor(message: string) {
    super(409, message);
    this.name = 'SignedEvidenceError';
  }
}

/**
 * Throws SignedEvidenceError, ending in `consequence`, when an approved or rejected inspection was
 * recorded on the video. It locks the video's inspections, so in a transaction a signature already
 * being written (its row updated or its signature inserted) is waited for, then seen.
 */
export async function refuseIfSignedEvidence(
  db: Db | Tx,
  videoId: string,
  consequence: string,
): Promise<void> {
  // Filtered after the lock: a WHERE on the status would skip a row whose signing is in flight.
  const rows = await db
    .select({
      status: inspections.status,
      reviewedAt: inspections.reviewedAt,
      meaning: signatures.meaning,
      signedAt: signatures.signedAt,
    })
    .from(inspections)
    .leftJoin(signatures, eq(signatures.inspectionId, inspections.id))
    .where(eq(inspections.videoId, videoId))
    .for('update', { of: inspections });
  const signed = rows.find((row) => row.meaning !== null || row.status !== 'pending');
  if (!signed) return;
  const how = signedAs(signed.meaning ?? signed.status, signed.signedAt ?? signed.reviewedAt);
  throw new SignedEvidenceError(
    `The video is evidence of a signed inspection (${how}); ${consequence}`,
  );
}

/** 'approved 2026-11-26 14:03 UTC': a signature's meaning and time in a refusal's words. */
export function signedAs(meaning: string, at: Date | null): string {
  return at ? `${meaning} ${iso(at).slice(0, 16).replace('T', ' ')} UTC` : meaning;
}

/** Runs `work`; a signed-evidence refusal from it is audited as a refusal, then answered (409). */
export async function auditSignedEvidence<T>(
  request: FastifyRequest,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // Outside `work`'s transaction: the refusal's entry commits although the change rolled back.
    if (error instanceof SignedEvidenceError) {
      await request.server.ctx.refusals.record(request, error.message, 'evidence.protected');
    }
    throw error;
  }
}

export interface QueueOptions {
  maxAttempts: number;
  leaseSeconds: number;
  /** First retry delay; each further retry doubles it. */
  retryBaseSeconds: number;
  pipelineVersion: string;
}

export class JobQueue {
  constructor(
    private readonly db: Db,
    private readonly options: QueueOptions,
    /** Called after any change of a video's status (read caches must forget it). */
    private readonly onVideoChange: () => void,
  ) {}

  /**
   * Queues a job for the video unless one is already queued or running (then answers null).
   * The video goes back to `pending` (the caller invalidates read caches after its commit).
   */
  async enqueue(
    videoId: string,
    requestedBy: string | null,
    detector: DetectorInfo,
    tx: Db | Tx = this.db,
  ): Promise<JobRow | null> {
    const [job] = await tx
      .insert(analysisJobs)
      .values({
        id: newId(),
        videoId,
        requestedBy,
        maxAttempts: this.options.maxAttempts,
        pipelineVersion: this.options.pipelineVersion,
        detector,
      })
      .onConflictDoNothing()
      .returning();
    if (!job) return null;
    await tx
      .update(videos)
      .set({ status: 'pending', statusReason: null })
      .where(eq(videos.id, videoId));
    return job;
  }

  /**
   * Takes the oldest runnable job (queued and due, or running with an expired lease) for `worker`,
   * counts the attempt and sets the video to `processing`. Null when nothing is runnable.
   */
  async claim(worker: string): Promise<JobRow | null> {
    const lease = this.options.leaseSeconds;
    const job = await this.db.transaction(async (tx) => {
      const [next] = await tx
        .select({ id: analysisJobs.id })
        .from(analysisJobs)
        .where(
          or(
            and(eq(analysisJobs.state, 'queued'), lte(analysisJobs.runAfter, sql`now()`)),
            and(eq(analysisJobs.state, 'running'), lt(analysisJobs.lockedUntil, sql`now()`)),
          ),
        )
        .orderBy(analysisJobs.runAfter, analysisJobs.createdAt)
        .limit(1)
        .for('update', { skipLocked: true });
      const id = next?.id;
      if (!id) return null;
      const [claimed] = await tx
        .update(analysisJobs)
        .set({
          state: 'running',
          step: null,
          progress: 0,
          lockedBy: worker,
          lockedUntil: sql`now() + make_interval(secs => ${lease})`,
          attempts: sql`${analysisJobs.attempts} + 1`,
          startedAt: sql`now()`,
        })
        .where(eq(analysisJobs.id, id))
        .returning();
      if (!claimed) return null;
      await tx
        .update(videos)
        .set({ status: 'processing', statusReason: null })
        .where(eq(videos.id, claimed.videoId));
      return claimed;
    });
    if (job) this.onVideoChange();
    return job;
  }

  /** Renews the lease and reports the step; false when the job is no longer this worker's. */
  async heartbeat(
    job: JobRow,
    worker: string,
    step?: AnalysisStep,
    progress?: number,
  ): Promise<boolean> {
    const rows = await this.db
      .update(analysisJobs)
      .set({
        lockedUntil: sql`now() + make_interval(secs => ${this.options.leaseSeconds})`,
        ...(step ? { step } : {}),
        ...(progress !== undefined ? { progress } : {}),
      })
      .where(this.held(job, worker))
      .returning({ id: analysisJobs.id });
    return rows.length > 0;
  }

  /** The fence: this job, still running, still held by this worker. */
  held(job: JobRow, worker: string) {
    return and(
      eq(analysisJobs.id, job.id),
      eq(analysisJobs.state, 'running'),
      eq(analysisJobs.lockedBy, worker),
    );
  }

  /**
   * Ends a failed attempt: back to `queued` with a growing delay while attempts remain, else
   * `failed`, the video in `error` with the reason. False when the job was no longer held.
   * `keepResults`: the video's earlier results stand (a signed record's), so it stays `completed`
   * if it has any.
   */
  async fail(
    job: JobRow,
    worker: string,
    reason: string,
    retryable: boolean,
    write?: (tx: Tx, final: boolean) => Promise<void>,
    keepResults = false,
  ): Promise<'failed' | 'retrying' | null> {
    const final = !retryable || job.attempts >= job.maxAttempts;
    const delay = this.options.retryBaseSeconds * 2 ** Math.max(0, job.attempts - 1);
    const ok = await this.db.transaction(async (tx) => {
      const rows = await tx
        .update(analysisJobs)
        .set({
          state: final ? 'failed' : 'queued',
          error: reason,
          lockedBy: null,
          lockedUntil: null,
          finishedAt: final ? sql`now()` : null,
          runAfter: final ? sql`now()` : sql`now() + make_interval(secs => ${delay})`,
        })
        .where(this.held(job, worker))
        .returning({ id: analysisJobs.id });
      if (rows.length === 0) return false;
      await tx
        .update(videos)
        .set(
          !final
            ? { status: 'pending', statusReason: `retrying: ${reason}` }
            : keepResults
              ? {
                  status: sql`case when ${videos.analysisVersion} is null then 'error' else 'completed' end`,
                  statusReason: reason,
                }
              : { status: 'error', statusReason: reason },
        )
        .where(eq(videos.id, job.videoId));
      await write?.(tx, final);
      return true;
    });
    if (!ok) return null;
    this.onVideoChange();
    return final ? 'failed' : 'retrying';
  }

  /**
   * PGlite only (its lock file makes this the one process on the database): jobs left `running`
   * by a previous process are taken again at once instead of after their lease.
   */
  async releaseOrphans(): Promise<number> {
    const rows = await this.db
      .update(analysisJobs)
      .set({ state: 'queued', lockedBy: null, lockedUntil: null, runAfter: sql`now()` })
      .where(eq(analysisJobs.state, 'running'))
      .returning({ videoId: analysisJobs.videoId });
    if (rows.length > 0) {
      await this.db
        .update(videos)
        .set({ status: 'pending' })
        .where(
          inArray(
            videos.id,
            rows.map((row) => row.videoId),
          ),
        );
      this.onVideoChange();
    }
    return rows.length;
  }

  /** Hands a job back untouched (shutdown): queued again, the attempt not counted. */
  async release(job: JobRow, worker: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const rows = await tx
        .update(analysisJobs)
        .set({
          state: 'queued',
          lockedBy: null,
          lockedUntil: null,
          attempts: sql`${analysisJobs.attempts} - 1`,
        })
        .where(this.held(job, worker))
        .returning({ id: analysisJobs.id });
      if (rows.length > 0) {
        await tx.update(videos).set({ status: 'pending' }).where(eq(videos.id, job.videoId));
      }
    });
    this.onVideoChange();
  }

  /** Whether a job for the video is queued or running. */
  async hasOpenJob(videoId: string, db: Db | Tx = this.db): Promise<boolean> {
    const rows = await db
      .select({ id: analysisJobs.id })
      .from(analysisJobs)
      .where(
        and(eq(analysisJobs.videoId, videoId), inArray(analysisJobs.state, ['queued', 'running'])),
      );
    return rows.length > 0;
  }
}
