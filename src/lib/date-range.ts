import { endOfDay, startOfDay } from 'date-fns';

export interface DateRange {
  start: Date;
  end: Date;
}

/**
 * Spec §9: a picked range covers whole days, from 00:00 of the first day to 23:59:59.999 of the
 * last, so records from the last day are not cut off. Picks in either order give the same range.
 */
export function toDayRange(first: Date, second: Date): DateRange {
  for (const day of [first, second]) {
    if (Number.isNaN(day.getTime())) throw new RangeError('Date range needs two valid dates');
  }
  const [from, to] = first <= second ? [first, second] : [second, first];
  return { start: startOfDay(from), end: endOfDay(to) };
}

export function inRange(when: Date, range: DateRange | null): boolean {
  if (!range) return true;
  return when >= range.start && when <= range.end;
}
