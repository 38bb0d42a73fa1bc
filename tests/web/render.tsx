import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { expect } from 'vitest';
// The app's stylesheet, so popovers lay out (and fit the viewport) as they do in the app.
import '../../src/styles/app.css';

const mounted: Root[] = [];

/** Requests that no route of the test answered, since the last cleanup(). */
const unexpected: string[] = [];

/**
 * Refuses a request the test's routes do not list, and fails the test at cleanup(): the app turns
 * a refused request into a toast or a log line, which no test would notice.
 */
export function unexpectedRequest(key: string): Promise<never> {
  unexpected.push(key);
  return Promise.reject(new Error(`Unexpected request in test: ${key}`));
}

/**
 * Renders into a fresh container (vitest-browser-react is not installed); cleanup() unmounts.
 * No act(): the tests wait for what the user would see with expect.element, which retries.
 * The first render is flushed synchronously, so its effects (key listeners above all) are in place
 * when render() returns: a key pressed right after it no longer races them.
 */
export async function render(ui: ReactNode): Promise<HTMLElement> {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  mounted.push(root);
  flushSync(() => root.render(ui));
  await new Promise(requestAnimationFrame);
  return container;
}

/**
 * Unmounts what render() mounted, and fails the test if it made an unlisted request. A soft
 * assertion: the rest of the test file's afterEach (sign-out, unstubbing) still runs.
 */
export async function cleanup(): Promise<void> {
  for (const root of mounted.splice(0)) {
    root.unmount();
  }
  document.body.innerHTML = '';
  expect
    .soft(unexpected.splice(0), 'requests the test made that its routes do not list')
    .toEqual([]);
}

export type FakeRoute = { status?: number; body?: unknown; lost?: boolean };

/** The sign-in page's public ask (is this a demo server?), answered 'no' unless a test lists it. */
const PUBLIC_ROUTES: Record<string, FakeRoute> = {
  'GET /api/instance': { body: { demo: false } },
};

/**
 * A fetch stand-in answering JSON by "METHOD path"; anything unlisted fails the test at cleanup().
 * A route `lost` gets no answer, as when the connection drops after the request left.
 */
export function fakeFetch(listed: Record<string, FakeRoute>) {
  const calls: string[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), window.location.origin);
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    calls.push(key);
    // Read at each call, not copied: a test changes `listed` to change what the server answers.
    const route = listed[key] ?? PUBLIC_ROUTES[key];
    if (!route) return unexpectedRequest(key);
    if (route.lost) throw new TypeError('Failed to fetch');
    return new Response(route.body === undefined ? null : JSON.stringify(route.body), {
      status: route.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  return { fetchImpl, calls };
}

/** An unsigned JWT with the given claims (the app decodes it without verifying). */
export function fakeToken(claims: object): string {
  // JSON as UTF-8, then base64url, as a real JWT is encoded.
  const encode = (value: object) =>
    btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}
