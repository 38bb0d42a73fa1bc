// Posts a recording to the ingestion API with a service account's API key; the server stores it,
// links it to the inspection (if given) and analyses it by itself (docs/analysis.md).
//
//   LC_API_KEY=lcsk_… node --import tsx scripts/post-video.ts \
//     --server http://localhost:8080 --line <lineClearanceId> [--inspection <id>] \
//     [--operator <userId>] [--recorded-at 2026-11-20T08:00:00Z] walk.mp4
//
// Prints the server's answer ({ videoId, sha256, size }) and checks the SHA-256 it computed.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';

const TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
};

async function main() {
  const { values, positionals } = parseArgs({
    options: {
      server: { type: 'string', default: 'http://localhost:8080' },
      line: { type: 'string' },
      inspection: { type: 'string' },
      operator: { type: 'string' },
      'recorded-at': { type: 'string' },
    },
    allowPositionals: true,
  });
  const file = positionals[0];
  const key = process.env.LC_API_KEY;
  if (!file || !values.line || !key) {
    throw new Error(
      'usage: LC_API_KEY=… post-video.ts --server URL --line ID [--inspection ID] [--operator ID] FILE',
    );
  }
  const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  const query = new URLSearchParams({ lineClearanceId: values.line });
  if (values.inspection) query.set('inspectionId', values.inspection);
  if (values.operator) query.set('operatorId', values.operator);
  if (values['recorded-at']) query.set('recordedAt', values['recorded-at']);

  const hash = createHash('sha256');
  const stream = fs.createReadStream(file);
  stream.on('data', (chunk) => hash.update(chunk));
  const response = await fetch(`${values.server}/api/ingest/videos?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': type },
    body: Readable.toWeb(stream) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const answer = await response.text();
  if (!response.ok) throw new Error(`the server answered ${response.status}: ${answer}`);
  const { sha256 } = JSON.parse(answer) as { sha256: string };
  if (sha256 !== hash.digest('hex')) throw new Error('the stored file differs from the sent one');
  console.log(answer);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
