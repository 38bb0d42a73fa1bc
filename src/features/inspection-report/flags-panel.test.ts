import { describe, expect, it } from 'vitest';
import type { Flag } from '../../types/api.ts';
import { flagCount, flagTimeText } from './flags-panel.tsx';

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
    expect(flagTimeText(flag(null))).toBe('2.00 s');
  });
});
