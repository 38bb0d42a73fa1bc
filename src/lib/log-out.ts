import { signOut } from '../stores/session.ts';
import { api } from './api-client.ts';

/**
 * Signs out here and asks the server to drop its media cookie (the HttpOnly cookie that lets
 * <video> and <img> load files without a bearer header), so a shared terminal keeps no access.
 * The local sign-out does not wait for, or depend on, the server's answer.
 */
export function logOut(): void {
  signOut();
  api.post('/api/logout', undefined, { withToken: false, signOutOn401: false }).catch(() => {
    // Offline or already signed out on the server: nothing more to clear.
  });
}
