import { describe, expect, it } from 'vitest';
import { videoIdOf } from './video.ts';

describe('videoIdOf (spec §3 fallbacks)', () => {
  it('prefers id, then _id, videoId, filename', () => {
    expect(videoIdOf({ id: 'a', _id: 'b', filename: 'c.mp4' })).toBe('a');
    expect(videoIdOf({ _id: 'b', videoId: 'v', filename: 'c.mp4' })).toBe('b');
    expect(videoIdOf({ videoId: 'v', filename: 'c.mp4' })).toBe('v');
    expect(videoIdOf({ filename: 'c.mp4' })).toBe('c.mp4');
  });

  it('falls back to the file name of path.video without its extension', () => {
    expect(
      videoIdOf({
        path: { video: '/api/videos/lc1-20261103.mp4', keyframesData: '/api/keyframes/x.txt' },
      }),
    ).toBe('lc1-20261103');
    expect(videoIdOf({})).toBeNull();
  });
});
