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
