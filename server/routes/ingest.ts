// /api/ingest: for an external system with a service account (or an admin). Post a recording to be
// analysed by the pipeline, or post a video's analysis results made elsewhere (a SLAM, a detector):
// checked whole, then stored and switched in one transaction (docs/analysis.md, "Ingestion API").
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { checkKeyframes } from '../analysis/keyframes-check.ts';
import { decisionsEntry, removeReplaced, replaceResults } from '../analysis/outputs.ts';
import { audit } from '../audit/audit.ts';
import type { Tx } from '../db/client.ts';
import { inspections, users, videos } from '../db/schema.ts';
import { currentUser } from '../http/auth-hook.ts';
import { errorResponses } from '../http/error-responses.ts';
import { badRequest, conflict, HttpError, notFound } from '../http/errors.ts';
import { iso, newId } from '../ids.ts';
import { refreshSummaries } from '../reports/report.ts';
import {
  auditSignedEvidence,
  refuseIfSignedEvidence,
  signedAs,
} from '../reports/signed-evidence.ts';
import { IngestAnalysis } from '../schemas/analysis.ts';
import { ErrorResponse, Id, IdParams } from '../schemas/common.ts';
import { arrivedFileKey, SAME_FILE, SameFile, sameFileAs } from '../services/capture.ts';
import { sniffImage } from '../services/image-type.ts';
import { findLine } from './line-clearances.ts';

const errors = { ...errorResponses, 413: ErrorResponse };
const INGESTERS = ['service', 'admin'] as const;
const VIDEO_TYPES: Record<string, string> = {
  'video/mp4': '.mp4',
  'video/webm': '.webm',
  'video/quicktime': '.mov',
  'application/octet-stream': '.mp4',
};
/** Why results posted for a signed record's video are refused. */
const REPLACED = 'its analysis results cannot be replaced';
/** A results body: keyframes text and base64 images together (images are most of it). */
export const INGEST_BODY_LIMIT = 256 * 1024 * 1024;

const IngestVideoQuery = Type.Object({
  lineClearanceId: Id,
  /** The operator who recorded it (default: none). */
  operatorId: Type.Optional(Id),
  /**
   * A pending inspection of the same line with no video, or whose video awaits its file (this
   * becomes that file): its scans and motion anchor the path.
   */
  inspectionId: Type.Optional(Id),
  recordedAt: Type.Optional(Type.String({ format: 'date-time' })),
});

const IngestVideoResponse = Type.Object({
  videoId: Id,
  sha256: Type.String(),
  size: Type.Integer(),
});

interface IngestedFile {
  filename: string;
  storageKey: string;
  size: number;
  sha256: string;
}

/**
 * Makes the posted file the file of an inspection's video that never got one (a phone's upload
 * that did not finish), audited. Whichever comes first, this or a verified upload, is the file.
 */
async function attachFile(
  tx: Tx,
  request: FastifyRequest,
  video: typeof videos.$inferSelect,
  file: IngestedFile,
  inspectionId: string | null,
): Promise<void> {
  // Under the inspection's lock: a signature given since the check before the upload wins.
  await refuseIfSignedEvidence(tx, video.id, 'no file can be attached to it');
  const [updated] = await tx
    .update(videos)
    .set(file)
    .where(and(eq(videos.id, video.id), isNull(videos.sha256), ne(videos.status, 'error')))
    .returning({ id: videos.id });
  if (!updated) throw conflict('The inspection already has a video');
  const { filename, storageKey, size, sha256 } = video;
  await audit(tx, request, {
    action: 'file.ingest',
    entity: 'video',
    entityId: video.id,
    oldValue: { filename, storageKey, size, sha256 },
    newValue: { ...file, inspectionId },
  });
}

export const ingestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, storage, config } = app.ctx;

  /** The inspection's video, if its file has not arrived and it was not given up; else 409. */
  async function awaitingFile(videoId: string) {
    const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
    if (!video || video.sha256 !== null) throw conflict('The inspection already has a video');
    if (video.status === 'error') {
      throw conflict(
        `The inspection's video was given up (${video.statusReason ?? 'error'}); no file can be attached to it`,
      );
    }
    return video;
  }
  // Recordings arrive as the raw body, streamed to storage (never held in memory).
  app.addContentTypeParser(Object.keys(VIDEO_TYPES), (_request, payload, done) =>
    done(null, payload),
  );

  app.post(
    '/ingest/videos',
    {
      config: { access: INGESTERS },
      schema: {
        tags: ['analysis'],
        description:
          'Stores a recording (raw body: video/mp4, video/webm, video/quicktime or ' +
          'application/octet-stream, at most MAX_UPLOAD_BYTES) and queues its analysis. Example: ' +
          '`curl -H "Authorization: Bearer $KEY" -H "Content-Type: video/mp4" --data-binary @walk.mp4 ' +
          '"$SERVER/api/ingest/videos?lineClearanceId=…&inspectionId=…"` (scripts/post-video.ts).',
        consumes: Object.keys(VIDEO_TYPES),
        querystring: IngestVideoQuery,
        response: { 201: IngestVideoResponse, ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const query = request.query;
      const ext = VIDEO_TYPES[(request.headers['content-type'] ?? '').split(';')[0]?.trim() ?? ''];
      if (!ext)
        throw badRequest(
          'The body must be a video (Content-Type video/mp4, video/webm or video/quicktime)',
        );
      const line = await findLine(db, query.lineClearanceId).catch(() => {
        throw badRequest('querystring.lineClearanceId names an unknown line clearance');
      });
      if (query.operatorId) {
        const [operator] = await db
          .select({ id: users.id })
          .from(users)
          .where(eq(users.id, query.operatorId));
        if (!operator) throw badRequest('querystring.operatorId names an unknown user');
      }
      let inspection: typeof inspections.$inferSelect | undefined;
      /** The inspection's video if its file never arrived (the phone's upload did not finish). */
      let awaiting: typeof videos.$inferSelect | undefined;
      if (query.inspectionId) {
        [inspection] = await db
          .select()
          .from(inspections)
          .where(eq(inspections.id, query.inspectionId));
        if (!inspection) throw badRequest('querystring.inspectionId names an unknown inspection');
        if (inspection.lineClearanceId !== line.id) {
          throw badRequest('querystring.inspectionId is an inspection of another line clearance');
        }
        if (inspection.status !== 'pending') {
          // A video linked now would change what was signed (the record hash covers the video).
          const reason = `The inspection is signed (${signedAs(inspection.status, inspection.reviewedAt)}); no video can be attached to it`;
          await app.ctx.refusals.record(request, reason, 'evidence.protected', {
            entity: 'inspection',
            entityId: inspection.id,
          });
          throw conflict(reason);
        }
        if (inspection.videoId) awaiting = await awaitingFile(inspection.videoId);
      }

      const id = awaiting?.id ?? newId();
      const storageKey = awaiting ? arrivedFileKey(id, newId(), ext) : `videos/${id}${ext}`;
      const hash = createHash('sha256');
      let size = 0;
      const limit = config.maxUploadBytes;
      // Counted and hashed on the way to storage; past the limit the write fails and is removed.
      async function* counted(body: AsyncIterable<Buffer>) {
        for await (const chunk of body) {
          size += chunk.length;
          if (size > limit) {
            throw new HttpError(413, `The video is larger than MAX_UPLOAD_BYTES (${limit} bytes)`);
          }
          hash.update(chunk);
          yield chunk;
        }
      }
      await storage.put(storageKey, Readable.from(counted(request.body as AsyncIterable<Buffer>)));
      if (size === 0) {
        await storage.delete(storageKey);
        throw badRequest('The body is empty: post the video file');
      }
      const sha256 = hash.digest('hex');
      const operatorId = query.operatorId ?? inspection?.operatorId ?? null;
      const createVideo = async (tx: Tx) => {
        const [row] = await tx
          .insert(videos)
          .values({
            id,
            filename: `${id}${ext}`,
            storageKey,
            subfolder: id,
            userId: operatorId,
            lineClearanceId: line.id,
            timestamp: query.recordedAt ? new Date(query.recordedAt) : new Date(),
            status: 'pending',
            size,
            sha256,
          })
          .returning();
        if (inspection) {
          const linked = await tx
            .update(inspections)
            .set({ videoId: id })
            .where(
              and(
                eq(inspections.id, inspection.id),
                isNull(inspections.videoId),
                eq(inspections.status, 'pending'),
              ),
            )
            .returning({ id: inspections.id });
          if (linked.length === 0) {
            throw conflict('The inspection got a video or was signed meanwhile');
          }
        }
        await audit(tx, request, {
          action: 'create',
          entity: 'video',
          entityId: id,
          newValue: {
            ...row,
            timestamp: row ? iso(row.timestamp) : null,
            inspectionId: inspection?.id ?? null,
          },
        });
      };
      try {
        await auditSignedEvidence(request, () =>
          db.transaction(async (tx) => {
            // In the transaction, so two posts of one file cannot both land (as for uploads).
            const other = await sameFileAs(tx, sha256, id);
            if (other) throw new SameFile(other);
            if (awaiting) {
              const file = { filename: `${id}${ext}`, storageKey, size, sha256 };
              await attachFile(tx, request, awaiting, file, inspection?.id ?? null);
            } else {
              await createVideo(tx);
            }
            await app.ctx.analysis.enqueue(id, user.id, tx);
          }),
        );
      } catch (error) {
        await storage.delete(storageKey);
        if (!(error instanceof SameFile)) throw error;
        await app.ctx.refusals.record(request, error.reason, 'evidence.protected', {
          entity: 'video',
          entityId: error.otherVideoId,
        });
        throw conflict(SAME_FILE);
      }
      app.ctx.analysis.wake();
      if (inspection) await refreshSummaries(app.ctx, [inspection.id], request.log);
      return reply.status(201).send({ videoId: id, sha256, size });
    },
  );

  app.put(
    '/ingest/videos/:id/analysis',
    {
      bodyLimit: INGEST_BODY_LIMIT,
      config: { access: INGESTERS },
      schema: {
        tags: ['analysis'],
        description:
          "Replaces the video's analysis results (keyframes text, calibration, predictions, " +
          'keyframe images) in one transaction; the video becomes completed. 409 while a job ' +
          'for it is queued or running, and for the video of a signed (approved or rejected) ' +
          'inspection.',
        params: IdParams,
        body: IngestAnalysis,
        response: {
          200: Type.Object({
            videoId: Id,
            points: Type.Integer(),
            images: Type.Integer(),
            predictions: Type.Integer(),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const body = request.body;
      const [video] = await db.select().from(videos).where(eq(videos.id, request.params.id));
      if (!video) throw notFound('Video');
      // Checked first, before the body's work, and again in the transaction that switches.
      await auditSignedEvidence(request, () => refuseIfSignedEvidence(db, video.id, REPLACED));
      if (await app.ctx.analysis.queue.hasOpenJob(video.id)) {
        throw conflict(
          'An analysis job for this video is queued or running; post when it has ended',
        );
      }

      // Everything is checked before anything is written.
      const keyframes = Buffer.from(body.keyframes, 'utf8');
      const check = await checkKeyframes(keyframes);
      if (check.badLineCount > 0) {
        const more =
          check.badLineCount > check.badLines.length ? ` (${check.badLineCount} in all)` : '';
        throw badRequest(`body.keyframes has malformed lines: ${check.badLines.join(', ')}${more}`);
      }
      if (check.points === 0) throw badRequest('body.keyframes holds no keyframe');
      const images = (body.images ?? []).map((image, i) => {
        const bytes = Buffer.from(image.data, 'base64');
        if (sniffImage(bytes)?.ext !== 'png')
          throw badRequest(`body.images[${i}].data is not a base64 PNG image`);
        return { name: image.filename, bytes };
      });
      const imageNames = new Set(images.map((image) => image.name));
      if (imageNames.size !== images.length) throw badRequest('body.images names a file twice');
      const missing = check.imageNames.find((name) => !imageNames.has(name));
      if (missing)
        throw badRequest(
          `body.keyframes names the image ${missing}, which body.images does not hold`,
        );
      (body.predictions ?? []).forEach((p, i) => {
        if (
          p.class_labels.length !== p.confs.length ||
          p.confs.length !== p.boxes_normalized.length
        ) {
          throw badRequest(
            `body.predictions[${i}] must have as many class_labels, confs and boxes_normalized`,
          );
        }
        if (p.boxes_normalized.some(([x1 = 0, y1 = 0, x2 = 0, y2 = 0]) => x2 < x1 || y2 < y1)) {
          throw badRequest(`body.predictions[${i}].boxes_normalized needs x1 ≤ x2 and y1 ≤ y2`);
        }
        if (!imageNames.has(p.filename)) {
          throw badRequest(`body.predictions[${i}].filename names no image of body.images`);
        }
      });
      const calibration = body.calibration ?? null;
      if (
        calibration &&
        (calibration.slamPoints?.length ?? 0) !== (calibration.floorplanPoints?.length ?? 0)
      ) {
        throw badRequest('body.calibration needs as many slamPoints as floorplanPoints');
      }

      const prefix = `ingest/${video.id}/${newId()}`;
      const keyframesKey = `${prefix}/keyframes.txt`;
      const imagesPrefix = `${prefix}/images`;
      let replaced: Awaited<ReturnType<typeof replaceResults>> = null;
      try {
        await storage.put(keyframesKey, keyframes);
        for (const image of images) await storage.put(`${imagesPrefix}/${image.name}`, image.bytes);
        replaced = await auditSignedEvidence(request, () =>
          db.transaction(async (tx) => {
            await refuseIfSignedEvidence(tx, video.id, REPLACED);
            const old = await replaceResults(tx, video.id, {
              keyframesKey,
              imagesPrefix,
              calibration,
              predictions: (body.predictions ?? []).map((p) => ({
                filename: p.filename,
                classLabels: p.class_labels,
                confs: p.confs,
                boxesNormalized: p.boxes_normalized,
              })),
              detector: body.detector ?? null,
              analysisVersion: body.analysisVersion,
              statusReason: null,
            });
            await audit(tx, request, {
              action: 'analysis.ingest',
              entity: 'video',
              entityId: video.id,
              oldValue: {
                analysisVersion: video.analysisVersion,
                keyframesKey: video.keyframesKey,
              },
              newValue: {
                analysisVersion: body.analysisVersion,
                detector: body.detector ?? null,
                points: check.points,
                images: images.length,
                predictions: body.predictions?.length ?? 0,
                calibration,
                ...(old && decisionsEntry(old.decisions)),
              },
            });
            return old;
          }),
        );
      } catch (error) {
        await storage.deletePrefix(prefix);
        throw error;
      }
      if (replaced) await removeReplaced(storage, replaced, { keyframesKey, imagesPrefix });
      await app.ctx.analysis.resultsChanged(video.id);
      return {
        videoId: video.id,
        points: check.points,
        images: images.length,
        predictions: body.predictions?.length ?? 0,
      };
    },
  );
};
