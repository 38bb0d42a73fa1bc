// Owns one Comlink worker: starts it on the first call, turns a worker that fails to load (or is
// terminated) into rejected calls rather than ones that wait forever, and lets a call be aborted.
import * as Comlink from 'comlink';

export interface LazyWorker<Api> {
  /**
   * Runs a call on the worker, starting it first if needed. An abort terminates the worker (a
   * fresh one starts on the next call) and rejects with the signal's reason.
   */
  call<T>(invoke: (remote: Comlink.Remote<Api>) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Starts the worker now rather than at the first call. */
  start(): void;
  /** Stops the worker; the calls still waiting on it reject, and the next call starts a fresh one. */
  terminate(): void;
}

interface Running<Api> {
  worker: Worker;
  remote: Comlink.Remote<Api>;
  /** The rejecters of the calls in flight. Each call leaves the set when it settles: racing every
   *  call against one long-pending "failed" promise would keep a reaction per call forever. */
  waiting: Set<(reason: Error) => void>;
}

export function lazyWorker<Api>(name: string, create: () => Worker): LazyWorker<Api> {
  let running: Running<Api> | null = null;

  const stop = (current: Running<Api>, reason: Error) => {
    if (running === current) running = null;
    for (const reject of current.waiting) reject(reason);
    current.waiting.clear();
  };

  const start = (): Running<Api> => {
    if (running) return running;
    const worker = create();
    const current: Running<Api> = { worker, remote: Comlink.wrap<Api>(worker), waiting: new Set() };
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      stop(
        current,
        new Error(`the ${name} worker failed to start: ${event.message || 'script error'}`),
      );
    });
    running = current;
    return current;
  };

  const terminate = () => {
    const current = running;
    if (!current) return;
    current.remote[Comlink.releaseProxy]();
    current.worker.terminate();
    stop(current, new Error(`the ${name} worker was stopped`));
  };

  return {
    start: () => void start(),
    terminate,
    call: (invoke, signal) => {
      signal?.throwIfAborted();
      const current = start();
      return new Promise((resolve, reject) => {
        const abort = () => {
          reject(signal?.reason);
          terminate();
        };
        signal?.addEventListener('abort', abort, { once: true });
        current.waiting.add(reject);
        invoke(current.remote)
          .then(resolve, reject)
          .finally(() => {
            current.waiting.delete(reject);
            signal?.removeEventListener('abort', abort);
          });
      });
    },
  };
}
