import { proxy } from 'valtio';

export type ColorScheme = 'light' | 'dark';

const storageKey = 'colorScheme';

function readStored(): ColorScheme | null {
  const stored = localStorage.getItem(storageKey);
  return stored === 'light' || stored === 'dark' ? stored : null;
}

/** null follows the system setting; a toggled choice is remembered across visits. */
export const theme = proxy<{ choice: ColorScheme | null }>({ choice: readStored() });

export function applyTheme(): void {
  const root = document.documentElement;
  if (theme.choice) root.dataset.theme = theme.choice;
  else delete root.dataset.theme;
}

export function effectiveScheme(choice: ColorScheme | null): ColorScheme {
  if (choice) return choice;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function toggleTheme(): void {
  theme.choice = effectiveScheme(theme.choice) === 'dark' ? 'light' : 'dark';
  localStorage.setItem(storageKey, theme.choice);
  applyTheme();
}
