// Videos (spec §7): the scoped list with filters, one video as JSON or as the file, and the
// admin list and delete with its summary of what was removed.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { count, eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { audit } from '../audit/audit.ts';
import { changeReason, noBodyAsEmpty, REASON_RULE, withReason } from '../audit/change-reason.ts';
import { inspections, predictions, videos } from '../db/schema.ts';
import { currentUser } from '../http/auth-hook.ts';
import { errorResponses } from '../http/error-responses.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { sendStored } from '../http/send-file.ts';
import { refreshSummaries } from '../reports/report.ts';
import { auditSignedEvidence, refuseIfSignedEvidence } from '../reports/signed-evidence.ts';
import { ErrorResponse, IdParams } from '../schemas/common.ts';
import {
  AdminVideo,
  Video,
  VideoDeleteBody,
  VideoDeleteResponse,
  VideoQuery,
} from '../schemas/videos.ts';
import { hasRole } from '../services/access.ts';
import { hiddenRecord } from '../services/scope.ts';
import { findVisibleVideo, getVideo, listVideosJson } from '../services/videos.ts';

const errors = errorResponses;

/** Sends serialized JSON as it is (Fastify serializes only other bodies); typed as the schema's. */
const sendJson = (reply: FastifyReply, json: Buffer) =>
  reply.type('application/json; charset=utf-8').send(json as unknown as Video[]);
const ID = /^[0-9a-f]{24}$/;
/** Stored video file names: one segment, no leading dot, no separators (no traversal possible). */
const FILENAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,199}$/;

const latest = (values: string[] | undefined) =>
  values?.length ? new Date(Math.max(...values.map((v) => Date.parse(v)))) : undefined;
const earliest = (values: string[] | undefined) =>
  values?.length ? new Date(Math.min(...values.map((v) => Date.parse(v)))) : undefined;

/**
 * The reason a deletion records, or a 400: the video of an inspection is original GMP data of that
 * record (EU GMP Annex 11 §9, 21 CFR 211.188), so its deletion says why; a video no inspection
 * names may go without one (the spec's call has no payload). A reason given must be one.
 */
function deletionReason(given: string | undefined, ofInspection: boolean): string | null {
  const reason = changeReason(given, 'the video is deleted');
  if (!reason && ofInspection) {
    throw badRequest(
      `body.reason is required to delete the video of an inspection (${REASON_RULE})`,
    );
  }
  return reason;
}

export const videoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, storage } = app.ctx;

  app.get(
    '/videos',
    {
      config: { access: 'authenticated' },
      // Accept `userIds[]=` (axios' default array style) as well as repeated `userIds=`.
      preValidation: async (request) => {
        const query = request.query as Record<string, unknown>;
        for (const key of Object.keys(query)) {
          if (!key.endsWith('[]')) continue;
          const base = key.slice(0, -2);
          query[base] = [query[base] ?? [], query[key]].flat();
          delete query[key];
        }
      },
      schema: {
        tags: ['videos'],
        querystring: VideoQuery,
        response: { 200: Type.Array(Video), ...errors },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const user = currentUser(request);
      // Several bounds narrow the range: the latest start and the earliest end win.
      const filters = {
        from: latest(q.startDate),
        to: earliest(q.endDate),
        userIds: q.userIds,
        lineIds: q.lineIDs,
      };
      const answer = () => listVideosJson(db, user, filters);
      const caches = app.ctx.caches;
      // Admins, factory managers and auditors share one view; others see their own scope.
      // The two kinds of scope never share a key, whatever a user id holds.
      const scope = hasRole(user, 'admin', 'factory_manager', 'audit') ? 'all' : `user:${user.id}`;
      // The list is serialized by the service (the schema's fields), and the cache keeps the
      // bytes: a hit costs no query and no serialization.
      const body = caches
        ? await caches.videoLists.get(`${scope} ${JSON.stringify(filters)}`, answer)
        : await answer();
      return sendJson(reply, body);
    },
  );

  app.get(
    '/videos/:ref',
    {
      config: { access: 'authenticated', media: true },
      schema: {
        tags: ['videos'],
        description: 'A video id answers the JSON object; a file name streams the file (ranges).',
        params: Type.Object({ ref: Type.String({ maxLength: 200 }) }),
        response: { 200: Video, 416: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { ref } = request.params;
      if (ID.test(ref)) {
        const video = await getVideo(db, user, ref);
        return video ?? hiddenRecord(request, videos, eq(videos.id, ref), notFound('Video'));
      }
      if (!FILENAME.test(ref)) throw badRequest('params.ref must be a video id or a file name');
      const video = await findVisibleVideo(request, eq(videos.filename, ref));
      return sendStored(request, reply, storage, video.storageKey, 'Video file');
    },
  );

  app.get(
    '/admin/videos',
    {
      config: { access: ['admin'] },
      schema: { tags: ['admin'], response: { 200: Type.Array(AdminVideo), ...errors } },
    },
    async (_request, reply) =>
      sendJson(reply, await listVideosJson(db, null, {}, { signedEvidence: true })),
  );

  app.delete(
    '/admin/videos/:id',
    {
      config: { access: ['admin'] },
      preValidation: noBodyAsEmpty,
      schema: {
        tags: ['admin'],
        description:
          'Deletes the video, its predictions and files; its inspections stay, unlinked. 409 for ' +
          'the video of a signed (approved or rejected) inspection; 400 without `reason` for the ' +
          'video of a pending one.',
        params: IdParams,
        body: VideoDeleteBody,
        response: { 200: VideoDeleteResponse, ...errors },
      },
    },
    async (request) => {
      const { id } = request.params;
      const [video] = await db.select().from(videos).where(eq(videos.id, id));
      if (!video) throw notFound('Video');
      const removed = await auditSignedEvidence(request, () =>
        db.transaction(async (tx) => {
          // The signed record names the video, its SHA-256 and its detections: it is kept.
          const naming = await refuseIfSignedEvidence(tx, id, 'it cannot be deleted');
          const reason = deletionReason(request.body.reason, naming > 0);
          const [predictionCount] = await tx
            .select({ n: count() })
            .from(predictions)
            .where(eq(predictions.videoId, id));
          await tx.delete(predictions).where(eq(predictions.videoId, id));
          // Inspections are GMP records: they stay, only their link to the video is removed.
          const unlinked = await tx
            .update(inspections)
            .set({ videoId: null })
            .where(eq(inspections.videoId, id))
            .returning({ id: inspections.id });
          await tx.delete(videos).where(eq(videos.id, id));
          const summary = {
            video: 1,
            predictions: predictionCount?.n ?? 0,
            reports: unlinked.length,
            // Floor plans and their configurations belong to the line clearance, not the video.
            floorplanConfigs: 0,
            floorplans: 0,
          };
          await audit(tx, request, {
            action: 'delete',
            entity: 'video',
            entityId: id,
            ...withReason(
              reason,
              { ...video, unlinkedInspections: unlinked.map((row) => row.id) },
              summary,
            ),
          });
          return { summary, unlinked: unlinked.map((row) => row.id) };
        }),
      );
      // Files are removed only after the rows are committed.
      const [videoFile, keyframesText, keyframesImages, results] = await Promise.all([
        storage.delete(video.storageKey),
        video.keyframesKey ? storage.delete(video.keyframesKey) : false,
        video.keyframeImagesPrefix ? storage.deletePrefix(video.keyframeImagesPrefix) : 0,
        storage.delete(`results/${id}.json`),
      ]);
      // Their reports now say the video is gone.
      await refreshSummaries(app.ctx, removed.unlinked, request.log);
      return {
        deleted: {
          ...removed.summary,
          minio: { video: videoFile, keyframesText, keyframesImages, results },
        },
      };
    },
  );
};
