import { afterEach, describe, expect, it, vi } from 'vitest';
import { keyboardShortcuts, setKeyboardShortcuts } from './keyboard-shortcuts.ts';

afterEach(() => {
  localStorage.removeItem('keyboardShortcuts');
  keyboardShortcuts.on = true;
});

/** The module as a new visit loads it, reading what the last one stored. */
async function nextVisit() {
  vi.resetModules();
  const fresh = await import('./keyboard-shortcuts.ts');
  return fresh.keyboardShortcuts.on;
}

describe('keyboard shortcuts setting', () => {
  it('is on until turned off, and remembered across visits', async () => {
    expect(await nextVisit()).toBe(true);
    setKeyboardShortcuts(false);
    expect(keyboardShortcuts.on).toBe(false);
    expect(await nextVisit()).toBe(false);
    setKeyboardShortcuts(true);
    expect(await nextVisit()).toBe(true);
  });
});
