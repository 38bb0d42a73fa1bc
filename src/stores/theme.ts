import { proxy } from 'valtio';

export type ColorScheme = 'light' | 'dark';

const storageKey = 'colorScheme';
const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');

function readStored(): ColorScheme | null {
  const stored = localStorage.getItem(storageKey);
  return stored === 'light' || stored === 'dark' ? stored : null;
}

const systemScheme = (): ColorScheme => (darkQuery.matches ? 'dark' : 'light');

/**
 * choice null follows the system setting; a toggled choice is remembered across visits.
 * `system` follows the operating system live, so the toolbar's toggle label stays right when
 * the system switches between light and dark while the app is open.
 */
export const theme = proxy<{ choice: ColorScheme | null; system: ColorScheme }>({
  choice: readStored(),
  system: systemScheme(),
});

darkQuery.addEventListener('change', () => {
  theme.system = systemScheme();
});

export function applyTheme(): void {
  const root = document.documentElement;
  if (theme.choice) root.dataset.theme = theme.choice;
  else delete root.dataset.theme;
}

export function effectiveScheme(state: { choice: ColorScheme | null; system: ColorScheme }) {
  return state.choice ?? state.system;
}

export function toggleTheme(): void {
  theme.choice = effectiveScheme(theme) === 'dark' ? 'light' : 'dark';
  localStorage.setItem(storageKey, theme.choice);
  applyTheme();
}
