import { api, segment } from '../../../lib/api-client.ts';
import type { Prediction } from '../../../types/api.ts';

/** Spec §7: the detections of a video's keyframes. */
export const getPredictions = (videoId: string) =>
  api.get<Prediction[]>(`/api/predictions/${segment(videoId)}`);
