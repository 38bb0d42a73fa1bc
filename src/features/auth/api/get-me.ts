import { api } from '../../../lib/api-client.ts';
import type { CurrentUser } from '../../../types/api.ts';

/** Used only to restore a session: its failure signs out silently (spec §8), no redirect. */
export const getMe = () => api.get<CurrentUser>('/api/me', { signOutOn401: false });
