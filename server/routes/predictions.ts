import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { predictions, videos } from '../db/schema.ts';
import { errorResponses } from '../http/error-responses.ts';
import { Id } from '../schemas/common.ts';
import { Prediction } from '../schemas/predictions.ts';
import { findVisibleVideo } from '../services/videos.ts';

const errors = errorResponses;
const frameTime = (filename: string) => Number.parseFloat(filename);

export const predictionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/predictions/:videoId',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['videos'],
        params: Type.Object({ videoId: Id }),
        response: { 200: Type.Array(Prediction), ...errors },
      },
    },
    async (request) => {
      const video = await findVisibleVideo(request, eq(videos.id, request.params.videoId));
      const rows = await db.select().from(predictions).where(eq(predictions.videoId, video.id));
      // spec §7: sorted by the numeric value of the file name ("12.5.png" before "100.png").
      rows.sort((a, b) => frameTime(a.filename) - frameTime(b.filename));
      return rows.map((row) => ({
        _id: row.id,
        filename: row.filename,
        subfolder: row.subfolder,
        class_labels: row.classLabels,
        confs: row.confs,
        boxes_normalized: row.boxesNormalized,
      }));
    },
  );
};
