import { type ReactNode, useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Redirect, useLocation, useSearch } from 'wouter';
import { paths } from '../config/paths.ts';
import { restoreSession } from '../features/auth/session-actions.ts';
import { authStrings } from '../features/auth/strings.ts';
import { loginPath } from '../lib/login-return.ts';
import { hasAnyRole, type Role } from '../lib/roles.ts';
import { session, storedAccessToken } from '../stores/session.ts';
import { toasts, toastWarning } from '../stores/toasts.ts';

/** True while a stored token waits to be turned into a session (spec §2 guard, first rule). */
export function useRestoring(): boolean {
  const snap = useSnapshot(session);
  const pending = snap.restoring || (!snap.loggedIn && storedAccessToken() !== null);
  useEffect(() => {
    if (pending) void restoreSession();
  }, [pending]);
  return pending;
}

export function RestoringSession() {
  return (
    <p className="page muted" role="status">
      {authStrings.restoring}
    </p>
  );
}

/**
 * Spec §2 guard: restore a stored session first; signed out goes to /login, passing the page to
 * return to after signing in (a link opened signed out); signed in without one of `roles` goes
 * to /.
 */
export function Guard({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const snap = useSnapshot(session);
  const restoring = useRestoring();
  const [location] = useLocation();
  const search = useSearch();
  if (restoring) return <RestoringSession />;
  if (!snap.loggedIn) {
    return <Redirect to={loginPath(search ? `${location}?${search}` : location)} replace />;
  }
  if (!hasAnyRole(snap.roles, roles)) return <NotPermitted />;
  return children;
}

/** To / as the spec's guard says, saying why: a silent jump to the dashboard confused users. */
function NotPermitted() {
  useEffect(() => {
    // Once, although React's development mode runs effects twice.
    if (!toasts.items.some((toast) => toast.detail === authStrings.notPermitted)) {
      toastWarning(authStrings.notPermitted);
    }
  }, []);
  return <Redirect to={paths.home} replace />;
}
