import { type FormEvent, useState } from 'react';
import { Field } from '../../components/field.tsx';
import { useFieldErrors } from '../../hooks/use-field-errors.ts';
import { ApiError } from '../../lib/api-client.ts';
import { ownNewPasswordHint } from '../../lib/password-rule.ts';
import { refusesField } from '../../lib/run-action.ts';
import { replaceAccessToken } from '../../stores/session.ts';
import { showToast, toastLife } from '../../stores/toasts.ts';
import { changePassword } from './api/change-password.ts';
import { changePasswordErrorMessage } from './login-errors.ts';
import { type PasswordChange, passwordChangeProblem } from './password-rules.ts';
import { authStrings as s } from './strings.ts';

const empty: PasswordChange = { currentPassword: '', newPassword: '', confirmPassword: '' };

export interface ChangePasswordFormProps {
  /** Shown over the fields (the profile dialog's 'Change password'); none on a page of its own. */
  heading?: string;
  /** The button beside 'Update password': the dialog's Cancel, the own-password page's Log out. */
  other: { label: string; onClick: () => void };
  /** After the change, once the session holds the fresh token and the fields are cleared. */
  onChanged?: () => void;
}

/**
 * Spec §2 change-password form: the §5 checks in order before any call, the §8 messages after
 * it. The answer's fresh token replaces the session's (the change revoked every older one) and
 * marks the password as the user's own.
 */
export function ChangePasswordForm({ heading, other, onChanged }: ChangePasswordFormProps) {
  const [fields, setFields] = useState(empty);
  const [busy, setBusy] = useState(false);
  const fieldErrors = useFieldErrors<keyof PasswordChange>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Ignored while changing: the button stays focusable (aria-disabled), and Enter would resend.
    if (busy) return;
    fieldErrors.clear();
    const problem = passwordChangeProblem(fields);
    if (problem) {
      const { fields: concerned, ...toast } = problem;
      showToast(toast);
      fieldErrors.failAll(Object.fromEntries(concerned.map((key) => [key, problem.detail])));
      return;
    }
    setBusy(true);
    try {
      const { token } = await changePassword(fields.currentPassword, fields.newPassword);
      replaceAccessToken(token);
      showToast({ severity: 'success', summary: s.changedTitle, detail: s.changedDetail });
      setFields(empty);
      onChanged?.();
    } catch (error) {
      const detail = changePasswordErrorMessage(error);
      showToast({
        severity: 'error',
        summary: s.changeErrorTitle,
        detail,
        life: toastLife.passwordError,
      });
      // Said at the field to correct, as a failed check is: a 401 is the wrong current password
      // (§8); a 400 is the server's rule refusing the new one (a name in it, a former password),
      // unless it names the current one's field.
      if (error instanceof ApiError && error.status === 401)
        fieldErrors.fail('currentPassword', detail);
      else if (error instanceof ApiError && error.status === 400)
        fieldErrors.fail(
          refusesField(error, 'body.currentPassword') ? 'currentPassword' : 'newPassword',
          detail,
        );
    } finally {
      setBusy(false);
    }
  };

  const input = (key: keyof PasswordChange, label: string, autoComplete: string, hint?: string) => (
    <Field label={label} hint={hint} error={fieldErrors.errors[key] ?? null} announce>
      <input
        ref={fieldErrors.control(key)}
        type="password"
        autoComplete={autoComplete}
        value={fields[key]}
        onChange={(event) => setFields({ ...fields, [key]: event.target.value })}
      />
    </Field>
  );

  return (
    <form className="form" onSubmit={submit}>
      {heading && <h3>{heading}</h3>}
      {input('currentPassword', s.currentPassword, 'current-password')}
      {/* The rules before the server refuses one ('The new password must not contain your name'). */}
      {input('newPassword', s.newPassword, 'new-password', ownNewPasswordHint)}
      {input('confirmPassword', s.confirmPassword, 'new-password')}
      <div className="form-actions">
        <button type="button" className="btn btn-secondary" onClick={other.onClick}>
          {other.label}
        </button>
        <button type="submit" className="btn btn-primary" aria-disabled={busy || undefined}>
          {busy ? s.updating : s.updatePassword}
        </button>
      </div>
    </form>
  );
}
