import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { Field } from '../../components/field.tsx';
import { dashboardPathByRole } from '../../lib/roles.ts';
import { showToast, toastLife } from '../../stores/toasts.ts';
import { logIn } from './session-actions.ts';
import { authStrings as s } from './strings.ts';

export default function LoginPage() {
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const emailField = useRef<HTMLInputElement>(null);

  // Arriving here (the toolbar's Sign In, a redirect, a typed URL) is to sign in: start in Email.
  useEffect(() => {
    emailField.current?.focus();
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const role = await logIn(email.trim(), password);
      navigate(role ? dashboardPathByRole[role] : '/');
    } catch (error) {
      showToast({
        severity: 'error',
        summary: s.loginFailedTitle,
        detail: error instanceof Error && error.message ? error.message : s.unexpectedError,
        life: toastLife.long,
      });
      setBusy(false);
    }
  };

  return (
    <section className="page login-page">
      <form className="card login-card" onSubmit={submit}>
        <h1>{s.loginTitle}</h1>
        <p className="muted">{s.loginIntro}</p>
        <Field label={s.email}>
          <input
            ref={emailField}
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
              id="login-password"
              type={showPassword ? 'text' : 'password'}
              name="password"
              autoComplete="current-password"
              aria-required="true"
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
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? s.submitting : s.submit}
        </button>
      </form>
    </section>
  );
}
