// Resumable video uploads under /api/uploads (tus 1.0.0: creation and expiration extensions).
// Fastify authenticates each request (bearer token, `config.access`) and then hands the raw
// request to @tus/server (server/services/video-uploads.ts), which reads the body as a stream.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createVideoUploads } from '../services/video-uploads.ts';
import { RECORDERS } from './capture.ts';

export const UPLOADS_PATH = '/api/uploads';

export const uploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const uploads = createVideoUploads(app.ctx, app.log, UPLOADS_PATH);
  // PATCH bodies stay unread here: @tus/server streams them into storage.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) =>
    done(null),
  );
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    await uploads.handle(request, reply.raw);
  };
  const doc = (description: string) => ({
    tags: ['uploads'],
    description: `${description} tus 1.0.0; see docs/capture.md. Errors are plain text.`,
  });

  app.post(
    '/uploads',
    {
      config: { access: RECORDERS },
      schema: doc(
        'Creates an upload for a video of the caller’s inspection: headers Tus-Resumable, Upload-Length (at most MAX_VIDEO_BYTES, else 413) and Upload-Metadata (videoId, sha256, filetype, filename). 201 with Location.',
      ),
    },
    handle,
  );
  app.head(
    '/uploads/:id',
    {
      config: { access: RECORDERS },
      schema: doc('The received offset (Upload-Offset) of the caller’s own upload.'),
    },
    handle,
  );
  app.patch(
    '/uploads/:id',
    {
      config: { access: RECORDERS },
      schema: doc(
        'Appends bytes at Upload-Offset (409 if it differs). The first bytes must be WebM or MP4 (415). The last chunk checks the SHA-256 (460 on mismatch, nothing kept).',
      ),
    },
    handle,
  );

  // Unfinished uploads older than UPLOAD_EXPIRY_HOURS are removed at start and then hourly.
  const sweep = () =>
    uploads.expire().catch((error) => app.log.error({ err: error }, 'upload expiry failed'));
  const timer = setInterval(sweep, 3600 * 1000);
  timer.unref();
  app.addHook('onReady', async () => {
    await sweep();
  });
  app.addHook('onClose', async () => clearInterval(timer));
};
