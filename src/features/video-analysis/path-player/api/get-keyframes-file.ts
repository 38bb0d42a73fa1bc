import { api, segment } from '../../../../lib/api-client.ts';

/**
 * Spec §7: the keyframes text file of a video, its response unread: the body (10^7 lines are about
 * 300 MB) is forwarded to the path worker in chunks rather than read here in one piece.
 */
export const openKeyframesFile = (videoId: string, signal?: AbortSignal) =>
  api.open(`/api/keyframes/${segment(videoId)}.txt`, { signal });
