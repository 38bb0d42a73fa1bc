// Owns one Comlink worker: starts it on the first call, and turns a worker that fails to load
// into a rejected call rather than one that waits forever.
import * as Comlink from 'comlink';

export interface LazyWorker<Api> {
  /** Runs a call on the worker, starting it first if needed. */
  call<T>(invoke: (remote: Comlink.Remote<Api>) => Promise<T>): Promise<T>;
  terminate(): void;
}

export function lazyWorker<Api>(name: string, create: () => Worker): LazyWorker<Api> {
  let running: { worker: Worker; remote: Comlink.Remote<Api>; failed: Promise<never> } | null =
    null;
  const start = () => {
    if (running) return running;
    const worker = create();
    const failed = new Promise<never>((_, reject) => {
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        if (running?.worker === worker) running = null;
        reject(new Error(`the ${name} worker failed to start: ${event.message || 'script error'}`));
      });
    });
    failed.catch(() => {});
    running = { worker, remote: Comlink.wrap<Api>(worker), failed };
    return running;
  };
  return {
    call: (invoke) => {
      const { remote, failed } = start();
      return Promise.race([invoke(remote), failed]);
    },
    terminate: () => {
      running?.worker.terminate();
      running = null;
    },
  };
}
