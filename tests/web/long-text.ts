// Text QA typed to find layout faults: whatever a user names a record, the page must not widen.

/** An 89-character word without spaces (a line, user or device name): it must wrap. */
export const LONGWORD =
  'PARACETAMOL500MGFILMTABLETTENCHARGE2026NOVEMBER11ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789XYZ';

/** The page's width as it scrolls: wider than the window when something pushes it sideways. */
export const pageWidth = () => document.documentElement.scrollWidth;

/** Whether `inner` lies sideways within `outer` (to half a pixel). */
export function within(inner: Element, outer: Element): boolean {
  const a = inner.getBoundingClientRect();
  const b = outer.getBoundingClientRect();
  return a.left >= b.left - 0.5 && a.right <= b.right + 0.5;
}

/** A desktop window and a phone (390 px, the narrowest the app is laid out for). */
export const DESKTOP_AND_PHONE = [
  [1280, 900],
  [390, 844],
] as const;
