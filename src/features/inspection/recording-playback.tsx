import { useEffect, useState } from 'react';
import { pastAnyEnd } from '../../components/video-review/media-sync.ts';
import { type LocalRecording, loadChunks } from '../../lib/capture/recording-db.ts';
import { inspectionStrings as s } from './strings.ts';

type Playback =
  | { state: 'loading' }
  | { state: 'ready'; url: string }
  | { state: 'unplayable'; message: string };

/**
 * The recording as stored on the phone, to watch before submitting it: one Blob of the stored
 * chunk Blobs (references to the browser's storage, so a long recording is not read into memory),
 * played from an object URL that is revoked when the recording changes or the step closes.
 */
export function RecordingPlayback({
  recording,
}: {
  recording: Pick<LocalRecording, 'id' | 'mimeType'>;
}) {
  const { id, mimeType } = recording;
  const [playback, setPlayback] = useState<Playback>({ state: 'loading' });

  useEffect(() => {
    let url: string | null = null;
    let current = true;
    setPlayback({ state: 'loading' });
    loadChunks(id).then(
      (chunks) => {
        if (!current) return;
        if (chunks.length === 0) {
          setPlayback({ state: 'unplayable', message: s.playbackMissing });
          return;
        }
        url = URL.createObjectURL(new Blob(chunks, { type: mimeType }));
        setPlayback({ state: 'ready', url });
      },
      () => current && setPlayback({ state: 'unplayable', message: s.playbackFailed }),
    );
    return () => {
      current = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [id, mimeType]);

  if (playback.state === 'loading') return null;
  if (playback.state === 'unplayable') {
    return (
      <p className="capture-note" role="status">
        {playback.message}
      </p>
    );
  }
  const { url } = playback;
  return (
    // biome-ignore lint/a11y/useMediaCaption: inspection videos are silent recordings of a walk.
    <video
      className="capture-playback"
      src={url}
      aria-label={s.yourRecording}
      controls
      playsInline
      preload="metadata"
      onLoadedMetadata={(event) => seekWhole(event.currentTarget)}
      // A video the browser cannot decode (an unknown codec, a damaged file): said in words
      // rather than a player that never starts. Only this URL's: not one revoked for the next.
      onError={() =>
        setPlayback((now) =>
          now.state === 'ready' && now.url === url
            ? { state: 'unplayable', message: s.playbackFailed }
            : now,
        )
      }
    />
  );
}

/**
 * MediaRecorder's WebM states no length: the browser reports Infinity, and its controls cannot seek
 * until it has read the whole file (a long walk's end could only be seen by watching all of it). A
 * seek past the end makes it find the length now; then back to the start. The step shows the
 * recording's own length either way.
 */
function seekWhole(video: HTMLVideoElement): void {
  if (Number.isFinite(video.duration)) return;
  video.addEventListener('seeked', () => (video.currentTime = 0), { once: true });
  video.currentTime = pastAnyEnd;
}
