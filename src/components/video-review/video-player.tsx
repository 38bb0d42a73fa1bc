import { type RefObject, useEffect } from 'react';
import { segment } from '../../lib/api-client.ts';
import { keepActiveWhilePlaying } from '../../lib/idle-session.ts';
import { awaitingUpload } from '../../lib/video.ts';
import type { Video } from '../../types/api.ts';
import { connectMedia } from './media-sync.ts';
import type { PlaybackClock } from './playback-clock.ts';
import { videoStrings as s } from './strings.ts';

/** Spec §3/§7: the file is served by GET /api/videos/{filename} unless path.video names it. */
export function videoSource(video: Pick<Video, 'filename' | 'path'>): string {
  return video.path?.video || `/api/videos/${segment(video.filename)}`;
}

export interface VideoPlayerProps {
  video: Video;
  clock: PlaybackClock;
  mediaRef: RefObject<HTMLVideoElement | null>;
  /** Spec §4: a time outside the bounds resets to the minimum. */
  clamp(time: number): number;
  onDuration(seconds: number): void;
}

/**
 * Spec §2 player: 500 px wide, at most 450 px high. The media cookie set at sign-in authorises the
 * plain <video src> request (no bearer header is possible there).
 */
export function VideoPlayer({ video, clock, mediaRef, clamp, onDuration }: VideoPlayerProps) {
  useEffect(() => {
    const media = mediaRef.current;
    if (!media) return;
    return connectMedia(media, clock, { clamp, onDuration });
  }, [mediaRef, clock, clamp, onDuration]);

  // A reviewer watching a recording touches nothing: playing is activity (no idle sign-out).
  useEffect(() => {
    const media = mediaRef.current;
    return media ? keepActiveWhilePlaying(media) : undefined;
  }, [mediaRef]);

  // No request for a file the server does not have yet (it would only answer 404).
  if (awaitingUpload(video)) {
    return (
      <p className="va-video va-awaiting-upload" role="status">
        {s.awaitingUpload}
      </p>
    );
  }
  return (
    // biome-ignore lint/a11y/useMediaCaption: inspection videos are silent recordings of a walk.
    <video
      ref={mediaRef}
      className="va-video"
      src={videoSource(video)}
      width={500}
      controls
      preload="metadata"
      aria-label={s.player}
    />
  );
}
