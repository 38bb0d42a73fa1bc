import { useEffect } from 'react';
import type { ConfirmWords } from '../../../components/confirm-dialog.tsx';
import { guardLeaving } from '../../../lib/leave-guard.ts';
import type { FloorplanConfiguration } from '../../../types/api.ts';
import { wizardStrings as w } from '../strings.ts';

const leaveWords: ConfirmWords = {
  title: w.leaveTitle,
  text: w.leaveText,
  cancel: w.stay,
  confirm: w.leave,
};

/**
 * While `unsaved`, leaving asks first (docs/floorplans.md "Unsaved work"): a reload or a closed
 * tab with the browser's prompt, a move to another page of the app (links, buttons, Back) or a
 * Log out with `confirm` (the page's in-app confirmation). The returned `ask` puts a question
 * (by default the same) before a step of the wizard that drops the work, and only while `unsaved`.
 */
export function useUnsavedWork(
  unsaved: boolean,
  confirm: (words: ConfirmWords, proceed: () => void) => void,
) {
  useEffect(
    () => (unsaved ? guardLeaving((go) => confirm(leaveWords, go)) : undefined),
    [unsaved, confirm],
  );
  return (proceed: () => void, words = leaveWords) =>
    unsaved ? confirm(words, proceed) : proceed();
}

/** JSON with every object's keys in order: the server's stored copy lists them in its own. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/**
 * Whether the configuration on screen is work not saved: it differs from `baseline`, the
 * configuration as opened or last saved (none: opened with items not saved, carried over).
 */
export function unsavedWork(
  configuration: FloorplanConfiguration | null,
  baseline: FloorplanConfiguration | null,
): boolean {
  return configuration !== null && canonical(configuration) !== canonical(baseline);
}
