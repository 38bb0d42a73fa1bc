import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { isBlank } from '../../../server/schemas/blank.ts';
import { changeWords, useReasonField } from '../../components/reason-dialog.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { refusesField, tryAction, unanswered } from '../../lib/run-action.ts';

/**
 * An Edit dialog's 'Reason for change' (EU GMP Annex 11 §10: a change keeps its reason beside its
 * old and new values, in its audit entry). Required when the save changes one of `values` from
 * what they were when the dialog opened; one given anyway is checked by the same rule, which the
 * server applies to any reason it is sent.
 */
export function useChangeReason(noun: string, values: object) {
  const [opened] = useState(() => JSON.stringify(values));
  const field = useReasonField(changeWords(noun));
  return {
    field: field.field,
    fail: field.fail,
    /** What the body adds: `{ reason }`, or `{}` when none is needed nor given; null if refused. */
    check: (): { reason?: string } | null => {
      if (JSON.stringify(values) === opened && isBlank(field.reason)) {
        field.clear();
        return {};
      }
      const reason = field.check();
      return reason === null ? null : { reason };
    },
  };
}

type ChangeReason = ReturnType<typeof useChangeReason>;

/**
 * Saving a create or edit dialog of this dashboard with the spec's toasts. A refusal is also said
 * inside the dialog (a toast outside a modal is hidden from screen readers), which stays open
 * with what was typed. A 409 (e.g. the record changed since the dialog opened: the server says who
 * changed it and when, docs/api-contract.md "Versions") reloads the list behind it too, so the
 * dialog opened again shows the change; so does a call that got no answer. A refusal of the edit's reason is said at its field.
 */
export function useDialogSave(reload: () => void, changeReason?: ChangeReason) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const alert = useRef<HTMLParagraphElement>(null);

  /** Runs the call; resolves true when saved (the list is reloaded), which closes the dialog. */
  const save = async (action: () => Promise<unknown>, success: string, failure: string) => {
    setRefusal(null);
    const outcome = await tryAction(action, success, failure);
    if (outcome.done) {
      reload();
      return true;
    }
    const { error, said } = outcome;
    if (said && changeReason && refusesField(error, 'body.reason')) {
      changeReason.fail(said);
      return false;
    }
    // Null after a 401, which has signed out and left the page.
    flushSync(() => setRefusal(said));
    // The refusal takes the focus from Save, so a keyboard or screen-reader user hears what
    // happened and is at its words.
    alert.current?.focus();
    // No answer (status 0): a create may have been stored all the same, so the list shows it.
    if ((error instanceof ApiError && error.status === 409) || unanswered(error)) reload();
    return false;
  };

  /** The refusal, shown last in the form, above its buttons, where the eye is after Save. */
  const refusalAlert = refusal && (
    <p ref={alert} className="form-error" role="alert" tabIndex={-1}>
      {refusal}
    </p>
  );

  return { save, refusalAlert };
}
