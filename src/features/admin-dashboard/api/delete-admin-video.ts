import { api, segment } from '../../../lib/api-client.ts';
import type { VideoDeletion } from '../../../types/api.ts';

export const deleteAdminVideo = (id: string) =>
  api.delete<VideoDeletion>(`/api/admin/videos/${segment(id)}`);
