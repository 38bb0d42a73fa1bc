import { afterEach, describe, expect, it } from 'vitest';
import { applyTheme, effectiveScheme, theme, toggleTheme } from './theme.ts';

afterEach(() => {
  localStorage.removeItem('colorScheme');
  theme.choice = null;
  applyTheme();
});

describe('colour scheme', () => {
  it('follows the system until toggled', () => {
    const system = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    expect(effectiveScheme(null)).toBe(system);
    applyTheme();
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });

  it('toggles to the other scheme, applies it and remembers it', () => {
    const before = effectiveScheme(theme.choice);
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
