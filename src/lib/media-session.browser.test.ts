import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fakeFetch } from '../../tests/web/render.tsx';
import { session, signIn, signOut } from '../stores/session.ts';
import { toasts } from '../stores/toasts.ts';
import {
  answerRequests,
  cutOffAnswer,
  errorAnswer,
  fileAnswer,
  watchSavedFiles,
} from './media-download.fixtures.ts';
import {
  downloadMediaLink,
  keepMediaCookieFresh,
  MEDIA_REFRESH_MS,
  refreshMediaCookie,
} from './media-session.ts';

const me = { id: 'u1', name: 'Ada Auditor', email: 'audit@example.com', roles: ['audit'] };

const testPage = window.location.href;
let stopWatching = () => {};

beforeEach(() => {
  signIn('token', me);
});

afterEach(async () => {
  stopWatching();
  vi.useRealTimers();
  await cleanup();
  vi.unstubAllGlobals();
  signOut();
  toasts.items = [];
  window.history.replaceState(null, '', testPage);
});

function answers(routes: Parameters<typeof fakeFetch>[0]) {
  const fake = fakeFetch(routes);
  vi.stubGlobal('fetch', fake.fetchImpl);
  return { calls: fake.calls };
}

const csvHeader = '\ufeffInspection,Start (UTC),End (UTC),Received (UTC),Line,Operator\r\n';
const busy = 'The server is busy with other reports, exports and checks; try again in a moment';

/** Answers these requests; records the files the page saves. */
function files(routes: Parameters<typeof answerRequests>[0]) {
  const sent = answerRequests(routes);
  const watch = watchSavedFiles();
  stopWatching = watch.stop;
  return { sent, saved: watch.saved, clicked: watch.clicked };
}

const toastTexts = () => toasts.items.map(({ summary, detail }) => ({ summary, detail }));

describe('downloadMediaLink', () => {
  it("fetches the file with the bearer token and saves the whole of it under the server's name", async () => {
    const rows = Array.from({ length: 3 }, (_, i) => `r${i},a,b,c,Line ${i},Ada\r\n`);
    const { sent, saved, clicked } = files({
      'GET /api/reports.csv': () => {
        // A streamed body, in chunks, as the server sends a large export.
        const chunks = [csvHeader, ...rows].map((chunk) => new TextEncoder().encode(chunk));
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            const chunk = chunks.shift();
            if (chunk) controller.enqueue(chunk);
            else controller.close();
          },
        });
        return fileAnswer('text/csv; charset=utf-8', 'inspection-reports.csv', body);
      },
    });
    await expect(downloadMediaLink('/api/reports.csv?status=approved')).resolves.toBe(true);
    // No renewal of the media cookie first: the bearer token goes with the request.
    expect(sent).toEqual([{ key: 'GET /api/reports.csv', authorization: 'Bearer token' }]);
    await expect
      .poll(() => saved)
      .toEqual([
        {
          name: 'inspection-reports.csv',
          // Byte for byte, the byte order mark included.
          bytes: new TextEncoder().encode(csvHeader + rows.join('')),
        },
      ]);
    expect(clicked).toEqual([expect.stringMatching(/^blob:/)]);
    // The link the page clicked is gone again.
    expect(document.querySelectorAll('a[download]')).toHaveLength(0);
    expect(toasts.items).toEqual([]);
  });

  it("says the server's message when it refuses, and saves nothing", async () => {
    const { saved, clicked } = files({ 'GET /api/reports.csv': () => errorAnswer(503, busy) });
    await expect(downloadMediaLink('/api/reports.csv')).resolves.toBe(false);
    expect(toastTexts()).toEqual([{ summary: 'Error', detail: `Failed to download: ${busy}` }]);
    expect(clicked).toEqual([]);
    expect(saved).toEqual([]);
    expect(session.loggedIn).toBe(true);
  });

  it('says the status of a refusal without a message (a proxy error page)', async () => {
    const { clicked } = files({
      'GET /api/reports/abc/pdf': () =>
        new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    });
    await expect(downloadMediaLink('/api/reports/abc/pdf')).resolves.toBe(false);
    expect(toasts.items.at(-1)?.detail).toBe(
      'Failed to download: the server answered 502 Bad Gateway',
    );
    expect(clicked).toEqual([]);
  });

  it('saves nothing of a file cut off mid-way, and says so', async () => {
    const { saved, clicked } = files({
      'GET /api/audit-log.csv': () => cutOffAnswer('text/csv', 'audit-trail.csv', csvHeader),
    });
    await expect(downloadMediaLink('/api/audit-log.csv')).resolves.toBe(false);
    expect(toasts.items.at(-1)?.detail).toBe(
      'The download broke off before the end of the file, so nothing was saved. Try again in a moment.',
    );
    expect(clicked).toEqual([]);
    expect(saved).toEqual([]);
  });

  it('says that the session ended, and goes to /login, instead of a silent failure', async () => {
    const { clicked } = files({
      'GET /api/audit-log.csv': () => errorAnswer(401, 'Invalid or expired token'),
    });
    await expect(downloadMediaLink('/api/audit-log.csv')).resolves.toBe(false);
    expect(clicked).toEqual([]);
    expect(toastTexts()).toEqual([
      {
        summary: 'Session expired',
        detail: 'Your session has ended. Sign in again to open videos, images and downloads.',
      },
    ]);
    // Spec §4: a 401 anywhere signs out and goes to /login.
    expect(session.loggedIn).toBe(false);
    expect(window.location.pathname).toBe('/login');
  });

  it('says when the server cannot be reached, and downloads nothing', async () => {
    const { clicked } = files({});
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(downloadMediaLink('/api/reports.csv')).resolves.toBe(false);
    expect(clicked).toEqual([]);
    expect(toasts.items.at(-1)?.detail).toBe(
      'The server could not be reached, so nothing was downloaded. Check the connection and try again.',
    );
    expect(session.loggedIn).toBe(true);
  });
});

describe('refreshMediaCookie', () => {
  it('says that the session ended, and goes to /login', async () => {
    answers({ 'GET /api/me': { status: 401, body: { message: 'Invalid or expired token' } } });
    await refreshMediaCookie();
    expect(toasts.items.at(-1)?.summary).toBe('Session expired');
    expect(session.loggedIn).toBe(false);
    expect(window.location.pathname).toBe('/login');
  });

  it('shares one renewal between calls made at once', async () => {
    const { calls } = answers({ 'GET /api/me': { body: me } });
    await Promise.all([refreshMediaCookie(), refreshMediaCookie(), refreshMediaCookie()]);
    expect(calls).toEqual(['GET /api/me']);
  });
});

describe('keepMediaCookieFresh', () => {
  it('renews on a timer while held, and stops when released', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const { calls } = answers({ 'GET /api/me': { body: me } });
    await refreshMediaCookie();
    calls.length = 0;

    const release = keepMediaCookieFresh();
    await vi.advanceTimersByTimeAsync(MEDIA_REFRESH_MS - 60_000);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toEqual(['GET /api/me']);
    // Renewed: not due again for another five minutes.
    await vi.advanceTimersByTimeAsync(MEDIA_REFRESH_MS - 60_000);
    expect(calls).toEqual(['GET /api/me']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toEqual(['GET /api/me', 'GET /api/me']);

    release();
    await vi.advanceTimersByTimeAsync(3 * MEDIA_REFRESH_MS);
    expect(calls).toHaveLength(2);
  });

  it('renews when the tab is shown or focused again after long enough, not before', async () => {
    /** Lets a renewal the page started finish (its answer marks the cookie renewed). */
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
    vi.useFakeTimers({ toFake: ['Date'] });
    const { calls } = answers({ 'GET /api/me': { body: me } });
    await refreshMediaCookie();
    calls.length = 0;
    const release = keepMediaCookieFresh();
    // A second holder shares the first one's watch: one call per event, not two.
    const releaseOther = keepMediaCookieFresh();

    window.dispatchEvent(new Event('focus'));
    document.dispatchEvent(new Event('visibilitychange'));
    await settle();
    expect(calls).toEqual([]);

    // Back after a quarter of an hour in another tab (timers in a hidden tab may not run).
    vi.setSystemTime(Date.now() + 15 * 60_000);
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(calls).toEqual(['GET /api/me']));
    await settle();
    window.dispatchEvent(new Event('focus'));
    await settle();
    expect(calls).toEqual(['GET /api/me']);

    release();
    vi.setSystemTime(Date.now() + 15 * 60_000);
    window.dispatchEvent(new Event('focus'));
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    await settle();
    releaseOther();
    vi.setSystemTime(Date.now() + 15 * 60_000);
    window.dispatchEvent(new Event('focus'));
    await settle();
    expect(calls).toHaveLength(2);
  });
});
