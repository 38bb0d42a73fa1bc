// The media cookie (`lc_media`, docs/server.md "Media without a bearer header") lets <video> and
// <img> load files without a bearer header, as does a download link opened in a new tab or saved
// from the context menu. It lives 15 minutes and the server renews it only as a side effect of
// the app's API calls, so a page that only shows media or links can outlive it. This module is
// the one place that keeps it fresh (docs/sessions.md "Media cookie"):
// - a page showing media holds it fresh while mounted: every few minutes while the page is
//   visible, and when the tab is shown or focused again after that long (keepMediaCookieFresh);
// - a session that has ended says so and goes to /login, instead of media failing silently.
// A click on a download link fetches the file with the bearer token instead (downloadMediaLink).
import { storedAccessToken } from '../stores/session.ts';
import { showToast, toastError, toastLife } from '../stores/toasts.ts';
import { ApiError, api, endSession, serverMessageOf } from './api-client.ts';

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
  /** Followed by the server's message, as every refusal is said (docs/web-app.md "Toasts"). */
  failed: 'Failed to download',
  cutOff:
    'The download broke off before the end of the file, so nothing was saved. Try again in a moment.',
} as const;

/**
 * When the cookie was last renewed. The app renews it when it starts (login and the session
 * restore both set it), so module load counts as a renewal.
 */
let renewedAt = Date.now();
let renewing: Promise<void> | null = null;

/** Spec §4: an ended session signs out and goes to /login; this says why. */
function sayExpired(): void {
  showToast({
    severity: 'warn',
    summary: mediaSessionText.expiredTitle,
    detail: mediaSessionText.expired,
    life: toastLife.long,
  });
}

/**
 * Renews the media cookie with GET /api/me, which sets it afresh for the session of the bearer
 * token (server/routes/auth.ts). One call at a time: callers meanwhile share it. A 401 means the
 * session itself has ended: like every 401 (spec §4) it signs out and goes to /login, and this
 * says why. A call the network lost is tried again when next due.
 */
export function refreshMediaCookie(): Promise<void> {
  renewing ??= api
    .get('/api/me')
    .then(
      () => {
        renewedAt = Date.now();
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 401) sayExpired();
      },
    )
    .finally(() => {
      renewing = null;
    });
  return renewing;
}

/** How long a saved file's object URL lives: the browser reads it after the click returns. */
const SAVE_URL_LIFE_MS = 60_000;

/**
 * Downloads a file the server sends as an attachment (a PDF, a CSV) under the server's name;
 * answers whether it was saved. Fetched, not an `<a download>` to the URL, which saved a refusal
 * (503 busy, 403, 404) as a broken 'pdf.json' the page never saw: a refusal shows the server's
 * message, and a body cut off mid-way (the server failed after its headers) rejects `blob()`, so
 * only a whole file is saved. The blob sits in the browser's blob store, not the page's heap: a
 * 60 MB CSV holds about 60 MB until its URL is revoked (docs/sessions.md "Downloads").
 */
export async function downloadMediaLink(href: string): Promise<boolean> {
  const token = storedAccessToken();
  let response: Response;
  try {
    response = await fetch(href, {
      headers: token ? { Accept: '*/*', Authorization: `Bearer ${token}` } : { Accept: '*/*' },
    });
  } catch {
    toastError(mediaSessionText.unreachable);
    return false;
  }
  if (response.status === 401) {
    sayExpired();
    endSession();
    return false;
  }
  if (!response.ok) {
    const reason =
      serverMessageOf(await response.text().catch(() => '')) ??
      `the server answered ${response.status} ${response.statusText}`.trim();
    toastError(`${mediaSessionText.failed}: ${reason}`);
    return false;
  }
  let file: Blob;
  try {
    file = await response.blob();
  } catch {
    toastError(mediaSessionText.cutOff);
    return false;
  }
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response, href);
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), SAVE_URL_LIFE_MS);
  return true;
}

/** The server's file name (Content-Disposition `filename`), else the URL's last segment. */
function fileNameOf(response: Response, href: string): string {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const named = /filename=(?:"([^"]*)"|([^;\s]+))/i.exec(disposition);
  return (
    named?.[1] ?? named?.[2] ?? new URL(href, window.location.href).pathname.split('/').pop() ?? ''
  );
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
