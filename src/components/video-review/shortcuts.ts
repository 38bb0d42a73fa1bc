import { type VideoShortcutAction, videoShortcuts } from '../../config/video-shortcuts.ts';

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
