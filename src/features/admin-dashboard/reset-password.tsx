import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useSnapshot } from 'valtio';
import { TextField } from '../../components/field.tsx';
import { changeWords, useReasonField } from '../../components/reason-dialog.tsx';
import { userMessages as messages } from '../../config/entity-messages.ts';
import { useNewPassword } from '../../hooks/use-new-password.ts';
import { refusesField, tryAction } from '../../lib/run-action.ts';
import { manageBlocker } from '../../lib/user-management.ts';
import { session } from '../../stores/session.ts';
import type { User } from '../../types/api.ts';
import { updateUser } from './api/update-user.ts';
import { adminStrings as s } from './strings.ts';

/**
 * Whether the signed-in user may set `target`'s password, as the server allows it
 * (docs/permissions.md "Passwords and emails"): an admin anyone's, a factory manager's only an
 * account whose roles are all LC manager, audit or operator; an LC manager nobody's. One's own
 * password is changed in Profile, with the current one.
 */
export function mayResetPassword(
  roles: readonly string[],
  selfId: string | undefined,
  target: User,
): boolean {
  if (target._id === selfId) return false;
  // Only admins and factory managers set another user's password; they see every line.
  if (!roles.includes('admin') && !roles.includes('factory_manager')) return false;
  return manageBlocker({ id: selfId ?? null, roles }, target, []) === null;
}

type Step = 'enter' | 'confirm';

/**
 * Edit User's 'Reset password': a temporary password (the rule of every new password) and the
 * reason for the change (kept in its audit entry, EU GMP Annex 11 §10), then a confirmation that
 * names what follows, then `PUT /api/users/{id}` with the stored user, the password and the
 * reason. It is its own action, apart from the form's Save: the server revokes every token of the
 * user, so all of the user's sessions end.
 */
export function ResetPassword({ user }: { user: User }) {
  const { roles, info } = useSnapshot(session);
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);
  const id = useId();

  const heading = <h3 id={`${id}-title`}>{s.passwordSection}</h3>;
  if (info?.id === user._id) {
    return (
      <section className="dialog-section" aria-labelledby={`${id}-title`}>
        {heading}
        <p className="muted">{s.ownPasswordInProfile}</p>
      </section>
    );
  }
  if (!mayResetPassword(roles, info?.id, user)) return null;

  const close = (saved: boolean) => {
    flushSync(() => {
      setOpen(false);
      setDone(saved);
    });
    openButton.current?.focus();
  };

  return (
    <section className="dialog-section" aria-labelledby={`${id}-title`}>
      {heading}
      {open ? (
        <ResetForm user={user} onClose={close} />
      ) : (
        <>
          {done && <p role="status">{s.passwordResetDone(user.name)}</p>}
          <button
            type="button"
            ref={openButton}
            className="btn btn-secondary"
            onClick={() => {
              setDone(false);
              setOpen(true);
            }}
          >
            {s.resetPassword}
          </button>
        </>
      )}
    </section>
  );
}

/** The open reset; mounted only while open, so each opening starts with empty fields. */
function ResetForm({ user, onClose }: { user: User; onClose: (saved: boolean) => void }) {
  const [step, setStep] = useState<Step>('enter');
  const [busy, setBusy] = useState(false);
  const { password, check, field } = useNewPassword();
  // The rule of Edit User's own reason: a reset always changes something, so it is required.
  const reason = useReasonField(changeWords(messages.noun[0]));
  const passwordInput = field.inputRef;
  const submitButton = useRef<HTMLButtonElement>(null);
  const id = useId();

  useEffect(() => passwordInput.current?.focus(), [passwordInput]);

  const show = (next: Step, focus: () => HTMLElement | null | undefined) => {
    flushSync(() => setStep(next));
    focus()?.focus();
  };
  const backToPassword = () => show('enter', () => passwordInput.current);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (step === 'enter') {
      if (check() && reason.check() !== null) show('confirm', () => submitButton.current);
      return;
    }
    const given = reason.check();
    if (given === null) {
      setStep('enter');
      return;
    }
    setBusy(true);
    const outcome = await tryAction(
      () => updateUser(user._id, { ...user, password, reason: given }),
      s.passwordReset,
      messages.updateFailed,
    );
    setBusy(false);
    if (outcome.done) onClose(true);
    else if (outcome.said && refusesField(outcome.error, 'body.reason')) {
      flushSync(() => setStep('enter'));
      reason.fail(outcome.said);
    } else backToPassword();
  };

  return (
    <form className="form" noValidate onSubmit={submit}>
      <TextField
        label={s.temporaryPassword}
        {...field}
        // What is confirmed is what is sent: a change goes back to the first step.
        onChange={(value) => {
          field.onChange(value);
          setStep('enter');
        }}
        type="text"
        autoComplete="off"
      />
      <p className="muted">{s.resetExplained(user.name)}</p>
      {user.lockedUntil && <p className="muted">{s.resetWhileLocked}</p>}
      {reason.field}
      {step === 'confirm' && (
        <p id={`${id}-question`} className="form-error">
          {s.resetQuestion(user.name)}
        </p>
      )}
      <div className="form-actions">
        <button
          type="button"
          className="btn btn-secondary"
          onClick={step === 'confirm' ? backToPassword : () => onClose(false)}
        >
          {step === 'confirm' ? s.back : s.cancel}
        </button>
        <button
          type="submit"
          ref={submitButton}
          className="btn btn-danger"
          disabled={busy}
          aria-describedby={step === 'confirm' ? `${id}-question` : undefined}
        >
          {step === 'confirm' ? s.confirmReset : s.resetPassword}
        </button>
      </div>
    </form>
  );
}
