// Speed and time left from an upload's progress samples: only the last few seconds count.
import { describe, expect, it } from 'vitest';
import { type ProgressSample, progressOf } from './upload-progress.ts';

describe('progressOf', () => {
  it('computes the speed and time left over the last few seconds', () => {
    const samples: ProgressSample[] = [
      { at: 0, sent: 0 },
      { at: 1000, sent: 100_000 },
      { at: 2000, sent: 200_000 },
    ];
    expect(progressOf(samples, 1_000_000)).toEqual({
      sent: 200_000,
      total: 1_000_000,
      bytesPerSecond: 100_000,
      secondsLeft: 8,
    });
  });

  it('says no speed from samples older than a few seconds (a stall, a resumed connection)', () => {
    // The last bytes moved 20 s after the ones before: that pace says nothing about now.
    const samples: ProgressSample[] = [
      { at: 0, sent: 0 },
      { at: 1000, sent: 131_072 },
      { at: 21_000, sent: 140_000 },
    ];
    expect(progressOf(samples, 700_000)).toMatchObject({
      sent: 140_000,
      bytesPerSecond: null,
      secondsLeft: null,
    });
    expect(samples).toEqual([{ at: 21_000, sent: 140_000 }]);
  });

  it('says no speed while no byte moved', () => {
    const samples: ProgressSample[] = [
      { at: 0, sent: 131_072 },
      { at: 3000, sent: 131_072 },
    ];
    expect(progressOf(samples, 700_000)).toMatchObject({ bytesPerSecond: null, secondsLeft: null });
  });
});
