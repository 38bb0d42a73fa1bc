import { format } from 'date-fns';

/** A floor plan's created date for people, e.g. 'Nov 3, 2026, 10:15 AM' (local time). */
export function createdDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : format(date, 'PPp');
}
