import { endOfDay, format, parseISO, startOfDay } from 'date-fns';
import { useEffect, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { DateRange } from './date-range.ts';

/** Whether `kept` holds fewer values under some key than `given`: a value was refused. */
function dropsAny(given: URLSearchParams, kept: URLSearchParams): boolean {
  return [...new Set(given.keys())].some(
    (key) => kept.getAll(key).length < given.getAll(key).length,
  );
}

/**
 * A list page's filters, sort and page held in its URL's query string (/reports, /audit), so Back,
 * a reload and a shared link show the same list. `parse` reads them, dropping what the server would
 * refuse; `toSearch` writes them. Each change replaces the history entry (Back leaves the page
 * rather than undoing each filter), and a dropped value leaves the address bar the same way.
 * `parse` and `toSearch` are module functions (stable). Also answers the state as `toSearch`
 * writes it: a page that loads on it does not load again when a dropped value leaves the URL.
 */
export function useSearchState<T>(
  parse: (params: URLSearchParams) => T,
  toSearch: (state: T) => string,
): [T, (next: T) => void, string] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const state = useMemo(() => parse(new URLSearchParams(search)), [parse, search]);
  const kept = toSearch(state);

  useEffect(() => {
    if (!dropsAny(new URLSearchParams(search), new URLSearchParams(kept))) return;
    navigate(kept ? `${location}?${kept}` : location, { replace: true });
  }, [search, kept, location, navigate]);

  const show = (next: T) => {
    const query = toSearch(next);
    navigate(query ? `${location}?${query}` : location, { replace: true });
  };
  return [state, show, kept];
}

/**
 * A date filter as a link holds it (`from`, `to`): both ends, as the picker sets them, or one, a
 * range open at the other end (the APIs take either alone).
 */
export interface DateFilter {
  from: Date | null;
  to: Date | null;
}

export const noDates: DateFilter = { from: null, to: null };

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A link's time; a bare day (a hand-written link, `2026-11-19`) is that whole day here, as the
 * picker would have picked it (`new Date` reads it as UTC midnight: an empty range).
 */
function dateOf(value: string | null, edge: 'start' | 'end'): Date | null {
  if (value && DAY_ONLY.test(value)) {
    const day = parseISO(value);
    if (Number.isNaN(day.getTime())) return null;
    return edge === 'start' ? startOfDay(day) : endOfDay(day);
  }
  const date = new Date(value ?? '');
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The link's `from` and `to`; an unreadable one is dropped and the other kept. */
export const datesOf = (params: URLSearchParams): DateFilter => ({
  from: dateOf(params.get('from'), 'start'),
  to: dateOf(params.get('to'), 'end'),
});

/** `from` and `to` for a query string (an open end is left out). */
export const datesQuery = ({ from, to }: DateFilter) => ({
  from: from?.toISOString(),
  to: to?.toISOString(),
});

/** The picker's value: a range with both ends, else none (an open range is said in words). */
export const pickedRange = ({ from, to }: DateFilter): DateRange | null =>
  from && to ? { start: from, end: to } : null;

export const rangeDates = (range: DateRange): DateFilter => ({ from: range.start, to: range.end });

/** An edge as the picker labels it: its day where it is a whole day's edge here, else its time. */
const edgeText = (date: Date, whole: Date) =>
  format(date, date.getTime() === whole.getTime() ? 'MMM d, yyyy' : 'MMM d, yyyy HH:mm');

/**
 * What the picker cannot show of a range, in words: one open at an end ('From Nov 15, 2026 on (no
 * end date).'), or one a link gave backwards, which nothing can match (QA: only 'No reports').
 * Null for a whole range or none.
 */
export function rangeNote({ from, to }: DateFilter): string | null {
  if (from && !to) return `From ${edgeText(from, startOfDay(from))} on (no end date).`;
  if (to && !from) return `Up to ${edgeText(to, endOfDay(to))} (no start date).`;
  if (from && to && from > to) {
    return `This range ends before it starts (${edgeText(to, endOfDay(to))} is before ${edgeText(from, startOfDay(from))}), so nothing matches it: choose the dates again.`;
  }
  return null;
}
