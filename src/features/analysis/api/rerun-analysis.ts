import { api, segment } from '../../../lib/api-client.ts';

/** Admins: queue the video's analysis again (e.g. after changing the detector). */
export const rerunAnalysis = (videoId: string) =>
  api.post<{ message: string }>(`/api/analysis/videos/${segment(videoId)}/run`);
