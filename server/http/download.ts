import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** A file answer (a route's typed reply only knows its JSON bodies). */
export function sendDownload(
  reply: FastifyReply,
  type: string,
  filename: string,
  body: string | Buffer | Readable,
) {
  return reply
    .type(type)
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(body);
}
