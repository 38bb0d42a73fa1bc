// Keyframes text per video and keyframe images per subfolder (spec §7). Both are media routes:
// the page loads them with plain fetch and <img>, so the media cookie is accepted.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { videos } from '../db/schema.ts';
import { errorResponses } from '../http/error-responses.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { sendStored } from '../http/send-file.ts';
import { missingPath } from '../reports/path-checklist.ts';
import { ErrorResponse, KeyframeImageName, Matching } from '../schemas/common.ts';
import { findVisibleVideo } from '../services/videos.ts';

const errors = errorResponses;

export const keyframeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { storage } = app.ctx;

  app.get(
    '/keyframes/:file',
    {
      config: { access: 'authenticated', media: true },
      schema: {
        tags: ['videos'],
        params: Type.Object({
          file: Matching('^[0-9a-f]{24}\\.txt$', 'must be {videoId}.txt', {
            description: '{videoId}.txt',
          }),
        }),
        response: { 416: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const id = request.params.file.slice(0, -'.txt'.length);
      const video = await findVisibleVideo(request, eq(videos.id, id));
      // The page shows this message beside the spec's 404 words: why there is no path yet.
      if (!video.keyframesKey) {
        throw new HttpError(404, `Keyframes file not found. ${missingPath(video).message}`);
      }
      return sendStored(request, reply, storage, video.keyframesKey, 'Keyframes file');
    },
  );

  app.get(
    '/keyframes/:subfolder/:image',
    {
      config: { access: 'authenticated', media: true },
      schema: {
        tags: ['videos'],
        params: Type.Object({
          subfolder: Matching('^[A-Za-z0-9_-]{1,100}$', 'must be 1 to 100 letters, digits, _ or -'),
          image: KeyframeImageName,
        }),
        response: { 416: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { subfolder, image } = request.params;
      const video = await findVisibleVideo(request, eq(videos.subfolder, subfolder));
      if (!video.keyframeImagesPrefix) throw notFound('Keyframe image');
      return sendStored(
        request,
        reply,
        storage,
        `${video.keyframeImagesPrefix}/${image}`,
        'Keyframe image',
      );
    },
  );
};
