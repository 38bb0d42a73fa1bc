import type { ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { paths } from '../../config/paths.ts';
import { usePageHeading } from '../../hooks/use-heading-focus.ts';
import { logOut } from '../../lib/log-out.ts';
import { session } from '../../stores/session.ts';
import { ChangePasswordForm } from './change-password-form.tsx';
import { passwordExpiry } from './password-expiry.ts';
import { authStrings as s } from './strings.ts';

/**
 * Over the routed page while the signed-in user's password is one someone else chose (a new
 * account's, a reset, the deployment's first admin), or one older than the server's maximum age:
 * the server answers nothing else until the user sets a new one of its own (docs/signatures.md,
 * rule 3; docs/permissions.md), so the page asks for it first, saying which. Once set, the page
 * the user went to shows; the login page stays reachable (a shared terminal).
 */
export function OwnPasswordGate({ children }: { children: ReactNode }) {
  const snap = useSnapshot(session);
  const [location] = useLocation();
  if (!snap.loggedIn || snap.ownPassword || location === paths.login) return children;
  return <SetOwnPasswordPage />;
}

function SetOwnPasswordPage() {
  const { afterDays } = useSnapshot(passwordExpiry);
  const title = afterDays === null ? s.ownPasswordTitle : s.expiredPasswordTitle;
  const heading = usePageHeading(title);
  const [, navigate] = useLocation();
  const leave = () => {
    logOut();
    navigate(paths.home);
  };
  return (
    <section className="page">
      <div className="card login-card">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        <p>{afterDays === null ? s.ownPasswordWhy : s.expiredPasswordWhy(afterDays)}</p>
        <ChangePasswordForm other={{ label: s.logOut, onClick: leave }} />
      </div>
    </section>
  );
}
