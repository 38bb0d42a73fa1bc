// What the server refuses in any text it stores (server/http/text-guard.ts), checked before a form
// sends, so the field is named and nothing typed is lost: U+0000, which PostgreSQL cannot store,
// and the direction controls, which make text display as other text ('1402-AP' as 'PA-2041').
// Both arrive only by pasting.
import { DIRECTION_CONTROLS, directionControlRefusal } from '../../server/schemas/text-rules.ts';

const UNSTORABLE_CLASS = `[\\u0000${DIRECTION_CONTROLS}]`;
const UNSTORABLE = new RegExp(UNSTORABLE_CLASS);
export const UNSTORABLE_ALL = new RegExp(UNSTORABLE_CLASS, 'g');

/** Why the server would refuse `value` in the field `label`, in words; null when it is fine. */
export function unstorableProblem(label: string, value: string): string | null {
  const char = UNSTORABLE.exec(value)?.[0];
  if (char === undefined) return null;
  return char === '\u0000'
    ? `${label} must not contain a NUL character (U+0000)`
    : directionControlRefusal(label, char);
}

/**
 * A text's length as the server counts it against a field's `maxLength`: in code points, so '💊'
 * is one character (HTML `maxLength` and `String.length` count it as two).
 */
export const textLength = (value: string) => [...value].length;

/** The refusal of a text longer than the server takes, in its length as the server counts it. */
const tooLong = (label: string, max: number, length: number) =>
  `${label} must be at most ${max} characters (it has ${length})`;

/**
 * The counter shown under a field: always for long notes, and for a short field once it nears its
 * limit (a batch number rarely does, and a counter under every field would crowd a phone).
 */
export function lengthHint(value: string, max: number, always = false): string | undefined {
  // Counted as the limit is checked: without the spaces around it, which are not sent.
  const length = textLength(value.trim());
  if (!always && length < max * 0.8) return undefined;
  return `${length} of ${max} characters`;
}

/**
 * Whether `value` is longer than the server takes: said under the field as it is typed, since the
 * field takes more (HTML `maxLength` would stop a phone at 100 emoji of 200, without a word).
 */
export const overLimit = (value: string, max: number) => textLength(value.trim()) > max;

/** Why `value` is too long for the field `label`, or null when the server takes it. */
export const lengthProblem = (label: string, value: string, max: number) =>
  overLimit(value, max) ? tooLong(label, max, textLength(value.trim())) : null;

/** Whether any of the `[value, limit]` pairs is too long: a form sends nothing then. */
export const anyOverLimit = (...fields: [value: string, limit: number][]) =>
  fields.some(([value, limit]) => overLimit(value, limit));
