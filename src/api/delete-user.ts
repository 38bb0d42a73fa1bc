import { api, segment } from '../lib/api-client.ts';

/** Spec §7 (an LC manager's operator too), with the reason the audit trail keeps with the deletion. */
export const deleteUser = (id: string, reason: string) =>
  api.delete<unknown>(`/api/users/${segment(id)}`, { body: { reason } });
