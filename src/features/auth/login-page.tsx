import { type FormEvent, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useLocation, useRouter, useSearch } from 'wouter';
import { guardAdmits } from '../../app/router.tsx';
import { Field } from '../../components/field.tsx';
import { useFieldErrors } from '../../hooks/use-field-errors.ts';
import { usePageHeading } from '../../hooks/use-heading-focus.ts';
import { SESSION_ENDED, SIGNED_OUT_ELSEWHERE } from '../../lib/api-client.ts';
import { readIdleSignOut } from '../../lib/idle-session.ts';
import { readLoginQuery } from '../../lib/login-return.ts';
import { dashboardPathByRole } from '../../lib/roles.ts';
import { session } from '../../stores/session.ts';
import { showToast, toastLife } from '../../stores/toasts.ts';
import { getInstance } from './api/get-instance.ts';
import { logIn } from './session-actions.ts';
import { authStrings as s } from './strings.ts';

const passwordErrorId = 'login-password-error';

export default function LoginPage() {
  // The title only: the page starts in its Email field.
  usePageHeading(s.loginTitle);
  const [, navigate] = useLocation();
  const { parser } = useRouter();
  const { next, reason } = readLoginQuery(useSearch());
  const sessionEnded = reason === SESSION_ENDED;
  const signedOutElsewhere = reason === SIGNED_OUT_ELSEWHERE;
  const idle = readIdleSignOut(reason);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const emailField = useRef<HTMLInputElement>(null);
  const submitButton = useRef<HTMLButtonElement>(null);
  const fields = useFieldErrors<'email' | 'password'>();
  const emailControl = fields.control('email');

  // Arriving here (the toolbar's Sign In, a redirect, a typed URL) is to sign in: start in Email.
  useEffect(() => {
    emailField.current?.focus();
  }, []);

  // Nobody should record real work on a server whose accounts share a published password; the
  // notice is a courtesy, so a failed ask shows nothing.
  const [demo, setDemo] = useState(false);
  useEffect(() => {
    let current = true;
    getInstance().then(
      (instance) => current && setDemo(instance.demo),
      () => {},
    );
    return () => {
      current = false;
    };
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    fields.clear();
    setBusy(true);
    try {
      const role = await logIn(email.trim(), password);
      // Spec §2: the role's dashboard; but back to the page the guard or a sign-out sent here
      // from, when this user's roles open it (another user may sign in on a shared terminal).
      const back =
        next !== null &&
        guardAdmits(parser, new URL(next, window.location.origin).pathname, session.roles);
      navigate(back ? next : role ? dashboardPathByRole[role] : '/');
    } catch (error) {
      const detail = error instanceof Error && error.message ? error.message : s.unexpectedError;
      showToast({ severity: 'error', summary: s.loginFailedTitle, detail, life: toastLife.long });
      flushSync(() => setBusy(false));
      // The spec's toast, and the field to correct: wrong credentials at the password, a missing
      // value at the empty field. Anything else keeps the focus on the (again enabled) button.
      if (detail === s.login401) fields.fail('password', detail);
      else if (detail === s.login400) fields.fail(email.trim() ? 'password' : 'email', detail);
      else submitButton.current?.focus();
    }
  };

  return (
    <section className="page login-page">
      <form className="card login-card" onSubmit={submit}>
        <h1>{s.loginTitle}</h1>
        {sessionEnded && (
          <p className="report-warning" role="status">
            {s.sessionEnded}
          </p>
        )}
        {signedOutElsewhere && (
          <p className="report-warning" role="status">
            {s.signedOutElsewhere}
          </p>
        )}
        {idle && (
          <p className="report-warning" role="status">
            {s.signedOutIdle(idle.minutes)}
            {idle.uploads && ` ${s.uploadsWait}`}
          </p>
        )}
        <p className="muted">{s.loginIntro}</p>
        {demo && <p className="report-warning">{s.demoNotice}</p>}
        <Field label={s.email} error={fields.errors.email}>
          <input
            ref={(input) => {
              emailField.current = input;
              emailControl(input);
            }}
            type="email"
            name="email"
            autoComplete="username"
            aria-required="true"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </Field>
        <div className="field">
          <label className="field-label" htmlFor="login-password">
            {s.password}
          </label>
          <div className="password-input">
            <input
              ref={fields.control('password')}
              id="login-password"
              type={showPassword ? 'text' : 'password'}
              name="password"
              autoComplete="current-password"
              aria-required="true"
              aria-invalid={fields.errors.password ? true : undefined}
              aria-describedby={fields.errors.password ? passwordErrorId : undefined}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            <button
              type="button"
              className="btn btn-ghost"
              aria-pressed={showPassword}
              onClick={() => setShowPassword(!showPassword)}
            >
              {showPassword ? s.hidePassword : s.showPassword}
            </button>
          </div>
          {/* As Field shows one (with the toggle beside it, the input is no Field's child). */}
          {fields.errors.password && (
            <p id={passwordErrorId} className="field-error">
              {fields.errors.password}
            </p>
          )}
        </div>
        <button
          ref={submitButton}
          type="submit"
          className="btn btn-primary btn-block"
          disabled={busy}
        >
          {busy ? s.submitting : s.submit}
        </button>
      </form>
    </section>
  );
}
