// How a refusal names an earlier change so the person refused can find it: who made it and when,
// in UTC to the minute, as the trail records it (a change may be days old, so the day is named).
import { iso } from '../ids.ts';

/** '2026-11-26 at 02:41 UTC'. */
export function dayAndTime(at: Date | string): string {
  const [day, time] = (typeof at === 'string' ? at : iso(at)).slice(0, 16).split('T');
  return `${day} at ${time} UTC`;
}

/** 'by Adriana Novak on 2026-11-26 at 02:41 UTC'; `who` is 'you' for the caller's own change. */
export function byWhomWhen(who: string, at: Date | string): string {
  return `by ${who} on ${dayAndTime(at)}`;
}
