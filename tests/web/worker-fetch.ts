// The browser side of tests/support/worker-fetch-server.ts: answers for requests a worker sends
// with its own fetch, registered on the test server under a bearer token of their own.
import { commands } from 'vitest/browser';
import type { WorkerAnswer, WorkerCall } from '../support/worker-fetch-server.ts';

export type { WorkerAnswer, WorkerCall };

declare module 'vitest/browser' {
  interface BrowserCommands {
    serveToWorkers: (token: string, routes: Record<string, WorkerAnswer>) => Promise<void>;
    workerCalls: (token: string) => Promise<WorkerCall[]>;
    stopServingToWorkers: (token: string) => Promise<void>;
  }
}

export interface WorkerRoutes {
  /** The bearer token a request must carry to be answered from these routes. */
  token: string;
  /** The requests answered so far ("METHOD /path" and the Authorization header). */
  calls: () => Promise<WorkerCall[]>;
  /** Drops the routes and the requests still waiting on 'never'. */
  stop: () => Promise<void>;
}

/** Registers routes ("GET /path" → answer) for requests sent with `Bearer {token}`. */
export async function serveToWorkers(routes: Record<string, WorkerAnswer>): Promise<WorkerRoutes> {
  const token = `worker-fixture-${crypto.randomUUID()}`;
  await commands.serveToWorkers(token, routes);
  return {
    token,
    calls: () => commands.workerCalls(token),
    stop: () => commands.stopServingToWorkers(token),
  };
}
