// Every time the app shows names its clock (docs/web-app.md, "Times"): the record's own times
// (report, signatures, audit trail, /reports) in UTC, as the PDF and the CSV print them, with the
// reader's local time beside; lists and cards in the reader's local time with its UTC offset.
import { format } from 'date-fns';

const parse = (value: string | Date) => (typeof value === 'string' ? new Date(value) : value);
const valid = (date: Date) => !Number.isNaN(date.getTime());

/** The reader's offset from UTC on that date: 'UTC', 'UTC+1', 'UTC+5:30', 'UTC−3'. */
export function utcOffsetLabel(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  if (minutes === 0) return 'UTC';
  const hours = Math.floor(Math.abs(minutes) / 60);
  const rest = Math.abs(minutes) % 60;
  return `UTC${minutes > 0 ? '+' : '−'}${hours}${rest ? `:${String(rest).padStart(2, '0')}` : ''}`;
}

/** On the reader's clock with its offset, '2026-11-12 07:30 UTC+1'; null for an unreadable time. */
export function localTime(value: string | Date, seconds = false): string | null {
  const date = parse(value);
  if (!valid(date)) return null;
  return `${format(date, seconds ? 'yyyy-MM-dd HH:mm:ss' : 'yyyy-MM-dd HH:mm')} ${utcOffsetLabel(date)}`;
}

/** On the record's clock, '2026-11-12 06:30 UTC'; null for an unreadable time. */
export function utcTime(value: string | Date, seconds = false): string | null {
  const date = parse(value);
  if (!valid(date)) return null;
  return `${date
    .toISOString()
    .slice(0, seconds ? 19 : 16)
    .replace('T', ' ')} UTC`;
}

/**
 * On the record's clock with the reader's beside it where they differ:
 * '2026-11-12 06:30 UTC (07:30 UTC+1 local)'; '—' for no time.
 */
export function recordTime(value: string | null, seconds = false): string {
  const utc = value ? utcTime(value, seconds) : null;
  if (!value || !utc) return '—';
  const date = new Date(value);
  if (date.getTimezoneOffset() === 0) return utc;
  const local = localTime(date, seconds) as string;
  const sameDay = local.slice(0, 10) === utc.slice(0, 10);
  return `${utc} (${sameDay ? local.slice(11) : local} local)`;
}
