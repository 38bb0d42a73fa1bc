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
