import { signOut, storedAccessToken } from '../stores/session.ts';
import type { LogoutReason } from '../types/api.ts';
import { api } from './api-client.ts';

/**
 * Signs out here and asks the server to end the session: it revokes this session's bearer token
 * and media token (the HttpOnly cookie that lets <video> and <img> load files) and drops the
 * cookie, so a shared terminal keeps no access. The call takes the token before the local sign-out
 * forgets it; the sign-out does not wait for, or depend on, the server's answer. `reason` goes to
 * the audit trail: the user's choice unless the app signed out after inactivity. Without a stored
 * token another tab has signed out first and ended the session (one logout in the trail): nothing
 * is sent. The token's removal signs every other tab out (`followSignOutInOtherTabs`).
 */
export function logOut(reason: LogoutReason = 'user'): void {
  const ended = storedAccessToken()
    ? api.post('/api/logout', { reason }, { signOutOn401: false })
    : null;
  signOut();
  ended?.catch(() => {
    // Offline or already signed out on the server: nothing more to clear.
  });
}
