import { type ReactNode, type RefObject, useCallback, useId, useState } from 'react';
import { AppDialog } from './app-dialog.tsx';

/** What a confirmation says: its title, the question, and its two buttons. */
export interface ConfirmWords {
  title: string;
  text: string;
  /** Keeps everything as it was; it has the focus, so Enter loses nothing. */
  cancel: string;
  confirm: string;
}

/**
 * An in-app confirmation before a step that loses work (the browser's own `confirm` is kept for
 * deletes, spec §5). `ask` shows `words` and calls `proceed` only on the confirm button; the
 * cancel button, Escape and × close it with nothing done. `dialog` is rendered once by the caller.
 * `returnFocusTo` takes the focus back when the control that asked is gone (a menu's item).
 */
export function useConfirm(returnFocusTo?: RefObject<HTMLElement | null>): {
  ask: (words: ConfirmWords, proceed: () => void) => void;
  dialog: ReactNode;
} {
  const [pending, setPending] = useState<{ words: ConfirmWords; proceed: () => void } | null>(null);
  const textId = useId();
  // Stable, so a guard set up in an effect keeps asking through this dialog.
  const ask = useCallback(
    (words: ConfirmWords, proceed: () => void) => setPending({ words, proceed }),
    [],
  );
  const confirm = () => {
    setPending(null);
    pending?.proceed();
  };

  const dialog = (
    <AppDialog
      open={pending !== null}
      onOpenChange={(open) => {
        if (!open) setPending(null);
      }}
      title={pending?.words.title ?? ''}
      width="450px"
      returnFocusTo={returnFocusTo}
      describedBy={textId}
    >
      <p id={textId}>{pending?.words.text}</p>
      <div className="form-actions">
        {/* First, so it has the focus. */}
        <button type="button" className="btn btn-secondary" onClick={() => setPending(null)}>
          {pending?.words.cancel}
        </button>
        <button type="button" className="btn btn-danger" onClick={confirm}>
          {pending?.words.confirm}
        </button>
      </div>
    </AppDialog>
  );
  return { ask, dialog };
}
