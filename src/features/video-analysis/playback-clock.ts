import { proxy } from 'valtio';

/**
 * The one clock of the video analysis page (spec §4 Playback): the video, the path player, the
 * slider and the detections all read it. It is a valtio proxy so the canvas can follow it with
 * `subscribe` and draw on the next animation frame without re-rendering React on every tick.
 */
export interface PlaybackClock {
  /** Current time in seconds. */
  time: number;
  playing: boolean;
  /** True while the user drags the slider: player time updates are ignored then. */
  seeking: boolean;
  /** Playback rate, 0.25 to 2. */
  rate: number;
}

export function createPlaybackClock(): PlaybackClock {
  return proxy<PlaybackClock>({ time: 0, playing: false, seeking: false, rate: 1 });
}
