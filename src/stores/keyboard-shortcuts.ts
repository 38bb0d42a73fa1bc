import { proxy } from 'valtio';

const storageKey = 'keyboardShortcuts';

/**
 * Whether the single-key shortcuts (the video review's Space, J, K, L…, the report's F) act: on
 * unless the user turned them off in the User Guide, remembered across visits. WCAG 2.1.4: a
 * speech-input user's spoken words arrive as letters, and a stray key must not play a video.
 */
export const keyboardShortcuts = proxy({
  // Node tests import the report's pure rules through this module, where there is no storage.
  on: globalThis.localStorage?.getItem(storageKey) !== 'off',
});

export function setKeyboardShortcuts(on: boolean): void {
  keyboardShortcuts.on = on;
  localStorage.setItem(storageKey, on ? 'on' : 'off');
}
