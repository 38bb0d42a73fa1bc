// The upload baseline: a bare Node HTTP server that stores one PUT body as a file, hashing it
// (SHA-256) on the way and syncing it to disk, as the product's upload must. No protocol, no
// database, no checks. Run as its own process by bench/capture.bench.ts; prints its port.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const dir = process.argv[2];
if (!dir) throw new Error('usage: plain-put-server.ts <folder>');
let count = 0;

const server = http.createServer(async (request, response) => {
  if (request.method !== 'PUT') {
    response.writeHead(405).end();
    return;
  }
  const file = path.join(dir, `put-${count++}`);
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(request, hashing, fs.createWriteStream(file));
    const handle = await fs.promises.open(file, 'r');
    await handle.sync();
    await handle.close();
    const size = (await fs.promises.stat(file)).size;
    await fs.promises.rm(file);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ size, sha256: hash.digest('hex') }));
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
