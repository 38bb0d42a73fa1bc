import { api, segment } from '../../../lib/api-client.ts';
import type { VideoDeletion } from '../../../types/api.ts';

/** Spec §7 with the reason the audit trail keeps (the server requires it for an inspection's video). */
export const deleteAdminVideo = (id: string, reason: string) =>
  api.delete<VideoDeletion>(`/api/admin/videos/${segment(id)}`, { body: { reason } });
