import { useEffect, useLayoutEffect, useRef } from 'react';

// Headings that take the focus when what they head changes (give them tabIndex -1): the change
// announces itself, and keyboard and screen-reader users go on from the new content instead of the
// top of the page, where a removed button or link left the focus.

/** The heading's ref, focused whenever `step` changes but not on the first render. */
export function useStepHeading<Step>(step: Step) {
  const heading = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    heading.current?.focus();
  }, [step]);
  return heading;
}

// Whether the user has gone from one page to another since the app loaded (a link, Back, Forward).
// wouter's history patch fires 'pushState'; a redirect while the app opens replaces the entry and
// does not count, so the first page shown keeps the focus where the browser put it.
let navigated = false;
for (const type of ['pushState', 'popstate']) {
  addEventListener(type, () => {
    navigated = true;
  });
}

/**
 * The page's h1 ref: names the page in the tab's title ('Reports – Line Clearance') and, when the
 * page was reached from another one, takes the focus as the page shows, so a screen reader says
 * which page it is. The login page sets the title only: it starts in its Email field.
 */
export function usePageHeading(name: string) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${name} – Line Clearance`;
  }, [name]);
  // Before the paint: whatever the user reaches for next starts from the new page.
  useLayoutEffect(() => {
    if (navigated) heading.current?.focus();
  }, []);
  return heading;
}
