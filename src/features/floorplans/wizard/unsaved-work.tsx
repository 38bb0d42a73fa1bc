import { useEffect, useId, useState } from 'react';
import { AppDialog } from '../../../components/app-dialog.tsx';
import { warnBeforeUnload } from '../../../lib/leave-guard.ts';
import { session } from '../../../stores/session.ts';
import type { FloorplanConfiguration } from '../../../types/api.ts';
import { wizardStrings as w } from '../strings.ts';
import { holdNavigation } from './hold-navigation.ts';

/**
 * While `unsaved`, leaving asks first (docs/floorplans.md "Unsaved work"): a reload or a closed
 * tab with the browser's prompt, a move to another page of the app (links, buttons, Back) with
 * the dialog this returns. `ask` puts the same question before a step of the wizard that drops the
 * work. Signed out, nothing can be saved any more: the move to /login is not held.
 */
export function useUnsavedWork(unsaved: boolean) {
  const [pending, setPending] = useState<(() => void) | null>(null);
  const textId = useId();

  useEffect(() => (unsaved ? warnBeforeUnload() : undefined), [unsaved]);
  useEffect(() => {
    if (!unsaved) return;
    return holdNavigation((go) => (session.loggedIn ? setPending(() => go) : go()));
  }, [unsaved]);

  const ask = (proceed: () => void) => (unsaved ? setPending(() => proceed) : proceed());
  const leave = () => {
    const go = pending;
    setPending(null);
    go?.();
  };

  const dialog = (
    <AppDialog
      open={pending !== null}
      onOpenChange={(open) => {
        if (!open) setPending(null);
      }}
      title={w.leaveTitle}
      width="450px"
      describedBy={textId}
    >
      <p id={textId}>{w.leaveText}</p>
      <div className="form-actions">
        {/* First, so it has the focus: staying loses nothing. */}
        <button type="button" className="btn btn-secondary" onClick={() => setPending(null)}>
          {w.stay}
        </button>
        <button type="button" className="btn btn-danger" onClick={leave}>
          {w.leave}
        </button>
      </div>
    </AppDialog>
  );
  return { ask, dialog };
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
