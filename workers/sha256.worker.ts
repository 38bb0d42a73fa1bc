// Incremental SHA-256 off the main thread (WebCrypto's digest is one-shot and cannot stream):
// hash-wasm, fed chunk by chunk as the recorder hands them over, so the digest is ready when the
// recording stops. Only exposes the API; src/lib/capture/sha256-client.ts owns the worker.
import * as Comlink from 'comlink';
import { createSHA256, type IHasher } from 'hash-wasm';
import type { Sha256WorkerApi } from './sha256-types.ts';

interface Running {
  hasher: IHasher;
  bytes: number;
  /** Parts are read asynchronously: each update waits for the one before, keeping their order. */
  tail: Promise<unknown>;
}

const running = new Map<number, Running>();
let nextHandle = 1;

const bytesOf = async (part: Blob | ArrayBuffer) =>
  new Uint8Array(part instanceof Blob ? await part.arrayBuffer() : part);

function get(handle: number): Running {
  const hash = running.get(handle);
  if (!hash) throw new Error(`no running hash ${handle}`);
  return hash;
}

const api: Sha256WorkerApi = {
  async begin() {
    const handle = nextHandle++;
    running.set(handle, {
      hasher: (await createSHA256()).init(),
      bytes: 0,
      tail: Promise.resolve(),
    });
    return handle;
  },
  update(handle, part) {
    const hash = get(handle);
    const done = hash.tail.then(async () => {
      const bytes = await bytesOf(part);
      hash.hasher.update(bytes);
      hash.bytes += bytes.length;
      return hash.bytes;
    });
    hash.tail = done.catch(() => {});
    return done;
  },
  async digest(handle) {
    const hash = get(handle);
    await hash.tail;
    running.delete(handle);
    return hash.hasher.digest('hex');
  },
  async hashParts(parts) {
    const hasher = (await createSHA256()).init();
    for (const part of parts) hasher.update(await bytesOf(part));
    return hasher.digest('hex');
  },
};

export type { Sha256WorkerApi };

Comlink.expose(api);
