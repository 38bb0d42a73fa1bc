import { describe, expect, it } from 'vitest';
import { inRange, toDayRange } from './date-range.ts';

describe('toDayRange (end of day 23:59:59.999)', () => {
  it('runs from the first day 00:00 to the last day 23:59:59.999 local time', () => {
    const range = toDayRange(new Date(2026, 2, 3, 14, 5), new Date(2026, 2, 9, 8, 0));
    expect(range.start).toEqual(new Date(2026, 2, 3, 0, 0, 0, 0));
    expect(range.end).toEqual(new Date(2026, 2, 9, 23, 59, 59, 999));
  });

  it('accepts the days in either order and a single day', () => {
    expect(toDayRange(new Date(2026, 2, 9), new Date(2026, 2, 3))).toEqual(
      toDayRange(new Date(2026, 2, 3), new Date(2026, 2, 9)),
    );
    const day = toDayRange(new Date(2026, 0, 1), new Date(2026, 0, 1));
    expect(day.end.getTime() - day.start.getTime()).toBe(24 * 3600 * 1000 - 1);
  });

  it('keeps records from the last millisecond of the last day', () => {
    const range = toDayRange(new Date(2026, 2, 3), new Date(2026, 2, 9));
    expect(inRange(new Date(2026, 2, 9, 23, 59, 59, 999), range)).toBe(true);
    expect(inRange(new Date(2026, 2, 10, 0, 0, 0, 0), range)).toBe(false);
    expect(inRange(new Date(2026, 2, 2, 23, 59, 59, 999), range)).toBe(false);
    expect(inRange(new Date(2020, 0, 1), null)).toBe(true);
  });

  it('rejects invalid dates', () => {
    expect(() => toDayRange(new Date('nope'), new Date())).toThrow(/two valid dates/);
  });
});
