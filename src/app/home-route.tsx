import { lazy } from 'react';
import { useSnapshot } from 'valtio';
import { Redirect } from 'wouter';
import { dashboardPathByRole, primaryRole } from '../lib/roles.ts';
import { session } from '../stores/session.ts';
import { RestoringSession, useRestoring } from './guard.tsx';

const StartPage = lazy(() => import('../features/start/start-page.tsx'));

/**
 * Spec §2: a signed-in user opening / lands on the dashboard of the primary role. Only when the
 * app was opened at / (`redirectOnLanding`): / reached inside the app (logo, a role redirect)
 * shows the start page with its Quick Actions, which would otherwise never be reachable.
 */
export function HomeRoute({ redirectOnLanding }: { redirectOnLanding: boolean }) {
  const snap = useSnapshot(session);
  const restoring = useRestoring();
  if (redirectOnLanding && restoring) return <RestoringSession />;
  const role = snap.loggedIn ? primaryRole(snap.roles) : null;
  if (redirectOnLanding && role) return <Redirect to={dashboardPathByRole[role]} replace />;
  return <StartPage />;
}
