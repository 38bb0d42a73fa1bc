import { api, segment } from '../../../../lib/api-client.ts';
import { downloadKeyframes } from '../../../../lib/path-client.ts';

/**
 * Spec §7: the keyframes text file of a video, downloaded by the path worker itself (10^7 lines
 * are about 300 MB, which the page's thread then never reads), with the API client's token and
 * failure handling. Answers the worker's download id for loadPathView.
 */
export function downloadKeyframesFile(videoId: string, signal?: AbortSignal) {
  const url = `/api/keyframes/${segment(videoId)}.txt`;
  const absolute = new URL(url, window.location.href).href;
  return api.getElsewhere(url, (headers) => downloadKeyframes(absolute, headers, signal));
}
