import { useLocation, useSearch } from 'wouter';
import { session } from '../stores/session.ts';

/** Per user: on a shared terminal, the next user opens a dashboard on its first tab (QA). */
const storageKey = (dashboard: string) => `dashboard-tab:${session.info?.id ?? ''}:${dashboard}`;

function remembered(dashboard: string): string | null {
  try {
    return sessionStorage.getItem(storageKey(dashboard));
  } catch {
    return null;
  }
}

/**
 * A dashboard's open tab, kept in the URL (`?tab=`) and remembered for this browser tab: a
 * reviewer who opens a report from the Inspections tab and goes back, by the browser or by 'Back
 * to …', finds the Inspections tab again instead of the first one.
 */
export function useDashboardTab<T extends string>(
  tabs: readonly T[],
  first: T,
): [T, (tab: string) => void] {
  const [location, navigate] = useLocation();
  const search = useSearch();
  const isTab = (value: string | null): value is T => tabs.includes(value as T);
  const fromUrl = new URLSearchParams(search).get('tab');
  const fromMemory = remembered(location);
  const tab = isTab(fromUrl) ? fromUrl : isTab(fromMemory) ? fromMemory : first;
  const choose = (value: string) => {
    if (!isTab(value)) return;
    try {
      sessionStorage.setItem(storageKey(location), value);
    } catch {
      // Storage refused (private mode, quota): the URL still holds the tab.
    }
    const params = new URLSearchParams(search);
    params.set('tab', value);
    // Replaced, not pushed: Back leaves the dashboard instead of stepping through its tabs.
    navigate(`${location}?${params}`, { replace: true });
  };
  return [tab, choose];
}
