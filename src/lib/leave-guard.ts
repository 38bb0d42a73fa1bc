import { session } from '../stores/session.ts';

/**
 * Until the returned function is called, a reload or a closed tab first shows the browser's own
 * 'Leave site?' prompt (its words; a page cannot set them). For work the page has not kept yet.
 */
export function warnBeforeUnload(): () => void {
  const warn = (event: BeforeUnloadEvent) => {
    event.preventDefault();
    // Older browsers prompt only when a return value is set.
    event.returnValue = '';
  };
  window.addEventListener('beforeunload', warn);
  return () => window.removeEventListener('beforeunload', warn);
}

type HistoryWrite = History['pushState'];

/**
 * Holds every move to another page made through the browser's history, until the returned
 * function is called: wouter has no navigation guard, and its links, `navigate` (the breadcrumb's
 * back button, the toolbar) and redirects all end in `history.pushState`/`replaceState`, so those
 * are wrapped. A held move is handed to `onHeld` as `go`, which lets go of the hold and makes it.
 * Back and Forward are held through the Navigation API where the browser lets a page cancel them
 * (a top-level page the user has clicked in): `popstate` comes too late, after the router's own
 * listener has moved.
 */
export function holdNavigation(onHeld: (go: () => void) => void): () => void {
  const { pushState: push, replaceState: replace } = history;
  const path = location.pathname;
  // Not in every browser yet: there, Back and Forward leave without asking.
  const traversals = 'navigation' in window;
  let released = false;

  const release = () => {
    if (released) return;
    released = true;
    // Unwrapped only when no one wrapped them since; otherwise the wrappers just pass through.
    if (history.pushState === heldPush) history.pushState = push;
    if (history.replaceState === heldReplace) history.replaceState = replace;
    if (traversals) navigation.removeEventListener('navigate', onNavigate);
  };

  const hold = (write: HistoryWrite): HistoryWrite =>
    function held(this: History, data, unused, url) {
      const to = url == null ? path : new URL(url, location.href).pathname;
      if (released || to === path) {
        write.call(this, data, unused, url);
        return;
      }
      onHeld(() => {
        release();
        write.call(history, data, unused, url);
      });
    };
  const heldPush = hold(push);
  const heldReplace = hold(replace);

  const onNavigate = (event: NavigateEvent) => {
    const to = new URL(event.destination.url).pathname;
    if (event.navigationType !== 'traverse' || !event.cancelable || to === path) return;
    event.preventDefault();
    const { key } = event.destination;
    onHeld(() => {
      release();
      navigation.traverseTo(key);
    });
  };

  history.pushState = heldPush;
  history.replaceState = heldReplace;
  if (traversals) navigation.addEventListener('navigate', onNavigate);
  return release;
}

/** How the page is being left: a move to another page (or a reload), or the user's Log out. */
export type Leaving = 'page' | 'sign-out';

/** Puts the question to the user; `go` leaves, and is not called when they stay. */
export type AskToLeave = (go: () => void, leaving: Leaving) => void;

// The guards in place, the latest last: a sign-out asks the latest one.
const guards: AskToLeave[] = [];

/**
 * Until the returned function is called, leaving the page asks first: a reload or a closed tab
 * with the browser's prompt, a move to another page of the app (links, buttons, Back) and the
 * user's Log out (`askBeforeSignOut`) with `ask`. A move once signed out (idle, an expired
 * session, another tab's sign-out) is not held: nothing can be kept by staying.
 */
export function guardLeaving(ask: AskToLeave): () => void {
  const stopWarning = warnBeforeUnload();
  const stopHolding = holdNavigation((go) => (session.loggedIn ? ask(go, 'page') : go()));
  const guard: AskToLeave = (go, leaving) =>
    ask(() => {
      release();
      go();
    }, leaving);
  guards.push(guard);
  function release() {
    stopWarning();
    stopHolding();
    const index = guards.indexOf(guard);
    if (index >= 0) guards.splice(index, 1);
  }
  return release;
}

/**
 * The user's Log out: signing out leaves the page without a move through history (the session
 * ends first), so it asks the guard in place, if any, before `signOut` runs.
 */
export function askBeforeSignOut(signOut: () => void): void {
  const guard = guards.at(-1);
  if (guard) guard(signOut, 'sign-out');
  else signOut();
}
