// The PGlite engine on its own thread (started by pglite-thread.ts). PGlite runs PostgreSQL in
// WebAssembly synchronously: on the server's main thread every query would stop HTTP handling for
// as long as it runs. Here the main thread talks to it over the PostgreSQL wire protocol (node-postgres
// with a MessagePort as its socket), so the same driver code serves PGlite and PostgreSQL.
//
// PGlite is one database session, so connections are served one at a time, in order; when one
// closes, its open transaction is rolled back and its prepared statements are dropped, so the next
// connection starts clean.
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { concatBytes } from './bytes.ts';

export type WorkerRequest =
  | { type: 'connect'; port: MessagePort }
  | { type: 'dump'; id: number }
  | { type: 'close'; id: number };
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'dumped'; id: number; archive?: ArrayBuffer; message?: string }
  | { type: 'closed'; id: number };

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const PROTOCOL_3 = 196608;
const TERMINATE = 0x58; // 'X'

function message(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  out[0] = type.charCodeAt(0);
  new DataView(out.buffer).setInt32(1, 4 + body.length);
  out.set(body, 5);
  return out;
}

const utf8 = new TextEncoder();
/** What a PostgreSQL server answers a StartupMessage with (no password: the port is private). */
const startupReply = concatBytes([
  message('R', new Uint8Array(4)), // AuthenticationOk
  ...[
    ['client_encoding', 'UTF8'],
    ['server_encoding', 'UTF8'],
    ['DateStyle', 'ISO, MDY'],
    ['integer_datetimes', 'on'],
    ['standard_conforming_strings', 'on'],
  ].map(([name, value]) => message('S', utf8.encode(`${name}\0${value}\0`))),
  message('Z', utf8.encode('I')), // ReadyForQuery, idle
]);

/** Serves one connection until it terminates or its port closes. */
function serve(db: PGlite, port: MessagePort): Promise<void> {
  return new Promise((resolve) => {
    let pending: Uint8Array = new Uint8Array(0);
    let started = false;
    let work = Promise.resolve();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      port.close();
      // Leave the session as a new connection expects it.
      work = work
        .then(() => db.exec('ROLLBACK; DEALLOCATE ALL'))
        .then(
          () => resolve(),
          () => resolve(),
        );
    };
    port.on('close', end);
    port.on('message', (chunk: Uint8Array) => {
      if (ended) return;
      pending = pending.length ? concatBytes([pending, chunk]) : chunk;
      // Hand PGlite only whole messages, all that have arrived, in one call.
      const view = new DataView(pending.buffer, pending.byteOffset, pending.byteLength);
      const whole: Uint8Array[] = [];
      let offset = 0;
      let terminate = false;
      while (!terminate) {
        if (!started) {
          if (pending.length - offset < 8) break;
          const length = view.getInt32(offset);
          if (pending.length - offset < length) break;
          const code = view.getInt32(offset + 4);
          offset += length;
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) port.postMessage(utf8.encode('N'));
          else if (code === PROTOCOL_3) {
            started = true;
            port.postMessage(startupReply.slice());
          } else terminate = true;
          continue;
        }
        if (pending.length - offset < 5) break;
        const length = 1 + view.getInt32(offset + 1);
        if (pending.length - offset < length) break;
        if (pending[offset] === TERMINATE) terminate = true;
        else whole.push(pending.subarray(offset, offset + length));
        offset += length;
      }
      pending = pending.slice(offset);
      if (whole.length) {
        const input = whole.length === 1 ? (whole[0] as Uint8Array) : concatBytes(whole);
        work = work.then(async () => {
          const output = await db.execProtocolRaw(input);
          // A copy of its exact size, transferred (a view would copy the buffer behind it).
          const reply = output.slice();
          if (!ended && reply.length) port.postMessage(reply, [reply.buffer]);
        });
      }
      if (terminate) end();
    });
  });
}

async function main() {
  const port = parentPort;
  if (!port) throw new Error('pglite-worker runs as a worker thread');
  let db: PGlite;
  try {
    db = await PGlite.create((workerData as { dataDir: string | null }).dataDir ?? undefined);
  } catch (error) {
    port.postMessage({ type: 'failed', message: String(error) } satisfies WorkerReply);
    return;
  }
  let connections = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    if (request.type === 'connect') {
      connections = connections.then(() => serve(db, request.port));
    } else if (request.type === 'dump') {
      // Not queued behind the connection: the pool keeps it open while idle.
      void (async () => {
        try {
          const blob = await db.dumpDataDir('gzip');
          const archive = await blob.arrayBuffer();
          port.postMessage({ type: 'dumped', id: request.id, archive } satisfies WorkerReply, [
            archive,
          ]);
        } catch (error) {
          port.postMessage({ type: 'dumped', id: request.id, message: String(error) });
        }
      })();
    } else if (request.type === 'close') {
      void connections.then(async () => {
        await db.close();
        port.postMessage({ type: 'closed', id: request.id } satisfies WorkerReply);
        port.close();
      });
    }
  });
  port.postMessage({ type: 'ready' } satisfies WorkerReply);
}

await main();
