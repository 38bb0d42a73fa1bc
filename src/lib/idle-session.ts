// Sign-out after inactivity (EU GMP Annex 11 §12, 21 CFR 11 logical access): a terminal left
// signed in is someone else's signature waiting to happen. The server's bearer token lives only
// the idle limit; while its user is active, this renews it (at most once a renewal period), and at
// the limit it signs out. Activity is input (pointer, keys, wheel, touch) and work in progress that
// needs none (a recording, a playing video). The user's tabs share the token and the time of the
// last activity through local storage, so activity in one keeps the others signed in, and a
// sign-out in one signs them all out.
import { proxy } from 'valtio';
import { navigate } from 'wouter/use-browser-location';
import {
  accessTokenKey,
  renewAccessToken,
  session,
  signOut,
  storedAccessToken,
} from '../stores/session.ts';
import type { RenewResponse } from '../types/api.ts';
import { ApiError, api, endSession, SIGNED_OUT_ELSEWHERE } from './api-client.ts';
import { logOut } from './log-out.ts';
import { loginPath, pageToReturnTo } from './login-return.ts';

/** Local storage: when the user was last active in any tab (milliseconds since the epoch). */
export const lastActivityKey = 'lastActivityAt';

const INPUT_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
/** Input closer together than this counts once (a wheel fires dozens of events a second). */
const MARK_EVERY_MS = 1000;
/** How often work in progress counts as activity. */
const WORK_TICK_MS = 15_000;
const MINUTE_MS = 60_000;

/** What the warning dialog shows. */
export const idleSession = proxy({
  /** Whether the sign-out is near (a minute, or half the limit when it is shorter). */
  warning: false,
  /** When the sign-out happens, unless there is activity (milliseconds since the epoch). */
  deadline: 0,
});

interface Tracking {
  limitMs: number;
  /** Renewals are at least this far apart: a minute, or a quarter of a shorter limit. */
  renewEveryMs: number;
  warnMs: number;
  /** This tab's last activity; other tabs' is in local storage. */
  lastActivity: number;
  /** When this tab or another last got a fresh token (0: not yet, renew at the first activity). */
  renewedAt: number;
  renewing: boolean;
  renewTimer: ReturnType<typeof setTimeout> | null;
  checkTimer: ReturnType<typeof setTimeout> | null;
  stop: () => void;
}

let tracking: Tracking | null = null;
/** Work in progress (recordings, playing videos) holding the session open. */
let holds = 0;
let workTimer: ReturnType<typeof setInterval> | null = null;

/**
 * Tracks activity for the signed-in session and signs out after `minutes` without any; answers
 * how to stop (sign-out, another user). The start counts as activity: a sign-in or a reload is
 * the user's doing, and renewing at once gives a restored session a token of full life.
 */
export function startIdleSession(minutes: number): () => void {
  stopIdleSession();
  const limitMs = minutes * MINUTE_MS;
  // While the warning shows, only its own answers count ('Stay signed in', ×, Escape): hiding it on
  // the Escape's way to Radix left the dialog under it topmost, and Radix closed that one (a form
  // with what was typed) instead. The warning is modal, so no other input reaches the page then.
  const onInput = () => {
    if (!idleSession.warning) markActivity();
  };
  const onStorage = (event: StorageEvent) => {
    if (!tracking) return;
    if (event.key === accessTokenKey && event.newValue) tracking.renewedAt = Date.now();
    if (event.key === lastActivityKey) schedule(tracking);
  };
  // A hidden tab's timers may run late: look again when it shows.
  const onVisible = () => {
    if (tracking && document.visibilityState === 'visible') check(tracking);
  };
  for (const name of INPUT_EVENTS) {
    window.addEventListener(name, onInput, { capture: true, passive: true });
  }
  window.addEventListener('storage', onStorage);
  document.addEventListener('visibilitychange', onVisible);
  const t: Tracking = {
    limitMs,
    renewEveryMs: Math.min(MINUTE_MS, limitMs / 4),
    warnMs: Math.min(MINUTE_MS, limitMs / 2),
    lastActivity: 0,
    renewedAt: 0,
    renewing: false,
    renewTimer: null,
    checkTimer: null,
    stop: () => {
      for (const name of INPUT_EVENTS) {
        window.removeEventListener(name, onInput, { capture: true });
      }
      window.removeEventListener('storage', onStorage);
      document.removeEventListener('visibilitychange', onVisible);
    },
  };
  tracking = t;
  markActivity();
  return () => {
    if (tracking === t) stopIdleSession();
  };
}

function stopIdleSession() {
  const t = tracking;
  if (!t) return;
  tracking = null;
  t.stop();
  if (t.checkTimer) clearTimeout(t.checkTimer);
  if (t.renewTimer) clearTimeout(t.renewTimer);
  idleSession.warning = false;
}

/**
 * Work in progress that needs no input (a recording, a playing video) counts as activity until
 * the answered function is called.
 */
export function keepSessionActive(): () => void {
  holds += 1;
  workTimer ??= setInterval(markActivity, WORK_TICK_MS);
  markActivity();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds -= 1;
    if (holds === 0 && workTimer) {
      clearInterval(workTimer);
      workTimer = null;
    }
    // The end of the work is its last activity.
    markActivity();
  };
}

/** A video counts as activity while it plays; answers how to stop watching it. */
export function keepActiveWhilePlaying(media: HTMLMediaElement): () => void {
  let release: (() => void) | null = null;
  const update = () => {
    const playing = !media.paused && !media.ended;
    if (playing && !release) release = keepSessionActive();
    if (!playing && release) {
      release();
      release = null;
    }
  };
  const events = ['play', 'playing', 'pause', 'ended', 'emptied'];
  for (const name of events) media.addEventListener(name, update);
  update();
  return () => {
    for (const name of events) media.removeEventListener(name, update);
    release?.();
  };
}

/** 'Stay signed in': activity, and a fresh token now rather than within the renewal period. */
export function staySignedIn(): void {
  const t = tracking;
  if (!t) return;
  noteActivity(t, true);
  if (t.renewTimer) clearTimeout(t.renewTimer);
  t.renewTimer = null;
  void renew(t);
  schedule(t);
}

function markActivity() {
  const t = tracking;
  if (!t || !noteActivity(t, false)) return;
  schedule(t);
}

/** Records this tab's activity for every tab and renews the token when due; false if too soon. */
function noteActivity(t: Tracking, always: boolean): boolean {
  const now = Date.now();
  if (!always && now - t.lastActivity < MARK_EVERY_MS) return false;
  t.lastActivity = now;
  localStorage.setItem(lastActivityKey, String(now));
  renewWhenDue(t);
  return true;
}

/** The last activity in any of the user's tabs. */
function lastActivity(t: Tracking): number {
  const shared = Number(localStorage.getItem(lastActivityKey));
  return Math.max(t.lastActivity, Number.isFinite(shared) ? shared : 0);
}

function check(t: Tracking) {
  if (tracking !== t) return;
  // A hidden tab's work timer may have run late: work in progress is activity whatever it said.
  if (holds > 0) noteActivity(t, false);
  schedule(t);
}

/** Shows or hides the warning, signs out at the limit, and wakes up for whichever comes next. */
function schedule(t: Tracking) {
  if (t.checkTimer) clearTimeout(t.checkTimer);
  t.checkTimer = null;
  const now = Date.now();
  const deadline = lastActivity(t) + t.limitMs;
  if (now >= deadline && holds === 0) {
    signOutIdle(t);
    return;
  }
  const warnAt = deadline - t.warnMs;
  idleSession.deadline = deadline;
  idleSession.warning = holds === 0 && now >= warnAt;
  const next = idleSession.warning ? deadline : warnAt;
  t.checkTimer = setTimeout(() => check(t), Math.max(0, next - now));
}

/**
 * Renews now if the last renewal (here or in another tab) is a renewal period old, else once it
 * is: the token then always outlives the last activity by the idle limit.
 */
function renewWhenDue(t: Tracking) {
  if (t.renewing || t.renewTimer) return;
  const wait = t.renewedAt + t.renewEveryMs - Date.now();
  if (wait <= 0) {
    void renew(t);
    return;
  }
  t.renewTimer = setTimeout(() => {
    t.renewTimer = null;
    void renew(t);
  }, wait);
}

async function renew(t: Tracking) {
  const sent = storedAccessToken();
  if (tracking !== t || t.renewing || !sent) return;
  t.renewing = true;
  t.renewedAt = Date.now();
  try {
    const { token, idleMinutes } = await api.post<RenewResponse>('/api/session/renew', undefined, {
      signOutOn401: false,
    });
    // Not over a token that replaced it meanwhile (a password change, a sign-out, another user).
    // A changed limit (the server restarted with another) starts the clock again with it.
    if (tracking === t && storedAccessToken() === sent) renewAccessToken(token, idleMinutes);
  } catch (error) {
    // The session ended on the server (logout elsewhere, a password reset, its absolute end):
    // spec §4, unless the token it was sent with was replaced meanwhile. Any other failure (the
    // network) keeps the token in hand, which lives on; the next renewal period tries again.
    if (error instanceof ApiError && error.status === 401 && storedAccessToken() === sent) {
      endSession();
    }
  } finally {
    t.renewing = false;
  }
  // Activity while the call was out is later than the renewal: its own renewal follows.
  if (tracking === t && t.lastActivity > t.renewedAt) renewWhenDue(t);
}

/**
 * Signs this tab out as soon as another tab of the browser signs out (its Log out, its idle limit,
 * a 401): on a shared terminal no tab keeps a session on screen. The tabs share the token, whose
 * removal reaches the others as a `storage` event; they send no logout of their own (the tab that
 * signed out ended the session, which the server audits once). Past the idle limit it goes where
 * its own idle sign-out would (/login saying why), else to /login. Answers how to stop listening.
 */
export function followSignOutInOtherTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    // `key` is null when another tab cleared local storage.
    if (event.key !== accessTokenKey && event.key !== null) return;
    if (storedAccessToken() || !session.loggedIn) return;
    const t = tracking;
    if (t && Date.now() >= lastActivity(t) + t.limitMs) {
      signOutIdle(t);
      return;
    }
    stopIdleSession();
    signOut();
    // Said on /login: typed work in this tab was lost by an action in another one.
    navigate(loginPath(pageToReturnTo(), SIGNED_OUT_ELSEWHERE));
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

/** At the limit: signed out as by Log out, the reason in the trail, and /login saying why. */
function signOutIdle(t: Tracking) {
  const minutes = t.limitMs / MINUTE_MS;
  const operator = session.roles.includes('operator');
  stopIdleSession();
  logOut('idle');
  navigate(loginPath(pageToReturnTo(), idleSignOutQuery(minutes, operator)));
}

/** The /login query after an idle sign-out; `uploads` when the user may have recordings waiting. */
export function idleSignOutQuery(minutes: number, uploads: boolean): string {
  const query = new URLSearchParams({ session: 'idle', minutes: String(minutes) });
  if (uploads) query.set('uploads', 'waiting');
  return query.toString();
}

/** What the login page says after an idle sign-out; null for any other query. */
export function readIdleSignOut(search: string): { minutes: number; uploads: boolean } | null {
  const query = new URLSearchParams(search);
  const minutes = Number(query.get('minutes'));
  if (query.get('session') !== 'idle' || !Number.isInteger(minutes) || minutes < 1) return null;
  return { minutes, uploads: query.get('uploads') === 'waiting' };
}
