// The analysis service on `ctx.analysis`: enqueues jobs and, in each process with
// ANALYSIS_CONCURRENCY > 0, runs them (claim, heartbeat, pipeline, fenced commit, retry/fail).
import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import { audit } from '../audit/audit.ts';
import type { AnalysisConfig } from '../config.ts';
import type { Db, Tx } from '../db/client.ts';
import { analysisJobs } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { refuseIfSignedEvidence, SignedEvidenceError } from '../reports/signed-evidence.ts';
import type { Storage } from '../storage/storage.ts';
import type { Detector } from './detectors/detector.ts';
import { locateFfmpeg } from './ffmpeg.ts';
import { type Claimed, JobQueue, type JobRow } from './job-queue.ts';
import { commitRun, decisionsEntry, removeReplaced } from './outputs.ts';
import { PathWouldBeLostError, PermanentError, runPipeline, runPrefix } from './pipeline.ts';
import { removeAbandonedWorkFolders } from './work-folders.ts';

/** Recorded with every run: bump it when the pipeline's outputs change. */
export const PIPELINE_VERSION = 'lc-analysis/1';

/** Why a job of a signed record's video ends without results (queued before the signature). */
const SIGNED_JOB = 'its analysis cannot be re-run; this job changed nothing';

export interface AnalysisLogger {
  info(message: string): void;
  error(message: string): void;
}

/**
 * The analysis queue and its runner: capture hands a verified upload to `enqueue`, the runner takes
 * jobs from the database and turns each video into the records the video page reads.
 */
export class AnalysisService {
  readonly queue: JobQueue;
  /** This process in the job rows' lockedBy. */
  readonly worker = `${hostname()}:${process.pid}:${newId().slice(0, 6)}`;
  private running = new Map<string, AbortController>();
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private stopping = false;
  private ticking: Promise<void> | null = null;
  private ffmpegPath: string | null = null;
  private log: AnalysisLogger = { info: () => {}, error: () => {} };
  /** Runs in this process, by job id, until their clean-up is done. */
  private executions = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly storage: Storage,
    private readonly config: AnalysisConfig,
    readonly detector: Detector,
    private readonly onVideoChange: () => void,
    /** After a video's results were replaced or its analysis failed for good (the reports' summaries). */
    private readonly onResults: (videoId: string) => Promise<void>,
  ) {
    this.queue = new JobQueue(
      db,
      {
        maxAttempts: config.maxAttempts,
        leaseSeconds: config.leaseSeconds,
        retryBaseSeconds: config.retryBaseSeconds,
        pipelineVersion: PIPELINE_VERSION,
      },
      onVideoChange,
    );
  }

  /**
   * Queues the video (no-op while a job for it is open) with its audit entry, in the caller's
   * transaction when given one; the caller's request then invalidates the read caches.
   */
  async enqueue(videoId: string, requestedBy: string | null, tx?: Tx): Promise<JobRow | null> {
    const queue = async (db: Db | Tx) => {
      const job = await this.queue.enqueue(videoId, requestedBy, this.detector.info, db);
      if (job) await this.auditJob(db, job, 'analysis.enqueue', requestedBy);
      return job;
    };
    const job = tx ? await queue(tx) : await this.db.transaction(queue);
    if (job && !tx) this.onVideoChange();
    // With the caller's transaction the job is visible after its commit: the caller wakes us.
    if (!tx) this.wake();
    return job;
  }

  /** Starts taking jobs (no-op with concurrency 0). On PGlite, first takes back orphaned jobs. */
  async start(dbKind: 'pglite' | 'postgres', log?: AnalysisLogger): Promise<void> {
    if (this.config.concurrency === 0 || this.started) return;
    this.started = true;
    if (log) this.log = log;
    if (dbKind === 'pglite') {
      const orphans = await this.queue.releaseOrphans();
      if (orphans > 0) this.log.info(`analysis: resuming ${orphans} interrupted job(s)`);
    }
    await this.sweepWorkFolders();
    this.wake();
  }

  /** Removes the scratch folders killed runs left (work-folders.ts); a failure is only logged. */
  private async sweepWorkFolders(): Promise<void> {
    try {
      const removed = await removeAbandonedWorkFolders(this.db, this.worker);
      if (removed > 0) this.log.info(`analysis: removed ${removed} work folder(s) of stopped runs`);
    } catch (error) {
      this.log.error(`analysis: cannot remove work folders: ${(error as Error).message}`);
    }
  }

  /** Stops taking jobs; running ones are aborted and handed back without counting the attempt. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    for (const controller of this.running.values()) controller.abort();
    while (this.running.size > 0 || this.ticking) {
      await (this.ticking ?? new Promise((resolve) => setTimeout(resolve, 20)));
    }
  }

  /**
   * Resolves when the job has reached completed or failed and, if this process ran it, its
   * clean-up is done too (polling the row; for tests and the bench).
   */
  async settled(jobId: string, timeoutMs = 120_000): Promise<JobRow> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      await this.executions.get(jobId);
      const [row] = await this.db.select().from(analysisJobs).where(eq(analysisJobs.id, jobId));
      if (!row) throw new Error(`job ${jobId} does not exist`);
      if (row.state === 'completed' || row.state === 'failed') {
        await this.executions.get(jobId);
        return row;
      }
      if (Date.now() > end)
        throw new Error(`job ${jobId} still ${row.state} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  wake(): void {
    if (!this.started || this.stopping) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.ticking ??= this.tick().finally(() => {
      this.ticking = null;
      this.schedule();
    });
  }

  private schedule() {
    if (this.stopping || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, this.config.pollMs);
  }

  private async tick(): Promise<void> {
    while (!this.stopping && this.running.size < this.config.concurrency) {
      let claimed: Claimed | null;
      try {
        claimed = await this.queue.claim(this.worker, (tx, job, reason) =>
          this.auditJob(tx, job, 'analysis.fail', null, { reason }),
        );
      } catch (error) {
        this.log.error(`analysis: cannot claim a job: ${(error as Error).message}`);
        return;
      }
      if (!claimed) return;
      const { job } = claimed;
      if (claimed.exhausted) {
        this.log.error(`analysis of video ${job.videoId} failed: ${job.error}`);
        await this.resultsChanged(job.videoId);
        continue;
      }
      const claimedAt = performance.now();
      const controller = new AbortController();
      this.running.set(job.id, controller);
      const execution = this.execute(job, controller, claimedAt)
        .catch((error: Error) =>
          this.log.error(`analysis of video ${job.videoId}: ${error.message}`),
        )
        .finally(() => {
          this.running.delete(job.id);
          this.executions.delete(job.id);
          this.wake();
        });
      this.executions.set(job.id, execution);
    }
  }

  private ffmpeg = () => {
    this.ffmpegPath ??= locateFfmpeg(this.config.ffmpegPath);
    return this.ffmpegPath;
  };

  private async execute(
    job: JobRow,
    controller: AbortController,
    claimedAt: number,
  ): Promise<void> {
    const { signal } = controller;
    await this.auditJob(this.db, job, 'analysis.start', null, { worker: this.worker });
    // An earlier attempt that died (crash, kill -9) may have left files: they were never committed.
    for (let attempt = 1; attempt < job.attempts; attempt++) {
      await this.storage.deletePrefix(runPrefix({ ...job, attempts: attempt }));
    }
    // The scratch folders of stopped runs on this machine: this job's earlier attempt's, or those
    // of another process here that was killed since this one started.
    await this.sweepWorkFolders();
    // The lease is renewed on a timer too: a long ffmpeg pass reports no step for a while.
    const beat = setInterval(
      () => {
        void this.queue.heartbeat(job, this.worker).then(
          (held) => held || controller.abort(),
          () => {},
        );
      },
      Math.max(500, (this.config.leaseSeconds * 1000) / 3),
    );
    try {
      await refuseIfSignedEvidence(this.db, job.videoId, SIGNED_JOB);
      const outputs = await runPipeline(
        {
          db: this.db,
          storage: this.storage,
          config: this.config,
          ffmpeg: this.ffmpeg,
          detector: this.detector,
          claimedAt,
        },
        job,
        signal,
        async (step, progress) => {
          if (!(await this.queue.heartbeat(job, this.worker, step, progress))) {
            controller.abort();
            throw new Error('the job was taken over by another process');
          }
        },
      );
      const replaced = await commitRun(
        this.db,
        this.queue,
        job,
        this.worker,
        outputs,
        async (tx, replaced) => {
          // Again in the commit: the inspection may have been signed while the pipeline ran.
          await refuseIfSignedEvidence(tx, job.videoId, SIGNED_JOB);
          // The file's probed length replaces the one the phone sent: old → new, as any change.
          const lengthChanged = replaced.duration !== outputs.duration;
          await this.auditJob(
            tx,
            job,
            'analysis.complete',
            null,
            {
              summary: outputs.summary,
              ...(lengthChanged ? { duration: outputs.duration } : {}),
              ...decisionsEntry(replaced.decisions),
            },
            lengthChanged ? { duration: replaced.duration } : null,
          );
        },
      );
      if (!replaced) {
        await this.storage.deletePrefix(outputs.prefix);
        return;
      }
      this.onVideoChange();
      await this.resultsChanged(job.videoId);
      await removeReplaced(this.storage, replaced, {
        keyframesKey: outputs.keyframesKey,
        imagesPrefix: outputs.imagesPrefix,
      });
    } catch (error) {
      await this.storage.deletePrefix(runPrefix(job)).catch(() => {});
      if (this.stopping && signal.aborted) {
        await this.queue.release(job, this.worker);
        return;
      }
      const reason = (error as Error).message || String(error);
      const signed = error instanceof SignedEvidenceError;
      const permanent = signed || error instanceof PermanentError;
      // Results that stand: a signed record's, or a path this run could not make again.
      const keepResults = signed || error instanceof PathWouldBeLostError;
      this.log.error(`analysis of video ${job.videoId} failed: ${reason}`);
      const outcome = await this.queue
        .fail(
          job,
          this.worker,
          reason,
          !permanent,
          (tx, final) =>
            this.auditJob(tx, job, final ? 'analysis.fail' : 'analysis.retry', null, { reason }),
          keepResults,
        )
        .catch((e: Error) => this.log.error(`analysis: cannot record the failure: ${e.message}`));
      if (outcome === 'failed') await this.resultsChanged(job.videoId);
    } finally {
      clearInterval(beat);
    }
  }

  /** Tells what depends on a video's results (the reports' summaries); a failure there is logged. */
  async resultsChanged(videoId: string): Promise<void> {
    await this.onResults(videoId).catch((e: Error) =>
      this.log.error(`analysis: cannot refresh the reports of video ${videoId}: ${e.message}`),
    );
  }

  /** One audit entry per event of a run: pipeline version and detector (name, version, threshold). */
  auditJob(
    db: Db | Tx,
    job: JobRow,
    action: string,
    actorId: string | null,
    extra: Record<string, unknown> = {},
    /** The video's fields as they were, where the step changed them. */
    oldValue: Record<string, unknown> | null = null,
  ): Promise<void> {
    return audit(db, null, {
      action,
      entity: 'video',
      entityId: job.videoId,
      oldValue,
      actorEmail: actorId ? null : 'analysis',
      newValue: {
        jobId: job.id,
        attempt: job.attempts,
        requestedBy: actorId ?? job.requestedBy,
        pipelineVersion: job.pipelineVersion,
        detector: job.detector,
        ...extra,
      },
    });
  }
}
