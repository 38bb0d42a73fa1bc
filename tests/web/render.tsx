import type { ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
// The app's stylesheet, so popovers lay out (and fit the viewport) as they do in the app.
import '../../src/styles/app.css';

const mounted: Root[] = [];

/**
 * Renders into a fresh container (vitest-browser-react is not installed); cleanup() unmounts.
 * No act(): the tests wait for what the user would see with expect.element, which retries.
 */
export async function render(ui: ReactNode): Promise<HTMLElement> {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  mounted.push(root);
  root.render(ui);
  await new Promise(requestAnimationFrame);
  return container;
}

export async function cleanup(): Promise<void> {
  for (const root of mounted.splice(0)) {
    root.unmount();
  }
  document.body.innerHTML = '';
}

/** A fetch stand-in answering JSON by "METHOD path"; anything unlisted fails the test loudly. */
export function fakeFetch(routes: Record<string, { status?: number; body?: unknown }>) {
  const calls: string[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), window.location.origin);
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    calls.push(key);
    const route = routes[key];
    if (!route) throw new Error(`Unexpected request in test: ${key}`);
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
