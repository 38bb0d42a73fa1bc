import { onClockChange, type PlaybackClock, shouldSeek } from './playback-clock.ts';

/** What the sync uses of an HTMLMediaElement (tests drive a stand-in with the same events). */
export type SyncedMedia = Pick<
  HTMLMediaElement,
  | 'currentTime'
  | 'readyState'
  | 'paused'
  | 'duration'
  | 'playbackRate'
  | 'error'
  | 'pause'
  | 'play'
  | 'addEventListener'
  | 'removeEventListener'
>;

export interface FrameScheduler {
  request(callback: () => void): number;
  cancel(id: number): void;
}

export interface MediaSyncOptions {
  /** Spec §4: a time outside the bounds resets to the minimum. */
  clamp(time: number): number;
  /**
   * The media's duration once its metadata is known (NaN before, Infinity for streams). A file
   * that states none (MediaRecorder's WebM) is measured first (see connectMedia): Infinity then
   * only when even that failed.
   */
  onDuration(seconds: number): void;
  frames?: FrameScheduler;
}

const browserFrames: FrameScheduler = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (id) => cancelAnimationFrame(id),
};

/** HTMLMediaElement.HAVE_METADATA: duration and dimensions known, seeking possible. */
const haveMetadata = 1;

/** Far past any recording's end: a seek there makes the browser find the real duration. */
export const pastAnyEnd = Number.MAX_SAFE_INTEGER;

/**
 * Keeps the clock and the media element in step (spec §4, §5):
 * - the clock's time seeks the media when they differ by more than 0.05 s, and a seek requested
 *   before the media is ready waits for its metadata;
 * - the media's play, pause and end events set `playing`; while playing, its time drives the
 *   clock once per animation frame (timeupdate alone fires only about 4 times a second);
 * - while the user drags the slider (`seeking`) the media is paused and its time is ignored;
 * - the clock's rate sets the media's playback rate, and the native controls' rate menu the
 *   clock's;
 * - a file stating no duration (MediaRecorder's WebM, a phone's recording: Chromium reports
 *   Infinity until it has read the whole file, and its time cannot be scrubbed until then) is
 *   measured at once: a seek far past the end makes the browser find the end, then back to 0.
 *   Meanwhile the media's events are ignored, seeks wait and playback waits, so the page sees
 *   nothing of it but the duration when it is known.
 * Returns the function that disconnects them.
 */
export function connectMedia(
  media: SyncedMedia,
  clock: PlaybackClock,
  options: MediaSyncOptions,
): () => void {
  const frames = options.frames ?? browserFrames;
  let pendingSeek: number | null = null;
  let frame: number | null = null;
  /** Measuring a duration the file does not state: seeking to its end, then back to 0. */
  let measuring: 'to-end' | 'back' | null = null;
  let playWhenMeasured = false;

  const seekTo = (time: number) => {
    if (media.readyState < haveMetadata || measuring) {
      pendingSeek = time;
      return;
    }
    pendingSeek = null;
    if (shouldSeek(time, media.currentTime)) media.currentTime = time;
  };

  // Paused, only a move beyond the tolerance counts (a native-controls scrub): the media settling
  // a little off a time the clock asked for must not pull the clock back.
  const followMedia = () => {
    if (clock.seeking || measuring) return;
    const time = options.clamp(media.currentTime);
    if (clock.playing ? time !== clock.time : shouldSeek(time, clock.time)) clock.time = time;
  };

  const tick = () => {
    frame = null;
    followMedia();
    if (!media.paused) frame = frames.request(tick);
  };

  const stopFrames = () => {
    if (frame !== null) frames.cancel(frame);
    frame = null;
  };

  const onPlay = () => {
    // Played from the end while measuring, it would only end: it plays once back at 0.
    if (measuring) playWhenMeasured = true;
    if (clock.seeking || measuring) {
      media.pause();
      return;
    }
    clock.playing = true;
    if (frame === null) frame = frames.request(tick);
  };

  const onPause = () => {
    stopFrames();
    clock.playing = false;
    followMedia();
  };

  const durationKnown = () => {
    options.onDuration(media.duration);
    seekTo(pendingSeek ?? clock.time);
  };

  const onMetadata = () => {
    if (measuring) return;
    if (media.duration === Number.POSITIVE_INFINITY) {
      measuring = 'to-end';
      media.currentTime = pastAnyEnd;
    } else durationKnown();
  };

  const onSeeked = () => {
    if (measuring === 'to-end') {
      measuring = 'back';
      media.currentTime = 0;
    } else if (measuring === 'back') {
      measuring = null;
      durationKnown();
      if (playWhenMeasured) requestPlay(media);
      playWhenMeasured = false;
    } else followMedia();
  };

  // A file stating no duration is measured (above), and the duration told once back at 0: no
  // bounds change meanwhile, nor for the Infinity it announces before its metadata.
  const onDurationChange = () => {
    if (!measuring && media.duration !== Number.POSITIVE_INFINITY) {
      options.onDuration(media.duration);
    }
  };

  const onRateChange = () => {
    if (media.playbackRate !== clock.rate) clock.rate = media.playbackRate;
  };

  // Spec §8: a video element error is only logged.
  const onError = () => {
    const error = media.error;
    console.error('Video element error', error ? `${error.code}: ${error.message}` : 'unknown');
  };

  const listeners: [string, () => void][] = [
    ['play', onPlay],
    ['pause', onPause],
    ['ended', onPause],
    ['timeupdate', followMedia],
    ['seeked', onSeeked],
    ['loadedmetadata', onMetadata],
    ['durationchange', onDurationChange],
    ['ratechange', onRateChange],
    ['error', onError],
  ];
  for (const [type, listener] of listeners) media.addEventListener(type, listener);

  const unsubscribers = [
    onClockChange(clock, 'time', seekTo),
    onClockChange(clock, 'rate', (rate) => {
      if (media.playbackRate !== rate) media.playbackRate = rate;
    }),
    onClockChange(clock, 'seeking', (seeking) => {
      if (seeking && !media.paused) media.pause();
    }),
  ];

  media.playbackRate = clock.rate;
  if (media.readyState >= haveMetadata) onMetadata();
  if (!media.paused) onPlay();

  return () => {
    stopFrames();
    for (const [type, listener] of listeners) media.removeEventListener(type, listener);
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}

/** Asks the media to play; a refusal (e.g. no playable source) is only logged, like errors. */
export function requestPlay(media: Pick<HTMLMediaElement, 'play'>): void {
  media.play().catch((error: unknown) => {
    // A pause or a new source before playback started aborts the request: nothing went wrong.
    if (error instanceof DOMException && error.name === 'AbortError') return;
    console.error('The video could not play', error);
  });
}
