import { describe, expect, it } from 'vitest';
import type { Flag } from '../../types/api.ts';
import { flagCount, flagTimeText, nextOpenFlag, openFlagIndexes } from './flags-panel.tsx';

const flag = (decision: Flag['decision']): Flag => ({
  kind: 'detection',
  severity: 'high',
  text: 'Detection: tool 91% at 2.00 s',
  time: 2,
  ref: 'p1',
  decision,
});

describe('the flags heading', () => {
  it('counts the dismissed flags apart, as /reports leaves them out', () => {
    expect(flagCount([])).toBe('0');
    expect(flagCount([flag(null), flag('confirmed')])).toBe('2');
    expect(flagCount([flag(null), flag('dismissed'), flag('confirmed')])).toBe(
      '2 open, 1 dismissed',
    );
  });

  it('says a missed zone’s or tag’s time is the path’s closest approach', () => {
    expect(flagTimeText({ ...flag(null), kind: 'zone', time: 1.125 })).toBe('closest at 1.13 s');
    expect(flagTimeText({ ...flag(null), kind: 'tag', time: 4 })).toBe('closest at 4.00 s');
  });

  it('does not repeat a time the flag’s text already says (a detection’s, a gap’s start)', () => {
    expect(flagTimeText(flag(null))).toBeNull();
    expect(
      flagTimeText({
        ...flag('confirmed'),
        kind: 'replaced-finding',
        text: 'Confirmed finding on a replaced detection: debris 97% at 1.00 s, confirmed by Ana Lee; the current analysis no longer holds it',
        time: 1,
      }),
    ).toBeNull();
    expect(
      flagTimeText({
        ...flag(null),
        kind: 'gap',
        severity: 'medium',
        text: 'Gap in the path: no position for 6.00 s from 12.50 s',
        time: 12.5,
        ref: null,
      }),
    ).toBeNull();
    // A short video's text gives its length, not a moment: the start it goes to is shown.
    expect(
      flagTimeText({
        ...flag(null),
        kind: 'short-video',
        text: 'Video shorter than the minimum: 12.00 s (minimum 30.00 s)',
        time: 0,
        ref: null,
      }),
    ).toBe('0.00 s');
    expect(flagTimeText({ ...flag(null), kind: 'no-path', time: null, ref: null })).toBeNull();
  });
});

describe('Next flag', () => {
  it('goes to the next open flag in list order, wrapping, and nowhere when none is open', () => {
    const open = openFlagIndexes([
      flag(null),
      flag('dismissed'),
      flag('confirmed'),
      flag('dismissed'),
    ]);
    expect(open).toEqual([0, 2]);
    expect(nextOpenFlag(open, -1)).toBe(0);
    expect(nextOpenFlag(open, 0)).toBe(2);
    expect(nextOpenFlag(open, 1)).toBe(2);
    expect(nextOpenFlag(open, 2)).toBe(0);
    expect(nextOpenFlag(open, 3)).toBe(0);
    expect(nextOpenFlag(openFlagIndexes([flag('dismissed')]), -1)).toBe(-1);
  });
});
