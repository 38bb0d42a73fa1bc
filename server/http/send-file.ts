// Streams a stored object with HTTP range support (206, 416) — video seeking needs it.
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Storage } from '../storage/storage.ts';
import { notFound } from './errors.ts';
import { parseRange } from './range.ts';

const TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.txt': 'text/plain; charset=utf-8',
};

export async function sendStored(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: Storage,
  key: string,
  what: string,
) {
  const info = await storage.stat(key);
  if (!info) throw notFound(what);
  const range = parseRange(request.headers.range, info.size);
  reply
    .header('accept-ranges', 'bytes')
    .header('content-type', TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream')
    // Media is per-user evidence: browsers may keep it, shared caches must not.
    .header('cache-control', 'private, max-age=300');
  if (range.kind === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${info.size}`)
      .type('application/json')
      .send({ message: `Range not satisfiable; the file has ${info.size} bytes` });
  }
  if (range.kind === 'partial') {
    const { start, end } = range.range;
    return reply
      .status(206)
      .header('content-range', `bytes ${start}-${end}/${info.size}`)
      .header('content-length', end - start + 1)
      .send(storage.read(key, range.range));
  }
  return reply.header('content-length', info.size).send(storage.read(key));
}
