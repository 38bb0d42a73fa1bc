// Answers for requests a worker sends itself, in browser tests. A test's stubbed `fetch` lives in
// the page and never reaches a worker (the path worker downloads keyframes files with its own
// fetch), so tests register answers here, on the test server, through browser commands; the
// worker's real request is answered and recorded. Each registration is found by its bearer token,
// so test files running side by side never see each other's answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'vite';
import type { BrowserCommand } from 'vitest/node';

/**
 * One answer: a status (200 unless given) with a text body, or a failure: 'network-error' (the
 * connection is dropped before any answer), 'cut' (the headers and half the body, then dropped),
 * 'never' (no answer until the client goes away).
 */
export type WorkerAnswer =
  | { status?: number; statusText?: string; body?: string; kind?: undefined }
  | { kind: 'network-error' }
  | { kind: 'never' }
  | { kind: 'cut'; body: string };

/** A request as the server saw it: "METHOD /path" and its Authorization header. */
export interface WorkerCall {
  key: string;
  authorization: string | null;
}

interface Registration {
  routes: Record<string, WorkerAnswer>;
  calls: WorkerCall[];
  pending: Set<ServerResponse>;
}

const registrations = new Map<string, Registration>();

const tokenOf = (request: IncomingMessage) =>
  /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? null;

function answer(response: ServerResponse, route: WorkerAnswer, pending: Set<ServerResponse>) {
  if (route.kind === 'network-error') {
    response.socket?.destroy();
  } else if (route.kind === 'never') {
    pending.add(response);
    response.on('close', () => pending.delete(response));
  } else if (route.kind === 'cut') {
    const bytes = Buffer.from(route.body);
    response.writeHead(200, { 'Content-Length': String(bytes.length) });
    response.write(bytes.subarray(0, bytes.length >> 1), () => response.socket?.destroy());
  } else {
    const bytes = Buffer.from(route.body ?? '');
    response.writeHead(route.status ?? 200, route.statusText, {
      'Content-Type': 'text/plain',
      'Content-Length': String(bytes.length),
    });
    response.end(bytes);
  }
}

/** Answers requests that carry a registered token; every other request goes on to Vite. */
export const workerFetchFixtures = (): Plugin => ({
  name: 'worker-fetch-fixtures',
  configureServer(server) {
    server.middlewares.use((request, response, next) => {
      const token = tokenOf(request);
      const registration = token === null ? undefined : registrations.get(token);
      if (registration === undefined) return next();
      const key = `${request.method} ${new URL(request.url ?? '/', 'http://test').pathname}`;
      registration.calls.push({ key, authorization: request.headers.authorization ?? null });
      const route = registration.routes[key];
      if (route === undefined) {
        response.writeHead(500, { 'Content-Type': 'text/plain' });
        response.end(`Unexpected request in test: ${key}`);
        return;
      }
      answer(response, route, registration.pending);
    });
  },
});

const serveToWorkers: BrowserCommand<[token: string, routes: Record<string, WorkerAnswer>]> = (
  _context,
  token,
  routes,
) => {
  registrations.set(token, { routes, calls: [], pending: new Set() });
};

const workerCalls: BrowserCommand<[token: string]> = (_context, token) =>
  registrations.get(token)?.calls ?? [];

const stopServingToWorkers: BrowserCommand<[token: string]> = (_context, token) => {
  for (const response of registrations.get(token)?.pending ?? []) response.socket?.destroy();
  registrations.delete(token);
};

/** The browser commands of these fixtures (tests/web/worker-fetch.ts calls them). */
export const workerFetchCommands = { serveToWorkers, workerCalls, stopServingToWorkers };
