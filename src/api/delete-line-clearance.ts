import { api, segment } from '../lib/api-client.ts';

/** Spec §7, with the reason the audit trail keeps with the deletion. */
export const deleteLineClearance = (id: string, reason: string) =>
  api.delete<unknown>(`/api/line-clearances/${segment(id)}`, { body: { reason } });
