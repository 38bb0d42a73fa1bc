import { useState } from 'react';
import { MAX_REASON_LENGTH } from '../../server/schemas/change-reason.ts';
import { givesReason, MIN_REASON_WORDS } from '../../server/schemas/review-notes.ts';
import { useFieldErrors } from '../hooks/use-field-errors.ts';
import { ApiError } from '../lib/api-client.ts';
import { refusesField, type SuccessText, tryAction } from '../lib/run-action.ts';
import { lengthProblem, unstorableProblem } from '../lib/text-rules.ts';
import { TextField } from './field.tsx';
import { FormDialog, type FormDialogProps } from './form-dialog.tsx';
import type { RecordAction } from './record-card.tsx';

/** The words of a reason field: its label, the rule under it, and the warning when it is unmet. */
export interface ReasonWords {
  label: string;
  hint: string;
  /** Said when the text gives no reason by the server's rule ('… in at least 3 different words'). */
  missing: string;
}

/**
 * A reason the audit trail keeps with a change (EU GMP Annex 11 §9), checked by the server's rule
 * (`givesReason`) and its text rules before anything is sent, so nothing typed is lost.
 */
export function useReasonField({ label, hint, missing }: ReasonWords) {
  const [reason, setReason] = useState('');
  const errors = useFieldErrors<'reason'>();
  return {
    reason,
    clear: errors.clear,
    /** The trimmed reason; null after saying at the field (and in a warning) why it is refused. */
    check: (): string | null => {
      errors.clear();
      const problem = !givesReason(reason)
        ? missing
        : (lengthProblem(label, reason, MAX_REASON_LENGTH) ?? unstorableProblem(label, reason));
      if (problem) {
        errors.warn('reason', problem);
        return null;
      }
      return reason.trim();
    },
    /** Empties the field, for the next change. */
    reset: () => {
      setReason('');
      errors.clear();
    },
    /** Says the server's refusal of the reason at the field, which keeps what was typed. */
    fail: (message: string) => errors.fail('reason', message),
    field: (
      <TextField
        label={label}
        value={reason}
        onChange={setReason}
        rows={3}
        limit={MAX_REASON_LENGTH}
        hint={hint}
        {...errors.textField('reason')}
      />
    ),
  };
}

/** The words of an edit's 'Reason for change' field: `noun` says what is changed. */
export const changeWords = (noun: string): ReasonWords => ({
  label: 'Reason for change',
  hint: `Required when you change something: at least ${MIN_REASON_WORDS} different words. It is kept with the change in the audit trail.`,
  missing: `Please give the reason for changing this ${noun}, in at least ${MIN_REASON_WORDS} different words`,
});

/** The words of a record's deletion dialog, after the browser's confirmation: `noun` says what goes. */
export const deletionWords = (noun: string) => ({
  title: `Why is this ${noun} deleted?`,
  label: 'Reason (required)',
  hint: `At least ${MIN_REASON_WORDS} different words. It is kept with the deletion in the audit trail.`,
  missing: `Please give the reason for deleting this ${noun}, in at least ${MIN_REASON_WORDS} different words`,
  submitLabel: 'Delete',
  submitVariant: 'danger' as const,
});

export interface ReasonDialogProps<T>
  extends ReasonWords,
    Pick<FormDialogProps, 'width' | 'maxWidth' | 'submitVariant' | 'returnFocusTo'> {
  title: string;
  /** Which record it acts on (its name), shown above the field. */
  subject: string;
  submitLabel: string;
  /** The call, given the trimmed reason. */
  act: (reason: string) => Promise<T>;
  success: SuccessText<T>;
  failure: string;
  successLife?: number;
  /** Runs the call and says how it went: the spec's toasts, unless a screen says it otherwise. */
  run?: typeof tryAction;
  /**
   * After the call succeeded, or was refused as the record went or is kept meanwhile (404, 409):
   * e.g. reloads the list, so it shows where things stand; the dialog then closes.
   */
  onDone: () => void;
  onClose: () => void;
}

/**
 * Asks why, then acts: a deletion after the browser's confirmation (spec §5). The reason goes to
 * the audit entry of the change. A refusal of the reason is said at the field; a record gone or
 * kept meanwhile (404, 409) closes the dialog and reloads, since trying again does not help (the
 * toast says why); any other failure keeps it open with what was typed.
 */
export function ReasonDialog<T>({
  title,
  subject,
  submitLabel,
  act,
  success,
  failure,
  successLife,
  run = tryAction,
  onDone,
  onClose,
  width,
  maxWidth,
  submitVariant,
  returnFocusTo,
  ...words
}: ReasonDialogProps<T>) {
  const reason = useReasonField(words);

  const submit = async () => {
    const given = reason.check();
    if (given === null) return false;
    const outcome = await run(() => act(given), success, failure, successLife);
    if (outcome.done) {
      onDone();
      return true;
    }
    const { error, said } = outcome;
    if (said && refusesField(error, 'body.reason')) {
      reason.fail(said);
      return false;
    }
    const outdated = error instanceof ApiError && (error.status === 409 || error.status === 404);
    // The list still shows the record as it was (a card deleted meanwhile): reloaded too.
    if (outdated) onDone();
    return outdated;
  };

  return (
    <FormDialog
      title={title}
      width={width}
      maxWidth={maxWidth}
      submitLabel={submitLabel}
      submitVariant={submitVariant}
      returnFocusTo={returnFocusTo}
      onSubmit={submit}
      onClose={onClose}
    >
      <p>{subject}</p>
      {reason.field}
    </FormDialog>
  );
}

/** The spec §5/§8 words of a record's kind (config/entity-messages.ts) that a deletion uses. */
interface DeletionMessages {
  noun: readonly [string, string];
  deleted: string;
  deleteFailed: string;
}

export interface RecordDeletionDialogProps extends Pick<FormDialogProps, 'width' | 'maxWidth'> {
  messages: DeletionMessages;
  record: { _id: string; name: string };
  /** The DELETE call, given the record's id and the trimmed reason. */
  remove: (id: string, reason: string) => Promise<unknown>;
  onDone: () => void;
  onClose: () => void;
}

/** A line clearance's, user's, device's or operator's deletion, once the browser confirmed it. */
export function RecordDeletionDialog({
  messages,
  record,
  remove,
  ...rest
}: RecordDeletionDialogProps) {
  return (
    <ReasonDialog
      {...deletionWords(messages.noun[0])}
      subject={record.name}
      act={(reason) => remove(record._id, reason)}
      success={messages.deleted}
      failure={messages.deleteFailed}
      {...rest}
    />
  );
}

/**
 * A card's Delete: the browser's confirmation first (spec §5, `confirmDelete`), then `ask` opens the
 * reason dialog (`RecordDeletionDialog`).
 */
export const deleteAction = (
  confirmDelete: string,
  ask: () => void,
  unavailable?: string | null,
): RecordAction => ({
  label: 'Delete',
  variant: 'danger',
  onClick: () => {
    if (window.confirm(confirmDelete)) ask();
  },
  unavailable,
});
