import { ApiError } from '../../lib/api-client.ts';
import { decodeToken } from '../../lib/jwt.ts';
import { primaryRole, type Role } from '../../lib/roles.ts';
import { session, signIn, signOut, storedAccessToken } from '../../stores/session.ts';
import { getMe } from './api/get-me.ts';
import { postLogin } from './api/login.ts';
import { loginErrorMessage } from './login-errors.ts';
import { passwordExpiry } from './password-expiry.ts';

/** Signs in; any failure signs out and throws an Error carrying the spec §8 message. */
export async function logIn(email: string, password: string): Promise<Role | null> {
  try {
    const { token, ownPassword, passwordExpiredAfterDays, idleMinutes } = await postLogin(
      email,
      password,
    );
    const claims = decodeToken(token);
    passwordExpiry.afterDays = passwordExpiredAfterDays ?? null;
    signIn(token, claims, ownPassword !== false, idleMinutes);
    return primaryRole(claims.roles);
  } catch (error) {
    signOut();
    if (error instanceof ApiError) throw new Error(loginErrorMessage(error.status));
    throw error;
  }
}

let restoring: Promise<void> | null = null;

/**
 * Spec §4: with a stored token and no session, GET /api/me restores it; any failure or non-200
 * answer signs out silently. Concurrent callers share one request.
 */
export function restoreSession(): Promise<void> {
  const token = storedAccessToken();
  if (session.loggedIn || !token) return Promise.resolve();
  if (!restoring) {
    session.restoring = true;
    restoring = getMe()
      .then((me) => {
        passwordExpiry.afterDays = me.passwordExpiredAfterDays ?? null;
        signIn(token, { ...me, id: String(me.id) }, me.ownPassword !== false, me.idleMinutes);
      })
      .catch(() => signOut())
      .finally(() => {
        restoring = null;
      });
  }
  return restoring;
}
