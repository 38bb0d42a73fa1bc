import { useState } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { tryAction } from '../../lib/run-action.ts';

/**
 * Saving a create or edit dialog of this dashboard with the spec's toasts. A refusal is also said
 * inside the dialog (a toast outside a modal is hidden from screen readers), which stays open
 * with what was typed. A 409 (e.g. the record changed since the dialog opened: the server says who
 * changed it and when, docs/api-contract.md "Versions") reloads the list behind it too, so the
 * dialog opened again shows the change.
 */
export function useDialogSave(reload: () => void) {
  const [refusal, setRefusal] = useState<string | null>(null);

  /** Runs the call; resolves true when saved (the list is reloaded), which closes the dialog. */
  const save = async (action: () => Promise<unknown>, success: string, failure: string) => {
    setRefusal(null);
    const outcome = await tryAction(action, success, failure);
    if (outcome.done) {
      reload();
      return true;
    }
    // Null after a 401, which has signed out and left the page.
    setRefusal(outcome.said);
    if (outcome.error instanceof ApiError && outcome.error.status === 409) reload();
    return false;
  };

  /** The refusal, shown last in the form, above its buttons, where the eye is after Save. */
  const refusalAlert = refusal && (
    <p className="form-error" role="alert">
      {refusal}
    </p>
  );

  return { save, refusalAlert };
}
