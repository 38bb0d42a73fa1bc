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
//
// JavaScript, typed by JSDoc and checked by tsc: Node starts it without tsx's loader, which cost
// each start of the embedded database about 1.5 s of CPU (docs/server.md, Performance).
/** @import { PgliteThreadData, WorkerReply, WorkerRequest } from './pglite-thread.ts' */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { concatBytes } from './bytes.js';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const PROTOCOL_3 = 196608;
const TERMINATE = 0x58; // 'X'
const PARSE = 0x50; // 'P'

/**
 * @param {string} type
 * @param {Uint8Array} body
 */
function message(type, body) {
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

/**
 * One client connection: its port, bytes not yet a whole message, its named statements.
 * @typedef {{ port: import('node:worker_threads').MessagePort, pending: Uint8Array, started: boolean, closed: boolean, statements: Set<string> }} Connection
 */

/**
 * A batch of whole messages from one connection, or that connection's end.
 * @typedef {{ connection: Connection, input: Uint8Array } | { connection: Connection, end: true }} Task
 */

/**
 * Runs the connections' message batches on the one PGlite session in arrival order. A batch
 * that leaves the session inside a transaction (or mid-way through an extended query) makes its
 * connection the owner: until the owner's output ends with ReadyForQuery "idle", only the
 * owner's batches run, as PGlite's own transaction lock does for its query() callers.
 * @param {PGlite} db
 */
function createScheduler(db) {
  /** @type {Task[]} */
  const tasks = [];
  /** @type {Connection | null} */
  let owner = null;
  /** @type {Promise<void> | null} */
  let running = null;

  /** @param {Task} task */
  const run = async (task) => {
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
    /** @type {Uint8Array<ArrayBuffer>[]} */
    const chunks = [];
    await db.execProtocolRawStream(task.input, {
      // The file systems this worker opens (a Node directory, or memory) write through at once:
      // their sync is empty, and skipping PGlite's call to it saves a mutex round per batch.
      syncToFs: false,
      onRawData: (chunk) => chunks.push(chunk.slice()),
    });
    // One buffer of the answer's exact size, transferred (a view would copy the buffer behind it).
    const reply =
      chunks.length === 1
        ? /** @type {Uint8Array<ArrayBuffer>} */ (chunks[0])
        : concatBytes(chunks);
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
    /** @param {Task} task */
    schedule(task) {
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

/**
 * Reads a connection's bytes into whole messages and schedules them as one batch.
 * @param {import('node:worker_threads').MessagePort} port
 * @param {(task: Task) => void} schedule
 */
function serve(port, schedule) {
  /** @type {Connection} */
  const connection = {
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
  port.on('message', (/** @type {Uint8Array} */ chunk) => {
    if (connection.closed) return;
    const pending = connection.pending.length ? concatBytes([connection.pending, chunk]) : chunk;
    const view = new DataView(pending.buffer, pending.byteOffset, pending.byteLength);
    /** @type {Uint8Array[]} */
    const whole = [];
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
      const input = whole.length === 1 ? /** @type {Uint8Array} */ (whole[0]) : concatBytes(whole);
      schedule({ connection, input });
    }
    if (terminate) end();
  });
}

async function main() {
  const port = parentPort;
  if (!port) throw new Error('pglite-worker runs as a worker thread');
  /** @type {PGlite} */
  let db;
  /** @param {WorkerReply} reply @param {ArrayBuffer[]} [transfer] */
  const reply = (reply, transfer) => port.postMessage(reply, transfer);
  try {
    const { dataDir, start, engine } = /** @type {PgliteThreadData} */ (workerData);
    db = await PGlite.create({
      dataDir: dataDir ?? undefined,
      loadDataDir: start ? new Blob([start]) : undefined,
      // Compiled once per process (pglite-thread.ts): each start skips compiling 9 MB of WebAssembly.
      pgliteWasmModule: engine?.wasmModule,
      fsBundle: engine ? new Blob([engine.fsBundle]) : undefined,
    });
  } catch (error) {
    reply({ type: 'failed', message: String(error) });
    return;
  }
  const scheduler = createScheduler(db);
  port.on('message', (/** @type {WorkerRequest} */ request) => {
    if (request.type === 'connect') {
      serve(request.port, scheduler.schedule);
    } else if (request.type === 'dump') {
      void (async () => {
        try {
          const blob = await db.dumpDataDir('gzip');
          const archive = await blob.arrayBuffer();
          reply({ type: 'dumped', id: request.id, archive }, [archive]);
        } catch (error) {
          reply({ type: 'dumped', id: request.id, message: String(error) });
        }
      })();
    } else if (request.type === 'close') {
      void (async () => {
        await scheduler.drained();
        await db.close();
        reply({ type: 'closed', id: request.id });
        port.close();
      })();
    }
  });
  reply({ type: 'ready' });
}

await main();
