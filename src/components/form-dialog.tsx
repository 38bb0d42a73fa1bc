import { type FormEvent, type ReactNode, useState } from 'react';
import { AppDialog, type AppDialogProps } from './app-dialog.tsx';

export interface FormDialogProps
  extends Pick<AppDialogProps, 'title' | 'maxWidth' | 'returnFocusTo'> {
  /** Spec §9: the admin dialogs are 500px wide. */
  width?: AppDialogProps['width'];
  submitLabel?: string;
  /** The submit button's style: 'danger' (red) for a destructive action, as its opener shows it. */
  submitVariant?: 'primary' | 'danger';
  /** Keeps the submit button disabled (e.g. while what it would submit is refused). */
  submitDisabled?: boolean;
  /** The id of what says why the submit button is as it is (e.g. why it is disabled). */
  submitDescribedBy?: string;
  /** Validates and saves; resolves true when saved, which closes the dialog. */
  onSubmit: () => Promise<boolean>;
  onClose: () => void;
  children: ReactNode;
  /** Shown after the form's buttons, outside the form: an action of its own (with its own form). */
  after?: ReactNode;
}

/**
 * A dialog holding one form with Cancel and a submit button, both doing nothing while saving
 * (`aria-disabled`: a disabled button would drop the focus to <body>); nor does closing it.
 */
export function FormDialog(props: FormDialogProps) {
  const {
    submitLabel = 'Save',
    submitVariant = 'primary',
    submitDisabled = false,
    submitDescribedBy,
    width = '500px',
    onSubmit,
    onClose,
    children,
    after,
    ...dialog
  } = props;
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const saved = await onSubmit();
    setBusy(false);
    if (saved) onClose();
  };

  // Not while saving: a signer who pressed Cancel (or Escape) would think nothing was signed while
  // the signature was still on its way and then recorded.
  const close = () => {
    if (!busy) onClose();
  };

  return (
    <AppDialog open onOpenChange={(open) => !open && close()} width={width} {...dialog}>
      {/* Our checks say what is missing at the field and in the spec's toast; the browser's own
          bubble for a `required` field would come first and say neither. */}
      <form className="form" noValidate onSubmit={submit}>
        {children}
        <div className="form-actions">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={close}
            aria-disabled={busy || undefined}
          >
            Cancel
          </button>
          <button
            type="submit"
            className={`btn btn-${submitVariant}`}
            disabled={submitDisabled}
            aria-disabled={busy || undefined}
            aria-describedby={submitDescribedBy}
          >
            {submitLabel}
          </button>
        </div>
      </form>
      {after}
    </AppDialog>
  );
}
