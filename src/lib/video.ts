import type { Video } from '../types/api.ts';

/** What identifies a video; older records may carry only some of it (spec §3). */
export type VideoRef = Partial<Pick<Video, 'id' | '_id' | 'filename' | 'path'>> & {
  videoId?: string;
};

/**
 * Spec §3: a video's id is `id`, else `_id`, `videoId`, `filename`, else the file name of
 * path.video without its extension. Null when none of them is present.
 */
export function videoIdOf(video: VideoRef): string | null {
  const direct = video.id || video._id || video.videoId || video.filename;
  if (direct) return direct;
  const file = video.path?.video?.split('/').pop();
  if (!file) return null;
  const dot = file.lastIndexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}

/** Size in bytes from `size` or `fileSize`; duration in seconds from `duration` or metadata. */
export function videoSize(video: Video): number | null {
  return video.size ?? video.fileSize ?? null;
}

/**
 * A recording submitted from a device whose file has not arrived yet: the capture API creates
 * its video pending with size 0, and the verified upload sets the size (docs/capture.md).
 */
export function awaitingUpload(video: Video): boolean {
  return video.status === 'pending' && videoSize(video) === 0;
}

export function videoDuration(video: Video): number | null {
  return video.duration ?? video.metadata?.duration ?? null;
}
