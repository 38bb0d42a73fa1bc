import { api } from '../../../lib/api-client.ts';
import type { LoginResponse } from '../../../types/api.ts';

/** No token is sent, and a 401 here means wrong credentials, not an expired session. */
export const postLogin = (email: string, password: string) =>
  api.post<LoginResponse>(
    '/api/login',
    { email, password },
    { withToken: false, signOutOn401: false },
  );
