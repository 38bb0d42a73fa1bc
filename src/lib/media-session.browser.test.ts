import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchDownloads } from '../../tests/web/downloads.ts';
import { cleanup, fakeFetch } from '../../tests/web/render.tsx';
import { session, signIn, signOut } from '../stores/session.ts';
import { toasts } from '../stores/toasts.ts';
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
  const watch = watchDownloads(fake.calls);
  stopWatching = watch.stop;
  return { calls: fake.calls, downloads: watch.downloads };
}

describe('downloadMediaLink', () => {
  it('renews the media cookie with GET /api/me, then downloads', async () => {
    const { calls, downloads } = answers({ 'GET /api/me': { body: me } });
    await expect(downloadMediaLink('/api/reports/abc/pdf')).resolves.toBe(true);
    expect(downloads).toEqual([{ href: '/api/reports/abc/pdf', callsBefore: ['GET /api/me'] }]);
    expect(calls).toEqual(['GET /api/me']);
    // The link the page clicked is gone again.
    expect(document.querySelectorAll('a[download]')).toHaveLength(0);
  });

  it('says that the session ended, and goes to /login, instead of a silent failure', async () => {
    const { downloads } = answers({
      'GET /api/me': { status: 401, body: { message: 'Invalid or expired token' } },
    });
    await expect(downloadMediaLink('/api/audit-log.csv')).resolves.toBe(false);
    expect(downloads).toEqual([]);
    expect(toasts.items.map(({ summary, detail }) => ({ summary, detail }))).toEqual([
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
    const { downloads } = answers({});
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(downloadMediaLink('/api/reports.csv')).resolves.toBe(false);
    expect(downloads).toEqual([]);
    expect(toasts.items.at(-1)?.detail).toBe(
      'The server could not be reached, so nothing was downloaded. Check the connection and try again.',
    );
    expect(session.loggedIn).toBe(true);
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
