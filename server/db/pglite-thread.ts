// Starts PGlite on a worker thread (pglite-worker.js) and gives node-postgres a socket to it: a
// Duplex over a MessagePort. Queries then run beside the event loop instead of on it
// (docs/server.md, Performance).
import { readFile } from 'node:fs/promises';
import { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { concatBytes } from './bytes.js';

export type WorkerRequest =
  | { type: 'connect'; port: MessagePort }
  | { type: 'dump'; id: number }
  | { type: 'close'; id: number };
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'dumped'; id: number; archive?: ArrayBuffer; message?: string }
  | { type: 'closed'; id: number };

/** The socket node-postgres writes to: bytes go to the worker's port, its answers come back. */
class PortSocket extends Duplex {
  private queued: Buffer[] = [];

  constructor(private readonly port: MessagePort) {
    super();
    port.on('message', (bytes: Uint8Array) => {
      this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    });
    port.on('close', () => {
      this.push(null);
      this.destroy();
    });
  }

  // The net.Socket methods node-postgres calls.
  connect() {
    process.nextTick(() => this.emit('connect'));
    return this;
  }
  setNoDelay() {
    return this;
  }
  setKeepAlive() {
    return this;
  }
  ref() {
    this.port.ref();
    return this;
  }
  unref() {
    this.port.unref();
    return this;
  }

  override _read() {}

  // node-postgres writes a query as several messages in one go: send them as one batch.
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error) => void) {
    if (this.queued.length === 0) queueMicrotask(() => this.flush());
    this.queued.push(chunk);
    done();
  }

  private flush() {
    if (this.queued.length === 0) return;
    // A new buffer of the exact size, transferred: posting a view would copy the whole buffer
    // behind it (node-postgres writes views of a larger one).
    const batch = concatBytes(this.queued);
    this.queued = [];
    this.port.postMessage(batch, [batch.buffer]);
  }

  override _final(done: (error?: Error) => void) {
    this.flush();
    this.port.close();
    done();
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void) {
    this.port.close();
    done(error);
  }
}

export interface PgliteThread {
  /** A new connection (node-postgres's `stream` option); the worker serves one at a time. */
  connect(): Duplex;
  /** PGlite's data directory as a gzipped tar (`new PGlite({ loadDataDir })` restores it). */
  dump(): Promise<ArrayBuffer>;
  close(): Promise<void>;
}

/** What the worker opens: `dataDir`, or in memory when null; an empty one from `start` if given. */
export interface PgliteThreadData {
  dataDir: string | null;
  /** A dump (`dump()`) to start an empty database from. */
  start?: Uint8Array<ArrayBuffer>;
  /** Bounds the thread's JavaScript heap (old generation, MB); the engine's memory is apart. */
  heapLimitMb?: number;
  /** Set by startPgliteThread. */
  engine?: PgliteEngine;
}

/** PostgreSQL's WebAssembly, compiled, and the file-system bundle it starts from. */
export interface PgliteEngine {
  wasmModule: WebAssembly.Module;
  fsBundle: Uint8Array<ArrayBuffer>;
}

const engineFile = (name: string) =>
  readFile(fileURLToPath(import.meta.resolve(`@electric-sql/pglite/${name}`)));

let engine: Promise<PgliteEngine> | null = null;

/** Compiled once per process and handed to every thread: each start saves compiling 9 MB. */
function pgliteEngine(): Promise<PgliteEngine> {
  engine ??= Promise.all([engineFile('pglite.wasm'), engineFile('pglite.data')]).then(
    async ([wasm, data]) => ({
      wasmModule: await WebAssembly.compile(wasm),
      fsBundle: new Uint8Array(data),
    }),
  );
  // A failure (an unreadable file) is not kept: the next start tries again.
  engine.catch(() => {
    engine = null;
  });
  return engine;
}

/** Opens PGlite on its own thread. */
export async function startPgliteThread(data: PgliteThreadData): Promise<PgliteThread> {
  const worker = new Worker(new URL('./pglite-worker.js', import.meta.url), {
    workerData: { ...data, engine: await pgliteEngine() } satisfies PgliteThreadData,
    // Not the parent's flags: `--import tsx` would start tsx's loader in the thread too.
    execArgv: [],
    resourceLimits: data.heapLimitMb ? { maxOldGenerationSizeMb: data.heapLimitMb } : undefined,
  });
  const waiting = new Map<number, (reply: WorkerReply) => void>();
  let nextId = 1;
  let failure: Error | null = null;
  const failAll = (error: Error) => {
    failure ??= error;
    for (const settle of waiting.values()) settle({ type: 'failed', message: failure.message });
    waiting.clear();
  };
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the PGlite thread exited with ${code}`)));
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type === 'ready') resolve();
      else if (reply.type === 'failed') reject(new Error(reply.message));
      else waiting.get(reply.id)?.(reply);
    });
  });
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the PGlite thread exited with ${code}`)));

  const call = (type: 'dump' | 'close') =>
    new Promise<WorkerReply>((resolve) => {
      if (failure) return resolve({ type: 'failed', message: failure.message });
      const id = nextId++;
      waiting.set(id, (reply) => {
        waiting.delete(id);
        resolve(reply);
      });
      worker.postMessage({ type, id } satisfies WorkerRequest);
    });

  return {
    connect() {
      const { port1, port2 } = new MessageChannel();
      if (failure) {
        port1.close();
        port2.close();
      } else worker.postMessage({ type: 'connect', port: port2 } satisfies WorkerRequest, [port2]);
      return new PortSocket(port1);
    },
    async dump() {
      const reply = await call('dump');
      if (reply.type === 'dumped' && reply.archive) return reply.archive;
      throw new Error(`PGlite dump failed: ${'message' in reply ? reply.message : 'no archive'}`);
    },
    async close() {
      if (failure) return;
      await call('close');
      await worker.terminate();
    },
  };
}
