import { type VideoShortcutAction, videoShortcuts } from '../../config/video-shortcuts.ts';
import { keyboardShortcuts } from '../../stores/keyboard-shortcuts.ts';

/** Input types where every key is typing. */
const textInputTypes = new Set([
  'text',
  'search',
  'email',
  'password',
  'number',
  'tel',
  'url',
  'date',
  'datetime-local',
  'month',
  'time',
  'week',
]);

/**
 * Whether the focused element needs this key itself: typing in text fields, Space on buttons and
 * checkboxes (it presses them), arrows on sliders, the video's own controls and Radix popovers
 * (the calendar moves by arrows, the multi-select jumps by typed letters).
 */
export function keyOwnedByTarget(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  if (target.closest('[data-radix-popper-content-wrapper]')) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  const space = key === ' ';
  const arrow = key.startsWith('Arrow');
  if (target instanceof HTMLInputElement) {
    return textInputTypes.has(target.type) || space || arrow;
  }
  if (target instanceof HTMLMediaElement) return space || arrow;
  const role = target.getAttribute('role');
  if (arrow && (role === 'slider' || role === 'tab' || role === 'menuitem')) return true;
  return space && target.closest('button, a[href], summary, [role="button"]') !== null;
}

/** The video workspace's own parts: player, path, slider and detections, and its sidebar list. */
export const VIDEO_WORKSPACE_SELECTOR = '.va-main, .va-right';

/**
 * Whether single-key shortcuts may act with the focus on `target` (WCAG 2.1.4): only while the user
 * has them on, and the focus is inside the part they serve (`within`, a selector) or on no control
 * at all: the page itself, or a heading the app focused as the page opened. Never from a link or
 * button elsewhere on the page ('Download PDF', a video card), which a stray key would set off.
 */
export function shortcutAllowed(target: EventTarget | null, within: string): boolean {
  if (!keyboardShortcuts.on) return false;
  if (!(target instanceof Element) || target === document.body) return true;
  return target.matches('h1, h2, h3, h4, h5, h6') || target.closest(within) !== null;
}

export interface ShortcutKey {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
  defaultPrevented: boolean;
}

/** The page's shortcut for a key press, or null when the key is not one or is not ours now. */
export function shortcutFor(event: ShortcutKey): VideoShortcutAction | null {
  if (event.defaultPrevented || event.metaKey) return null;
  // Ctrl or Alt alone are browser and system shortcuts; both together are AltGr, which types
  // `[` and `]` on many European layouts.
  if (event.ctrlKey !== event.altKey) return null;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const shortcut = videoShortcuts.find((candidate) => candidate.keys.includes(key));
  if (!shortcut || keyOwnedByTarget(event.target, event.key)) return null;
  return shortcut.action;
}
