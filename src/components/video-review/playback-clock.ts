import { useCallback, useSyncExternalStore } from 'react';
import { proxy, subscribe } from 'valtio';

/**
 * The one clock of the video analysis page (spec §4 Playback): the video, the path player, the
 * slider and the detections all read it. It is a valtio proxy so the canvas, the slider and the
 * time texts can follow it with `subscribe` without re-rendering React on every tick.
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

/**
 * Calls back when one field of the clock changes (after the current task, as valtio batches).
 * Written over `subscribe` from 'valtio' itself: 'valtio/utils' can end up as a second copy of
 * valtio's internals in pre-bundled test builds, and then never sees this proxy change.
 */
export function onClockChange<K extends keyof PlaybackClock>(
  clock: PlaybackClock,
  key: K,
  callback: (value: PlaybackClock[K]) => void,
): () => void {
  let previous = clock[key];
  return subscribe(clock, () => {
    const value = clock[key];
    if (Object.is(value, previous)) return;
    previous = value;
    callback(value);
  });
}

/** onClockChange, plus a first call with the current value now; returns the unsubscribe. */
export function watchClock<K extends keyof PlaybackClock>(
  clock: PlaybackClock,
  key: K,
  callback: (value: PlaybackClock[K]) => void,
): () => void {
  callback(clock[key]);
  return onClockChange(clock, key, callback);
}

/**
 * One field of the clock for a React component, which re-renders when that field changes only.
 * The time changes every frame while playing or dragging: show it with watchClock instead.
 */
export function useClockField<K extends keyof PlaybackClock>(
  clock: PlaybackClock,
  key: K,
): PlaybackClock[K] {
  const subscribe = useCallback(
    (onChange: () => void) => onClockChange(clock, key, onChange),
    [clock, key],
  );
  return useSyncExternalStore(subscribe, () => clock[key]);
}

/** Spec §4: selecting a video starts it at time 0, paused. The rate is the reviewer's, kept. */
export function resetForNewVideo(clock: PlaybackClock): void {
  clock.time = 0;
  clock.playing = false;
  clock.seeking = false;
}

/** Spec §5/§9: the player seeks only when the requested time is more than this away. */
export const seekToleranceSeconds = 0.05;

/**
 * Decimal times are not exact in doubles (10.05 − 10 = 0.05000000000000071), so a difference of
 * exactly 0.05 s as written gets 1 ns of slack, as the path core does for its 0.001 s match.
 */
export function shouldSeek(requested: number, current: number): boolean {
  return Math.abs(requested - current) > seekToleranceSeconds + 1e-9;
}

/** Playback speeds `[` and `]` step through (beyond the spec: 0.25× to 2×). */
export const playbackRates = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/** The next slower (-1) or faster (+1) rate; stays at the ends. A rate between steps snaps. */
export function stepRate(rate: number, direction: -1 | 1): number {
  if (direction > 0) return playbackRates.find((step) => step > rate) ?? 2;
  return [...playbackRates].reverse().find((step) => step < rate) ?? 0.25;
}

/** Spec §9 display: seconds with 2 decimals. */
export function formatSeconds(seconds: number): string {
  return `${Number.isFinite(seconds) ? seconds.toFixed(2) : '0.00'} s`;
}
