// The one module that talks to the hashing worker (workers/sha256.worker.ts).
import * as Comlink from 'comlink';
import type { Sha256WorkerApi } from '../../../workers/sha256-types.ts';
import { lazyWorker } from '../lazy-worker.ts';

const sha256 = lazyWorker<Sha256WorkerApi>(
  'SHA-256',
  () =>
    new Worker(new URL('../../../workers/sha256.worker.ts', import.meta.url), {
      type: 'module',
      name: 'sha256',
    }),
);

/** A SHA-256 fed part by part, in order; the digest is ready as soon as the last part is in. */
export interface RunningSha256 {
  update(part: Blob | ArrayBuffer): Promise<number>;
  digest(): Promise<string>;
}

export async function runningSha256(): Promise<RunningSha256> {
  const handle = await sha256.call((remote) => remote.begin());
  return {
    update: (part) =>
      sha256.call((remote) =>
        remote.update(handle, part instanceof ArrayBuffer ? Comlink.transfer(part, [part]) : part),
      ),
    digest: () => sha256.call((remote) => remote.digest(handle)),
  };
}

/** SHA-256 of parts start to end (Blobs are passed by reference, read in the worker). */
export const sha256OfParts = (parts: readonly Blob[]) =>
  sha256.call((remote) => remote.hashParts(parts));
