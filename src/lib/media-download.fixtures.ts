import { vi } from 'vitest';
import { unexpectedRequest } from '../../tests/web/render.tsx';

/** The browser's own fetch, taken before a test stubs it: it reads the saved files' object URLs. */
const browserFetch = window.fetch.bind(window);

/** A request the page sent: "METHOD path" and its Authorization header. */
export interface SentRequest {
  key: string;
  authorization: string | null;
}

/**
 * Stubs fetch with answers built per request by "METHOD path" (a fresh Response each time: a body
 * is read once; a promise answers when the test says); anything unlisted fails the test at cleanup().
 */
export function answerRequests(
  routes: Record<string, () => Response | Promise<Response>>,
): SentRequest[] {
  const sent: SentRequest[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), window.location.origin);
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    sent.push({ key, authorization: new Headers(init?.headers).get('Authorization') });
    const route = routes[key];
    return route ? route() : unexpectedRequest(key);
  });
  return sent;
}

/** A file answer as the server sends it (server/http/download.ts). */
export function fileAnswer(type: string, filename: string, body: BodyInit): Response {
  return new Response(body, {
    headers: { 'Content-Type': type, 'Content-Disposition': `attachment; filename="${filename}"` },
  });
}

/** A file answer whose body breaks off after `first`, as when the server fails mid-stream. */
export function cutOffAnswer(type: string, filename: string, first: string): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
    },
    pull(controller) {
      controller.error(new TypeError('network error'));
    },
  });
  return fileAnswer(type, filename, body);
}

/** The server's JSON error answer (server/http/errors.ts). */
export function errorAnswer(status: number, message: string): Response {
  return new Response(JSON.stringify({ message }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** A file the page saved: the name it suggested and the bytes behind its object URL. */
export interface SavedFile {
  name: string;
  bytes: Uint8Array;
}

/**
 * Records each file the page saves (a click on an `<a download>` to an object URL that nothing
 * prevented), with its contents, and stops the browser's own download: the test page stays.
 * Listens last (window, bubbling), so a link whose own handler took the click is not counted.
 */
export function watchSavedFiles() {
  const saved: SavedFile[] = [];
  const clicked: string[] = [];
  const onClick = (event: MouseEvent) => {
    const link = event.target;
    if (!(link instanceof HTMLAnchorElement) || !link.hasAttribute('download')) return;
    if (event.defaultPrevented) return;
    event.preventDefault();
    clicked.push(link.href);
    const name = link.download;
    void browserFetch(link.href)
      .then((answer) => answer.bytes())
      .then((bytes) => saved.push({ name, bytes }));
  };
  window.addEventListener('click', onClick);
  return {
    saved,
    /** Every download link followed, object URL or not (a link to the server would be a bug). */
    clicked,
    stop: () => window.removeEventListener('click', onClick),
  };
}
