import { api } from '../../../lib/api-client.ts';

/**
 * A 401 here means the current password is wrong; the session stays (spec §8). Success answers
 * a fresh token, because the change signs out every other session.
 */
export const changePassword = (currentPassword: string, newPassword: string) =>
  api.post<{ message: string; token: string }>(
    '/api/change-password',
    { currentPassword, newPassword },
    { signOutOn401: false },
  );
