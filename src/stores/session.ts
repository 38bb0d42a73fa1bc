import { proxy } from 'valtio';
import type { TokenClaims } from '../lib/jwt.ts';

/** Spec §9: where the access token is kept between visits. */
export const accessTokenKey = 'accessToken';

export interface SessionInfo {
  id: string;
  name: string;
  email: string;
  /** Spec §3: the username equals the email. */
  username: string;
  assignedAreas: string[];
  managedAreas: string[];
  deviceIds: string[];
}

export interface Session {
  loggedIn: boolean;
  /** True while a stored token is being checked with GET /api/me. */
  restoring: boolean;
  info: SessionInfo | null;
  accessToken: string | null;
  roles: string[];
  /**
   * False while the password is one someone else chose: the server serves the user nothing but
   * setting its own, so the app asks for it instead of every page (docs/signatures.md, rule 3).
   */
  ownPassword: boolean;
  /**
   * Minutes without activity after which the app signs out (the server's SESSION_IDLE_MINUTES,
   * from the sign-in or GET /api/me); null when not told, and then the app does not track it.
   */
  idleMinutes: number | null;
}

export const session = proxy<Session>({
  loggedIn: false,
  restoring: false,
  info: null,
  accessToken: null,
  roles: [],
  ownPassword: true,
  idleMinutes: null,
});

export function storedAccessToken(): string | null {
  return localStorage.getItem(accessTokenKey);
}

export function signIn(
  accessToken: string,
  user: TokenClaims,
  ownPassword = true,
  idleMinutes: number | null = null,
): void {
  localStorage.setItem(accessTokenKey, accessToken);
  session.accessToken = accessToken;
  session.info = {
    id: user.id,
    name: user.name,
    email: user.email,
    username: user.email,
    assignedAreas: [],
    managedAreas: [],
    deviceIds: [],
  };
  session.roles = [...user.roles];
  session.ownPassword = ownPassword;
  session.idleMinutes = idleMinutes;
  session.loggedIn = true;
  session.restoring = false;
}

/** A password change answers a fresh token: the old one (and every other session) is revoked. */
export function replaceAccessToken(accessToken: string): void {
  localStorage.setItem(accessTokenKey, accessToken);
  session.accessToken = accessToken;
  // Only a change of one's own password answers a new token: the password is now one's own.
  session.ownPassword = true;
}

/**
 * A renewal answers a fresh token of the same session, and the server's idle limit as it is now
 * (docs/sessions.md, sign-out after inactivity).
 */
export function renewAccessToken(accessToken: string, idleMinutes: number): void {
  localStorage.setItem(accessTokenKey, accessToken);
  session.accessToken = accessToken;
  session.idleMinutes = idleMinutes;
}

/** Spec §4: logout, a failed login or restore and any 401 all end here. */
export function signOut(): void {
  localStorage.removeItem(accessTokenKey);
  session.accessToken = null;
  session.info = null;
  session.roles = [];
  session.ownPassword = true;
  session.idleMinutes = null;
  session.loggedIn = false;
  session.restoring = false;
}
