import { api, segment } from '../../../lib/api-client.ts';

/** Lifts a sign-in lock (too many failed passwords) before it expires, for `reason` (audited). */
export const unlockUser = (id: string, reason: string) =>
  api.post<{ message: string }>(`/api/users/${segment(id)}/unlock`, { reason });
