// The characters no stored text may hold, and how a refusal names them: one rule for the server's
// body guard (http/text-guard.ts) and the web app's checks before it sends (src/lib/text-rules.ts;
// a pure module without imports, so the web app can bundle it).

/**
 * Embeddings, overrides and isolates, as a character-class body: they make text display as other
 * text ('1402-AP' as 'PA-2041'). The marks U+200E, U+200F and U+061C are not among them: Hebrew
 * and Arabic users type them, and they only nudge the text next to them.
 */
export const DIRECTION_CONTROLS = '\\u202a-\\u202e\\u2066-\\u2069';

const hex4 = (char: string) => (char.codePointAt(0) ?? 0).toString(16).padStart(4, '0');

/** 'U+202E': a character as the messages name it. */
const codePoint = (char: string) => `U+${hex4(char).toUpperCase()}`;

/** The refusal of a direction control `char` found in `where` (a field's path or label). */
export const directionControlRefusal = (where: string, char: string) =>
  `${where} contains an invisible direction control (${codePoint(char)}); type the text without it`;

/**
 * Half of a UTF-16 surrogate pair without its other half (a JSON string may hold one: "\\ud83d"):
 * no character, so PostgreSQL's UTF-8 would store U+FFFD in its place, a text silently changed.
 */
export const LONE_SURROGATE = /\p{Cs}/u;

/** The refusal of a lone surrogate `char` found in `where`. */
export const loneSurrogateRefusal = (where: string, char: string) =>
  `${where} contains half of a character (${codePoint(char)}, a lone surrogate), which cannot be stored as sent`;

/** '\\u202e': a character written out, where it must be stored or shown without acting. */
export const writtenOut = (char: string) => `\\u${hex4(char)}`;
