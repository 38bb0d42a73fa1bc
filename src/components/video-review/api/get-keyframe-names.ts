import { api, segment } from '../../../lib/api-client.ts';
import { keyframeImageNames } from '../../../lib/path-client.ts';

/**
 * Spec §7: the keyframes file read as the list of its keyframe image names (`<ts>.png`, in file
 * order). The file can hold millions of lines, so the path worker scans it off the main thread.
 */
export async function getKeyframeNames(videoId: string): Promise<string[]> {
  const bytes = await api.bytes(`/api/keyframes/${segment(videoId)}.txt`);
  return keyframeImageNames(bytes);
}
