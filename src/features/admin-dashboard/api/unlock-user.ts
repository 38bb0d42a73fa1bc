import { api, segment } from '../../../lib/api-client.ts';

/** Lifts a sign-in lock (too many failed passwords) before it expires. */
export const unlockUser = (id: string) =>
  api.post<{ message: string }>(`/api/users/${segment(id)}/unlock`);
