// The media cookie (`lc_media`, docs/server.md "Media without a bearer header") lets <video>,
// <img> and download links load files without a bearer header. It lives 15 minutes and the server
// renews it only as a side effect of the app's API calls, so a page that only shows links or
// plays a video can outlive it: a download would then answer 401 and fail without a word.
// This module is the one place that keeps it fresh (docs/web-app.md "Media cookie"):
// - a download link renews it first, then follows the link (downloadMediaLink);
// - a page showing media holds it fresh while mounted: every few minutes while the page is
//   visible, and when the tab is shown or focused again after that long (keepMediaCookieFresh);
// - a session that has ended says so and goes to /login, instead of a download failing silently.
import { showToast, toastError, toastLife } from '../stores/toasts.ts';
import { ApiError, api } from './api-client.ts';

/**
 * How long a renewed cookie is taken as fresh: a third of its default 15-minute life, so a
 * cookie renewed now still has two thirds of its life when the next renewal is due. A
 * MEDIA_TOKEN_TTL_SECONDS below 10 minutes wants this shorter.
 */
export const MEDIA_REFRESH_MS = 5 * 60_000;
/** How often a page holding the cookie fresh looks whether it is due. */
const CHECK_EVERY_MS = 30_000;

export const mediaSessionText = {
  expiredTitle: 'Session expired',
  expired: 'Your session has ended. Sign in again to open videos, images and downloads.',
  unreachable:
    'The server could not be reached, so nothing was downloaded. Check the connection and try again.',
} as const;

export type MediaCookieState = 'fresh' | 'signed-out' | 'unreachable';

/**
 * When the cookie was last renewed. The app renews it when it starts (login and the session
 * restore both set it), so module load counts as a renewal.
 */
let renewedAt = Date.now();
let renewing: Promise<MediaCookieState> | null = null;

/**
 * Renews the media cookie with GET /api/me, which sets it afresh for the session of the bearer
 * token (server/routes/auth.ts). One call at a time: callers meanwhile share its answer.
 * A 401 means the session itself has ended: like every 401 (spec §4) it signs out and goes to
 * /login, and this says why.
 */
export function refreshMediaCookie(): Promise<MediaCookieState> {
  renewing ??= api
    .get('/api/me')
    .then(
      (): MediaCookieState => {
        renewedAt = Date.now();
        return 'fresh';
      },
      (error: unknown): MediaCookieState => {
        if (error instanceof ApiError && error.status === 401) {
          showToast({
            severity: 'warn',
            summary: mediaSessionText.expiredTitle,
            detail: mediaSessionText.expired,
            life: toastLife.long,
          });
          return 'signed-out';
        }
        return 'unreachable';
      },
    )
    .finally(() => {
      renewing = null;
    });
  return renewing;
}

/**
 * Follows a link to a file the server sends as a download (a PDF, a CSV), after renewing the
 * media cookie: an idle page's cookie may have run out. Answers whether the download started.
 */
export async function downloadMediaLink(href: string): Promise<boolean> {
  const state = await refreshMediaCookie();
  if (state === 'unreachable') toastError(mediaSessionText.unreachable);
  if (state !== 'fresh') return false;
  // A link of our own, not the one clicked: clicking that again would only come back here.
  const link = document.createElement('a');
  link.href = href;
  link.download = '';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  return true;
}

function refreshIfDue(): void {
  if (document.visibilityState !== 'visible') return;
  if (Date.now() - renewedAt < MEDIA_REFRESH_MS) return;
  void refreshMediaCookie();
}

let holders = 0;
let stopWatching: (() => void) | null = null;

/**
 * Keeps the media cookie fresh while the caller (a page or component showing media) is mounted:
 * `useEffect(keepMediaCookieFresh, [])`. Answers the release. Several holders share one timer.
 */
export function keepMediaCookieFresh(): () => void {
  holders += 1;
  if (holders === 1) {
    const timer = setInterval(refreshIfDue, CHECK_EVERY_MS);
    document.addEventListener('visibilitychange', refreshIfDue);
    window.addEventListener('focus', refreshIfDue);
    stopWatching = () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', refreshIfDue);
      window.removeEventListener('focus', refreshIfDue);
    };
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (holders === 0) {
      stopWatching?.();
      stopWatching = null;
    }
  };
}
