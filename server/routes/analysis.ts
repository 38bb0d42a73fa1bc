// /api/analysis: the analysis queue as /analysis shows it (recent videos, their inspection and
// latest job), and the admin's re-run.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { desc, eq, inArray } from 'drizzle-orm';
import { Type } from 'typebox';
import { audit } from '../audit/audit.ts';
import { analysisJobs, inspections, lineClearances, users, videos } from '../db/schema.ts';
import { currentUser } from '../http/auth-hook.ts';
import { errorResponses } from '../http/error-responses.ts';
import { conflict } from '../http/errors.ts';
import { iso } from '../ids.ts';
import { auditSignedEvidence, refuseIfSignedEvidence } from '../reports/signed-evidence.ts';
import { AnalysisQuery, type AnalysisRow, AnalysisRow as Row } from '../schemas/analysis.ts';
import { IdParams, MessageResponse } from '../schemas/common.ts';
import { visibleTo } from '../services/scope.ts';
import { findVisibleVideo } from '../services/videos.ts';

const errors = errorResponses;
/** spec §2 route table: /analysis. */
const READERS = ['operator', 'lc_manager', 'factory_manager', 'admin'] as const;

const isoOrNull = (date: Date | null) => (date ? iso(date) : null);

export const analysisRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/analysis',
    {
      config: { access: READERS },
      schema: {
        tags: ['analysis'],
        description:
          'The newest videos the caller may see (operators their own, LC managers their lines’, ' +
          'others all), each with its inspection and its latest analysis job.',
        querystring: AnalysisQuery,
        response: { 200: Type.Array(Row), ...errors },
      },
    },
    async (request): Promise<AnalysisRow[]> => {
      const user = currentUser(request);
      const limit = request.query.limit ?? 50;
      const rows = await db
        .select({
          video: videos,
          lineName: lineClearances.name,
          operatorName: users.name,
        })
        .from(videos)
        .leftJoin(lineClearances, eq(lineClearances.id, videos.lineClearanceId))
        .leftJoin(users, eq(users.id, videos.userId))
        .where(visibleTo(user, { owner: videos.userId, line: videos.lineClearanceId }))
        .orderBy(desc(videos.timestamp), desc(videos.id))
        .limit(limit);
      const ids = rows.map((row) => row.video.id);
      const jobs = ids.length
        ? await db
            .select()
            .from(analysisJobs)
            .where(inArray(analysisJobs.videoId, ids))
            .orderBy(desc(analysisJobs.createdAt))
        : [];
      const linked = ids.length
        ? await db
            .select({
              id: inspections.id,
              videoId: inspections.videoId,
              status: inspections.status,
            })
            .from(inspections)
            .where(inArray(inspections.videoId, ids))
        : [];
      return rows.map(({ video, lineName, operatorName }) => {
        const job = jobs.find((j) => j.videoId === video.id);
        return {
          videoId: video.id,
          filename: video.filename,
          recordedAt: iso(video.timestamp),
          duration: video.duration,
          videoStatus: video.status,
          statusReason: video.statusReason,
          analysisVersion: video.analysisVersion,
          lineClearanceId: video.lineClearanceId,
          lineName,
          operatorId: video.userId,
          operatorName,
          inspectionId: linked.find((i) => i.videoId === video.id)?.id ?? null,
          signed: linked.some((i) => i.videoId === video.id && i.status !== 'pending'),
          job: job
            ? {
                id: job.id,
                state: job.state as NonNullable<AnalysisRow['job']>['state'],
                step: job.step,
                progress: job.progress,
                attempts: job.attempts,
                maxAttempts: job.maxAttempts,
                error: job.error,
                pipelineVersion: job.pipelineVersion,
                detector: job.detector,
                summary: job.summary,
                createdAt: iso(job.createdAt),
                startedAt: isoOrNull(job.startedAt),
                finishedAt: isoOrNull(job.finishedAt),
              }
            : null,
        };
      });
    },
  );

  app.post(
    '/analysis/videos/:id/run',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['analysis'],
        description:
          'Queues the video for analysis again (e.g. after changing the detector). 409 while a ' +
          'job for it is open, before its file has arrived, and for the video of a signed (approved ' +
          'or rejected) inspection.',
        params: IdParams,
        response: { 202: MessageResponse, ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const video = await findVisibleVideo(request, eq(videos.id, request.params.id));
      // A run reads the stored file: before the upload finishes there is nothing to analyse.
      if (!(await app.ctx.storage.stat(video.storageKey))) {
        throw conflict(
          'The video file has not arrived yet: the analysis starts when its upload finishes',
        );
      }
      const queued = await auditSignedEvidence(request, () =>
        db.transaction(async (tx) => {
          // A run replaces keyframes, path and predictions: a signed record's evidence stays.
          await refuseIfSignedEvidence(tx, video.id, 'its analysis cannot be re-run');
          const job = await app.ctx.analysis.enqueue(video.id, user.id, tx);
          if (job) {
            await audit(tx, request, {
              action: 'analysis.rerun',
              entity: 'video',
              entityId: video.id,
              newValue: {
                jobId: job.id,
                detector: job.detector,
                pipelineVersion: job.pipelineVersion,
              },
            });
          }
          return job;
        }),
      );
      if (!queued) throw conflict('The video is already queued or being analysed');
      app.ctx.analysis.wake();
      return reply.status(202).send({ message: 'Analysis queued' });
    },
  );
};
