import { afterEach, describe, expect, it } from 'vitest';
import { cdp } from 'vitest/browser';
import { applyTheme, effectiveScheme, theme, toggleTheme } from './theme.ts';

async function emulateSystemScheme(value: 'light' | 'dark' | '') {
  await cdp().send('Emulation.setEmulatedMedia', {
    features: [{ name: 'prefers-color-scheme', value }],
  });
}

afterEach(async () => {
  await emulateSystemScheme('');
  localStorage.removeItem('colorScheme');
  theme.choice = null;
  applyTheme();
});

describe('colour scheme', () => {
  it('follows the system until toggled', () => {
    const system = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    expect(effectiveScheme(theme)).toBe(system);
    applyTheme();
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });

  it('follows a live change of the system setting', async () => {
    await emulateSystemScheme('dark');
    await expect.poll(() => theme.system).toBe('dark');
    expect(effectiveScheme(theme)).toBe('dark');
    await emulateSystemScheme('light');
    await expect.poll(() => theme.system).toBe('light');
    expect(effectiveScheme(theme)).toBe('light');
  });

  it('toggles to the other scheme, applies it and remembers it', () => {
    const before = effectiveScheme(theme);
    toggleTheme();
    const after = before === 'dark' ? 'light' : 'dark';
    expect(theme.choice).toBe(after);
    expect(document.documentElement.dataset.theme).toBe(after);
    expect(localStorage.getItem('colorScheme')).toBe(after);
    toggleTheme();
    expect(theme.choice).toBe(before);
    expect(localStorage.getItem('colorScheme')).toBe(before);
  });
});
