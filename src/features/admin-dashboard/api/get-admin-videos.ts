import { api } from '../../../lib/api-client.ts';
import type { Video } from '../../../types/api.ts';

/** Admin only (spec §6): never called for other roles. */
export const getAdminVideos = () => api.get<Video[]>('/api/admin/videos');
