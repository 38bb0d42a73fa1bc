// The PGlite engine on its own thread (started by pglite-thread.ts). PGlite runs PostgreSQL in
// WebAssembly synchronously: on the server's main thread every query would stop HTTP handling for
// as long as it runs. Here the main thread talks to it over the PostgreSQL wire protocol (node-postgres
// with a MessagePort as its socket), so the same driver code serves PGlite and PostgreSQL.
//
// PGlite is one database session shared by the connections: their message batches run one at a
// time, in arrival order, and a connection inside a transaction has the session to itself until
// it ends (see createScheduler). So a query can be waiting at the worker while another runs, and
// the engine does not idle between them. When a connection closes, its open transaction is rolled
// back and its named statements are dropped.
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { concatBytes } from './bytes.ts';
import type { PgliteThreadData } from './pglite-thread.ts';

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
const PARSE = 0x50; // 'P'

function message(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  out[0] = type.charCodeAt(0);
  new DataView(out.buffer).setInt32(1, 4 + body.length);
  out.set(body, 5);
  return out;
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();
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

/** One client connection: its port, bytes not yet a whole message, its named statements. */
interface Connection {
  port: MessagePort;
  pending: Uint8Array;
  started: boolean;
  closed: boolean;
  statements: Set<string>;
}

/** A batch of whole messages from one connection, or that connection's end. */
type Task = { connection: Connection; input: Uint8Array } | { connection: Connection; end: true };

/**
 * Runs the connections' message batches on the one PGlite session in arrival order. A batch
 * that leaves the session inside a transaction (or mid-way through an extended query) makes its
 * connection the owner: until the owner's output ends with ReadyForQuery "idle", only the
 * owner's batches run, as PGlite's own transaction lock does for its query() callers.
 */
function createScheduler(db: PGlite) {
  const tasks: Task[] = [];
  let owner: Connection | null = null;
  let running: Promise<void> | null = null;

  const run = async (task: Task) => {
    const { connection } = task;
    if ('end' in task) {
      // Leave the session as the other connections expect it.
      const names = [...connection.statements].map(
        (n) => `DEALLOCATE "${n.replaceAll('"', '""')}"`,
      );
      const rollback = owner === connection ? ['ROLLBACK'] : [];
      if (owner === connection) owner = null;
      const cleanup = [...rollback, ...names].join('; ');
      if (cleanup) await db.exec(cleanup).catch(() => {});
      return;
    }
    // Not execProtocolRaw: its output callback also parses every answer into message objects
    // that it keeps (PGlite 0.5 resets that list only in execProtocol), so memory grew by the
    // size of every answer (about 67 kB per listed page) and garbage collection with it. The
    // stream variant hands over each chunk, a view into the engine's memory: copied once here.
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    await db.execProtocolRawStream(task.input, {
      // The file systems this worker opens (a Node directory, or memory) write through at once:
      // their sync is empty, and skipping PGlite's call to it saves a mutex round per batch.
      syncToFs: false,
      onRawData: (chunk) => chunks.push(chunk.slice()),
    });
    // One buffer of the answer's exact size, transferred (a view would copy the buffer behind it).
    const reply =
      chunks.length === 1 ? (chunks[0] as Uint8Array<ArrayBuffer>) : concatBytes(chunks);
    // ReadyForQuery ('Z', length 5, status) closes every complete answer; 'I' = no transaction.
    const idle =
      reply.length >= 6 && reply[reply.length - 6] === 0x5a && reply[reply.length - 1] === 0x49;
    owner = idle ? null : connection;
    if (!connection.closed && reply.length) connection.port.postMessage(reply, [reply.buffer]);
  };

  /** Runs what may run now; returns when the rest waits for an owner or there is nothing. */
  const pump = async () => {
    for (;;) {
      const index = owner ? tasks.findIndex((t) => t.connection === owner) : 0;
      const task = index >= 0 ? tasks.splice(index, 1)[0] : undefined;
      if (!task) return;
      await run(task).catch(() => {
        // The engine failed outside SQL's own errors: this connection cannot go on.
        if (owner === task.connection) owner = null;
        task.connection.port.close();
      });
    }
  };

  return {
    schedule(task: Task) {
      tasks.push(task);
      // Cleared in a later microtask than pump's last check, before any new message arrives.
      running ??= pump().finally(() => {
        running = null;
      });
    },
    /** Resolves when no batch runs (those of an owner's rivals may still wait). */
    drained: async () => {
      while (running) await running;
    },
  };
}

/** Reads a connection's bytes into whole messages and schedules them as one batch. */
function serve(port: MessagePort, schedule: (task: Task) => void) {
  const connection: Connection = {
    port,
    pending: new Uint8Array(0),
    started: false,
    closed: false,
    statements: new Set(),
  };
  const end = () => {
    if (connection.closed) return;
    connection.closed = true;
    port.close();
    schedule({ connection, end: true });
  };
  port.on('close', end);
  port.on('message', (chunk: Uint8Array) => {
    if (connection.closed) return;
    const pending = connection.pending.length ? concatBytes([connection.pending, chunk]) : chunk;
    const view = new DataView(pending.buffer, pending.byteOffset, pending.byteLength);
    const whole: Uint8Array[] = [];
    let offset = 0;
    let terminate = false;
    while (!terminate) {
      if (!connection.started) {
        if (pending.length - offset < 8) break;
        const length = view.getInt32(offset);
        if (pending.length - offset < length) break;
        const code = view.getInt32(offset + 4);
        offset += length;
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) port.postMessage(utf8.encode('N'));
        else if (code === PROTOCOL_3) {
          connection.started = true;
          port.postMessage(startupReply.slice());
        } else terminate = true;
        continue;
      }
      if (pending.length - offset < 5) break;
      const length = 1 + view.getInt32(offset + 1);
      if (pending.length - offset < length) break;
      const type = pending[offset];
      if (type === TERMINATE) terminate = true;
      else {
        if (type === PARSE) {
          // Parse names its statement first (empty: the unnamed one); dropped when this ends.
          const nameEnd = pending.indexOf(0, offset + 5);
          const name = utf8Decoder.decode(pending.subarray(offset + 5, nameEnd));
          if (name) connection.statements.add(name);
        }
        whole.push(pending.subarray(offset, offset + length));
      }
      offset += length;
    }
    connection.pending = pending.slice(offset);
    if (whole.length) {
      const input = whole.length === 1 ? (whole[0] as Uint8Array) : concatBytes(whole);
      schedule({ connection, input });
    }
    if (terminate) end();
  });
}

async function main() {
  const port = parentPort;
  if (!port) throw new Error('pglite-worker runs as a worker thread');
  let db: PGlite;
  try {
    const { dataDir, start } = workerData as PgliteThreadData;
    db = await PGlite.create({
      dataDir: dataDir ?? undefined,
      loadDataDir: start ? new Blob([start]) : undefined,
    });
  } catch (error) {
    port.postMessage({ type: 'failed', message: String(error) } satisfies WorkerReply);
    return;
  }
  const scheduler = createScheduler(db);
  port.on('message', (request: WorkerRequest) => {
    if (request.type === 'connect') {
      serve(request.port, scheduler.schedule);
    } else if (request.type === 'dump') {
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
      void (async () => {
        await scheduler.drained();
        await db.close();
        port.postMessage({ type: 'closed', id: request.id } satisfies WorkerReply);
        port.close();
      })();
    }
  });
  port.postMessage({ type: 'ready' } satisfies WorkerReply);
}

await main();
