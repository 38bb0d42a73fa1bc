import { afterEach, describe, expect, it, vi } from 'vitest';
import { clampTime } from '../../lib/path-client.ts';
import { connectMedia, type FrameScheduler, requestPlay, type SyncedMedia } from './media-sync.ts';
import { createPlaybackClock, shouldSeek, stepRate } from './playback-clock.ts';
import { recordWebm } from './webm.fixtures.ts';

/** A media element stand-in: the test sets its state and fires its events. */
class FakeMedia extends EventTarget implements SyncedMedia {
  readyState = 0;
  paused = true;
  duration = Number.NaN;
  playbackRate = 1;
  error = null;
  seeks: number[] = [];
  private time = 0;
  get currentTime() {
    return this.time;
  }
  set currentTime(value: number) {
    this.seeks.push(value);
    this.time = value;
  }
  /** The media moving on its own (playback, native controls): not a seek by the page. */
  advanceTo(time: number) {
    this.time = time;
  }
  pause() {
    if (this.paused) return;
    this.paused = true;
    this.fire('pause');
  }
  startPlaying() {
    this.paused = false;
    this.fire('play');
  }
  /** Play requests by the page (the user's own press on the controls is startPlaying). */
  plays = 0;
  play() {
    this.plays++;
    this.startPlaying();
    return Promise.resolve();
  }
  fire(type: string) {
    this.dispatchEvent(new Event(type));
  }
}

/** Animation frames run only when the test says so. */
function manualFrames() {
  const queue = new Map<number, () => void>();
  let next = 1;
  const frames: FrameScheduler = {
    request: (callback) => {
      queue.set(next, callback);
      return next++;
    },
    cancel: (id) => queue.delete(id),
  };
  const run = () => {
    const callbacks = [...queue.values()];
    queue.clear();
    for (const callback of callbacks) callback();
  };
  return { frames, run, pending: () => queue.size };
}

/** valtio notifies subscribers after the current task's microtasks. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

let disconnect: (() => void) | null = null;
afterEach(() => {
  disconnect?.();
  disconnect = null;
  vi.restoreAllMocks();
});

function setUp(bounds = { min: 0, max: 40 }) {
  const media = new FakeMedia();
  const clock = createPlaybackClock();
  const frames = manualFrames();
  const durations: number[] = [];
  disconnect = connectMedia(media, clock, {
    clamp: (time) => clampTime(time, bounds),
    onDuration: (seconds) => durations.push(seconds),
    frames: frames.frames,
  });
  return { media, clock, frames, durations };
}

describe('seek tolerance (spec §5/§9: 0.05 s)', () => {
  it('seeks only when the difference exceeds 0.05 s', () => {
    expect(shouldSeek(10.05, 10)).toBe(false);
    expect(shouldSeek(9.96, 10)).toBe(false);
    expect(shouldSeek(10.0501, 10)).toBe(true);
    expect(shouldSeek(9.9, 10)).toBe(true);
  });

  it('moves the media only for requests beyond the tolerance', async () => {
    const { media, clock } = setUp();
    media.readyState = 4;
    clock.time = 0.04;
    await settled();
    expect(media.seeks).toEqual([]);
    clock.time = 12.5;
    await settled();
    expect(media.seeks).toEqual([12.5]);
    clock.time = 12.53;
    await settled();
    expect(media.seeks).toEqual([12.5]);
  });

  it('waits for the metadata before seeking, then seeks to the latest request', async () => {
    const { media, clock, durations } = setUp();
    clock.time = 5;
    await settled();
    clock.time = 7.25;
    await settled();
    expect(media.seeks).toEqual([]);
    media.readyState = 1;
    media.duration = 38;
    media.fire('loadedmetadata');
    expect(media.seeks).toEqual([7.25]);
    expect(durations).toEqual([38]);
  });
});

describe('a recording that states no duration (MediaRecorder WebM)', () => {
  it('seeks past the end to learn the duration, back to 0, with nothing else seen meanwhile', async () => {
    const { media, clock, durations } = setUp({ min: 0, max: 0 });
    media.duration = Number.POSITIVE_INFINITY;
    media.fire('durationchange');
    media.readyState = 1;
    media.fire('loadedmetadata');
    expect(media.seeks).toEqual([Number.MAX_SAFE_INTEGER]);
    expect(durations).toEqual([]);
    // The browser reaches the end: the duration is known, the time is there, the clock stays.
    media.duration = 1.24;
    media.fire('durationchange');
    media.fire('timeupdate');
    clock.time = 0.8; // a seek asked meanwhile waits
    await settled();
    media.fire('seeked');
    expect(media.seeks).toEqual([Number.MAX_SAFE_INTEGER, 0]);
    expect(durations).toEqual([]);
    media.fire('seeked');
    expect(durations).toEqual([1.24]);
    expect(media.seeks).toEqual([Number.MAX_SAFE_INTEGER, 0, 0.8]);
    expect(clock.time).toBe(0.8);
    expect(clock.playing).toBe(false);
  });

  it('holds a play pressed while it measures, and plays once back at 0', () => {
    const { media, clock } = setUp();
    media.readyState = 1;
    media.duration = Number.POSITIVE_INFINITY;
    media.fire('loadedmetadata');
    media.startPlaying();
    expect(media.paused).toBe(true);
    expect(clock.playing).toBe(false);
    media.duration = 3;
    media.fire('seeked');
    expect(media.plays).toBe(0);
    media.fire('seeked');
    expect(media.plays).toBe(1);
    expect(clock.playing).toBe(true);
  });

  it('tells Infinity when even the seek found no end, and a later known duration', () => {
    const { media, durations } = setUp();
    media.readyState = 1;
    media.duration = Number.POSITIVE_INFINITY;
    media.fire('loadedmetadata');
    media.fire('seeked');
    media.fire('seeked');
    expect(durations).toEqual([Number.POSITIVE_INFINITY]);
    media.duration = 7;
    media.fire('durationchange');
    expect(durations).toEqual([Number.POSITIVE_INFINITY, 7]);
  });

  it('makes a real MediaRecorder WebM seekable before it ever played', async () => {
    const source = await recordWebm();
    const media = document.createElement('video');
    media.preload = 'metadata';
    media.muted = true;
    const clock = createPlaybackClock();
    const durations: number[] = [];
    const played = vi.fn();
    media.addEventListener('play', played);
    // Listening before the sync: what Chromium says of such a file by itself.
    const stated = new Promise((resolve) =>
      media.addEventListener('loadedmetadata', () => resolve(media.duration), { once: true }),
    );
    disconnect = connectMedia(media, clock, {
      clamp: (time) => time,
      onDuration: (seconds) => durations.push(seconds),
    });
    media.src = source;
    try {
      expect(await stated).toBe(Number.POSITIVE_INFINITY);
      await expect.poll(() => durations).toHaveLength(1);
      const [duration = 0] = durations;
      expect(duration).toBeGreaterThan(0.5);
      expect(duration).toBeLessThan(2);
      expect(media.duration).toBe(duration);
      expect(media.currentTime).toBe(0);
      expect(clock.time).toBe(0);
      clock.time = duration / 2;
      await expect.poll(() => media.currentTime).toBeCloseTo(duration / 2, 2);
      expect(media.paused).toBe(true);
      expect(played).not.toHaveBeenCalled();
    } finally {
      URL.revokeObjectURL(source);
    }
  });
});

describe('playing from the player events (spec §4)', () => {
  it('sets playing on play and clears it on pause and at the end', () => {
    const { media, clock } = setUp();
    media.startPlaying();
    expect(clock.playing).toBe(true);
    media.pause();
    expect(clock.playing).toBe(false);
    media.startPlaying();
    media.paused = true;
    media.fire('ended');
    expect(clock.playing).toBe(false);
  });

  it('follows the media time on every frame while playing, and stops with it', () => {
    const { media, clock, frames } = setUp();
    media.readyState = 4;
    media.startPlaying();
    media.advanceTo(1.016);
    frames.run();
    expect(clock.time).toBe(1.016);
    media.advanceTo(1.033);
    frames.run();
    expect(clock.time).toBe(1.033);
    media.pause();
    expect(frames.pending()).toBe(0);
  });

  it('ignores the media time while the user drags the slider, and pauses the media', async () => {
    const { media, clock } = setUp();
    media.readyState = 4;
    media.startPlaying();
    clock.seeking = true;
    clock.time = 20;
    await settled();
    expect(media.paused).toBe(true);
    expect(clock.playing).toBe(false);
    media.advanceTo(3);
    media.fire('timeupdate');
    media.fire('seeked');
    expect(clock.time).toBe(20);
    // A play request during the drag is refused.
    media.startPlaying();
    expect(media.paused).toBe(true);
    expect(clock.playing).toBe(false);
  });

  it('takes a paused media time change beyond the tolerance (native controls), not below it', () => {
    const { media, clock } = setUp();
    media.readyState = 4;
    clock.time = 10;
    media.advanceTo(10.03);
    media.fire('seeked');
    expect(clock.time).toBe(10);
    media.advanceTo(15);
    media.fire('seeked');
    expect(clock.time).toBe(15);
  });

  it('resets a media time outside the bounds to the minimum (spec §4)', () => {
    const { media, clock } = setUp({ min: 2, max: 30 });
    media.readyState = 4;
    clock.time = 10;
    media.advanceTo(35);
    media.fire('timeupdate');
    expect(clock.time).toBe(2);
  });
});

describe('playback rate', () => {
  it('passes the clock rate to the media and the media rate to the clock', async () => {
    const { media, clock } = setUp();
    clock.rate = 1.5;
    await settled();
    expect(media.playbackRate).toBe(1.5);
    media.playbackRate = 0.5;
    media.fire('ratechange');
    expect(clock.rate).toBe(0.5);
  });

  it('steps through 0.25× to 2× and stops at the ends', () => {
    expect(stepRate(1, 1)).toBe(1.25);
    expect(stepRate(1, -1)).toBe(0.75);
    expect(stepRate(2, 1)).toBe(2);
    expect(stepRate(0.25, -1)).toBe(0.25);
    expect(stepRate(1.1, 1)).toBe(1.25);
    expect(stepRate(1.1, -1)).toBe(1);
  });
});

describe('disconnecting and errors', () => {
  it('stops following the media and the clock once disconnected', async () => {
    const { media, clock } = setUp();
    media.readyState = 4;
    disconnect?.();
    disconnect = null;
    media.startPlaying();
    expect(clock.playing).toBe(false);
    clock.time = 9;
    await settled();
    expect(media.seeks).toEqual([]);
  });

  it('only logs a media error (spec §8)', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { media, clock } = setUp();
    media.fire('error');
    expect(logged).toHaveBeenCalledWith('Video element error', 'unknown');
    expect(clock.playing).toBe(false);
  });

  it('logs a refused play request but not an aborted one', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    requestPlay({ play: () => Promise.reject(new DOMException('paused', 'AbortError')) });
    requestPlay({ play: () => Promise.reject(new DOMException('no source', 'NotSupportedError')) });
    await settled();
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged.mock.calls[0]?.[0]).toBe('The video could not play');
  });
});
