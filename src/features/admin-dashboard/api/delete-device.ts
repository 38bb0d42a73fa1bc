import { api, segment } from '../../../lib/api-client.ts';

/** Spec §7, with the reason the audit trail keeps with the deletion. */
export const deleteDevice = (id: string, reason: string) =>
  api.delete<unknown>(`/api/devices/${segment(id)}`, { body: { reason } });
