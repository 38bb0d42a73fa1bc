import { api } from '../../../lib/api-client.ts';
import type { AdminVideo } from '../../../types/api.ts';

/** Admin only (spec §6): never called for other roles. Each video says if it is signed evidence. */
export const getAdminVideos = () => api.get<AdminVideo[]>('/api/admin/videos');
