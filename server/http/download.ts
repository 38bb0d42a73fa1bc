import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { inTurn } from './heavy-work.ts';

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

/**
 * Streams a CSV export in a heavy-work turn that lasts until its last byte has gone, so exports
 * at once stay bounded however long each takes. `recordCopy` (the export's audit entry) runs in
 * the turn, just before the first byte: a request refused as busy leaves no entry.
 */
export async function sendCsvInTurn(
  app: FastifyInstance,
  reply: FastifyReply,
  filename: string,
  chunks: AsyncIterable<string>,
  recordCopy: () => Promise<void>,
): Promise<FastifyReply> {
  const csv = Readable.from(chunks);
  await inTurn(app, async () => {
    await recordCopy();
    sendDownload(reply, 'text/csv; charset=utf-8', filename, csv);
    await finished(reply.raw);
  });
  return reply;
}
