// The analysis job queue: rows in `analysis_jobs`, the same SQL on PGlite and PostgreSQL. A job is
// claimed with FOR UPDATE SKIP LOCKED (two processes never take the same row) and then held by a
// lease that the runner renews; a job whose holder died (kill -9, crash) is taken again once its
// lease runs out. Every write that ends a run is fenced on the holder, so a process that lost its
// lease can never commit over the process that took the job over.
import { and, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { analysisJobs, videos } from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { AnalysisStep, DetectorInfo } from '../schemas/analysis.ts';

export type JobRow = typeof analysisJobs.$inferSelect;

/**
 * What `claim` took: a job to run, or one that had used all its attempts, the last cut short by a
 * stopped process, and was failed instead of being run again (`exhausted`).
 */
export interface Claimed {
  job: JobRow;
  exhausted: boolean;
}

/**
 * Why a job that kept stopping is not run again: a video whose analysis kills the server (out of
 * memory) would otherwise make it crash and restart forever.
 */
const exhaustedReason = (job: Pick<JobRow, 'attempts' | 'step'>) =>
  `the analysis stopped ${job.attempts} times without finishing${job.step ? ` (last in its ${job.step} step)` : ''}, ` +
  'e.g. because the server stopped during it or ran out of memory on this video; it is not run ' +
  'again by itself: an admin can re-run it from /analysis';

/** The job row of a job that has failed for good. */
const failedFor = (reason: string) => ({
  state: 'failed',
  error: reason,
  lockedBy: null,
  lockedUntil: null,
  finishedAt: sql`now()`,
  runAfter: sql`now()`,
});

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
   * counts the attempt and sets the video to `processing`. Null when nothing is runnable. A job
   * that has used all its attempts fails instead, the video in `error`, with `onExhausted`'s
   * writes (the audit entry) in the same transaction.
   */
  async claim(
    worker: string,
    onExhausted?: (tx: Tx, job: JobRow, reason: string) => Promise<void>,
  ): Promise<Claimed | null> {
    const lease = this.options.leaseSeconds;
    const claimed = await this.db.transaction(async (tx): Promise<Claimed | null> => {
      const [next] = await tx
        .select({
          id: analysisJobs.id,
          attempts: analysisJobs.attempts,
          maxAttempts: analysisJobs.maxAttempts,
          step: analysisJobs.step,
        })
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
      if (!next) return null;
      const { id } = next;
      // A failure ends an attempt through `fail`, which requeues only while attempts remain; a
      // job found here with none left had its last attempt cut by a stopped process.
      if (next.attempts >= next.maxAttempts) {
        const reason = exhaustedReason(next);
        const [failed] = await tx
          .update(analysisJobs)
          .set(failedFor(reason))
          .where(eq(analysisJobs.id, id))
          .returning();
        if (!failed) return null;
        await tx
          .update(videos)
          .set({ status: 'error', statusReason: reason })
          .where(eq(videos.id, failed.videoId));
        await onExhausted?.(tx, failed, reason);
        return { job: failed, exhausted: true };
      }
      const [job] = await tx
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
      if (!job) return null;
      await tx
        .update(videos)
        .set({ status: 'processing', statusReason: null })
        .where(eq(videos.id, job.videoId));
      return { job, exhausted: false };
    });
    if (claimed) this.onVideoChange();
    return claimed;
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
        .set(
          final
            ? failedFor(reason)
            : {
                state: 'queued',
                error: reason,
                lockedBy: null,
                lockedUntil: null,
                finishedAt: null,
                runAfter: sql`now() + make_interval(secs => ${delay})`,
              },
        )
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
    // One transaction: a worker claiming a released job in between would otherwise have its
    // outcome (e.g. the video in error) overwritten by this 'pending'.
    const rows = await this.db.transaction(async (tx) => {
      const released = await tx
        .update(analysisJobs)
        .set({ state: 'queued', lockedBy: null, lockedUntil: null, runAfter: sql`now()` })
        .where(eq(analysisJobs.state, 'running'))
        .returning({ videoId: analysisJobs.videoId });
      if (released.length > 0) {
        await tx
          .update(videos)
          .set({ status: 'pending' })
          .where(
            inArray(
              videos.id,
              released.map((row) => row.videoId),
            ),
          );
      }
      return released;
    });
    if (rows.length > 0) this.onVideoChange();
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
