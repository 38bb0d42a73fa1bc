// The reason a change or deletion records (EU GMP Annex 11 §9, §10): one rule for the video
// deletion and for the line clearances, users, devices, floor plans and floor-plan configurations
// changed or deleted (docs/audit-trail.md "Reasons for changes").
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../http/errors.ts';
import { isBlank } from '../schemas/blank.ts';
import { givesReason, MIN_REASON_WORDS } from '../schemas/review-notes.ts';

/** The rule in a refusal's words. */
export const REASON_RULE = `at least ${MIN_REASON_WORDS} different words`;

/**
 * The reason given, trimmed, or null when none is (absent or blank: the spec's calls send none).
 * One that is given must be a reason (`givesReason`), else a 400 naming `body.reason`; `why` ends
 * its sentence: 'the user is deleted'.
 */
export function changeReason(given: string | undefined, why: string): string | null {
  const reason = given?.trim() ?? '';
  if (isBlank(reason)) return null;
  if (!givesReason(reason)) throw badRequest(`body.reason must say why ${why} (${REASON_RULE})`);
  return reason;
}

/** A DELETE's preValidation: the spec's calls send no body, read as one without a reason. */
export async function noBodyAsEmpty(request: FastifyRequest) {
  request.body ??= {};
}

/**
 * An entry's old and new value for a change made for `reason`: the reason on both sides. It belongs
 * to the change, not to either version, so the trail's old → new (which lists only what differs)
 * leaves it out, and `auditReason` reads it from the new value, as every entry's. Without a reason
 * the values are as they were.
 */
export function withReason(
  reason: string | null,
  oldValue: object,
  newValue: object | null = null,
): { oldValue: object; newValue: object | null } {
  if (!reason) return { oldValue, newValue };
  return { oldValue: { ...oldValue, reason }, newValue: { ...newValue, reason } };
}

/**
 * Whether an update's old and new value are the same record: a save that changed nothing writes
 * no trail entry (it would read as an unexplained change), as it bumps no version.
 */
export const unchanged = (oldValue: object, newValue: object) =>
  JSON.stringify(oldValue) === JSON.stringify(newValue);
