import { type FormEvent, type RefObject, useState } from 'react';
import { AppDialog } from '../../components/app-dialog.tsx';
import { Avatar } from '../../components/avatar.tsx';
import { Field } from '../../components/field.tsx';
import { replaceAccessToken } from '../../stores/session.ts';
import { showToast, toastLife } from '../../stores/toasts.ts';
import { changePassword } from './api/change-password.ts';
import { changePasswordErrorMessage } from './login-errors.ts';
import { type PasswordChange, passwordChangeProblem } from './password-rules.ts';
import { authStrings as s } from './strings.ts';

const empty: PasswordChange = { currentPassword: '', newPassword: '', confirmPassword: '' };

export interface ProfileDialogProps {
  open: boolean;
  returnFocusTo?: RefObject<HTMLElement | null>;
  onOpenChange: (open: boolean) => void;
  name: string;
  email: string;
}

export function ProfileDialog({
  open,
  onOpenChange,
  name,
  email,
  returnFocusTo,
}: ProfileDialogProps) {
  const [fields, setFields] = useState(empty);
  const [busy, setBusy] = useState(false);

  // Spec §2: closing the dialog, by any means, clears the fields.
  const setOpen = (next: boolean) => {
    if (!next) setFields(empty);
    onOpenChange(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = passwordChangeProblem(fields);
    if (problem) {
      showToast(problem);
      return;
    }
    setBusy(true);
    try {
      const { token } = await changePassword(fields.currentPassword, fields.newPassword);
      replaceAccessToken(token);
      showToast({ severity: 'success', summary: s.changedTitle, detail: s.changedDetail });
      setOpen(false);
    } catch (error) {
      showToast({
        severity: 'error',
        summary: s.changeErrorTitle,
        detail: changePasswordErrorMessage(error),
        life: toastLife.passwordError,
      });
    } finally {
      setBusy(false);
    }
  };

  const input = (key: keyof PasswordChange, label: string, autoComplete: string) => (
    <Field label={label}>
      <input
        type="password"
        autoComplete={autoComplete}
        value={fields[key]}
        onChange={(event) => setFields({ ...fields, [key]: event.target.value })}
      />
    </Field>
  );

  return (
    <AppDialog
      open={open}
      onOpenChange={setOpen}
      title={s.profileTitle}
      width="450px"
      returnFocusTo={returnFocusTo}
    >
      <div className="profile-identity">
        <Avatar name={name} size="large" />
        <div>
          <p className="profile-name">{name}</p>
          <p className="muted">{email}</p>
        </div>
      </div>
      <form className="form" onSubmit={submit}>
        <h3>{s.changePassword}</h3>
        {input('currentPassword', s.currentPassword, 'current-password')}
        {input('newPassword', s.newPassword, 'new-password')}
        {input('confirmPassword', s.confirmPassword, 'new-password')}
        <div className="form-actions">
          <button type="button" className="btn btn-secondary" onClick={() => setOpen(false)}>
            {s.cancel}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? s.updating : s.updatePassword}
          </button>
        </div>
      </form>
    </AppDialog>
  );
}
