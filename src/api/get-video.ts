import { api, segment } from '../lib/api-client.ts';
import type { Video } from '../types/api.ts';

/** Spec §4: a videoId that is not in the loaded list is fetched on its own. */
export const getVideo = (id: string) => api.get<Video>(`/api/videos/${segment(id)}`);
