import { videoIdOf } from '../../lib/video.ts';
import type { Video } from '../../types/api.ts';

/** Spec §4: an exact id match first, then an id containing the reference (or contained in it). */
export function matchVideo(videos: readonly Video[], ref: string): Video | null {
  if (!ref) return null;
  const exact = videos.find((video) => videoIdOf(video) === ref);
  if (exact) return exact;
  return (
    videos.find((video) => {
      const id = videoIdOf(video);
      return id !== null && (id.includes(ref) || ref.includes(id));
    }) ?? null
  );
}

/**
 * The server answers a video as JSON only for a record id (24 hex digits); any other reference
 * names a file, which it would stream. Only record ids are worth fetching on their own.
 */
export function isRecordId(ref: string): boolean {
  return /^[0-9a-f]{24}$/i.test(ref);
}

/** The answer of fetching a video by id: the video, or null when the fetch failed. */
export interface FetchedVideo {
  ref: string;
  video: Video | null;
}

export type SelectionStep =
  /** No videoId in the route: nothing is selected until the user picks one. */
  | { step: 'none' }
  /** The video list has not loaded yet. */
  | { step: 'wait' }
  | { step: 'select'; video: Video }
  /** The reference is not in the list: fetch it by id. */
  | { step: 'fetch'; id: string }
  /** Spec §4 fallback: the first loaded video (null when the list is empty). */
  | { step: 'fallback'; video: Video | null };

/**
 * Spec §4 selection by the videoId route parameter: exact match, then containment, then the
 * video fetched by id, then the first loaded video.
 */
export function selectionStep(
  videos: readonly Video[] | null,
  ref: string | null,
  fetched: FetchedVideo | null,
): SelectionStep {
  if (!ref) return { step: 'none' };
  if (!videos) return { step: 'wait' };
  const matched = matchVideo(videos, ref);
  if (matched) return { step: 'select', video: matched };
  const answer =
    fetched && (fetched.ref === ref || (fetched.video && videoIdOf(fetched.video) === ref))
      ? fetched
      : null;
  if (answer?.video) return { step: 'select', video: answer.video };
  if (!answer && isRecordId(ref)) return { step: 'fetch', id: ref };
  return { step: 'fallback', video: videos[0] ?? null };
}
