// What the server refuses in any text it stores (server/http/text-guard.ts), checked before a form
// sends, so the field is named and nothing typed is lost: U+0000, which PostgreSQL cannot store,
// and the direction controls, which make text display as other text ('1402-AP' as 'PA-2041').
// Both arrive only by pasting.

const UNSTORABLE_CLASS = '[\\u0000\\u202a-\\u202e\\u2066-\\u2069]';
const UNSTORABLE = new RegExp(UNSTORABLE_CLASS);
export const UNSTORABLE_ALL = new RegExp(UNSTORABLE_CLASS, 'g');

/** 'U+202E': a character as the messages name it. */
export const codePoint = (char: string) =>
  `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Why the server would refuse `value` in the field `label`, in words; null when it is fine. */
export function unstorableProblem(label: string, value: string): string | null {
  const char = UNSTORABLE.exec(value)?.[0];
  if (char === undefined) return null;
  return char === '\u0000'
    ? `${label} must not contain a NUL character (U+0000)`
    : `${label} contains an invisible direction control (${codePoint(char)}); type the text without it`;
}
