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

/**
 * What a one-line text (a name, an email, a product or batch, a code) may not hold, as a
 * character-class body: control characters (C0, DEL and C1: line breaks and tabs among them), the
 * line and paragraph separators, and the invisible format characters (zero-width spaces and
 * joiners, direction marks and controls, the word joiner, the BOM, the soft hyphen). They hide in
 * an identifier: 'B\u200b-001' shows as 'B-001' and is another batch. Notes and reasons keep
 * their line breaks (only the body guard's rules apply to them).
 */
export const HIDDEN_IN_ONE_LINE = '\\p{Cc}\\p{Cf}\\u2028\\u2029';

/** A letter of a script written right to left: Hebrew, Arabic (Persian, Urdu), Syriac, Thaana, N'Ko. */
const RTL_LETTER =
  '(?=\\p{L})[\\p{Script=Hebrew}\\p{Script=Arabic}\\p{Script=Syriac}\\p{Script=Thaana}\\p{Script=Nko}]';
/** A letter, mark or emoji of a script that joins with U+200C/U+200D: not Latin, Greek, Cyrillic. */
const JOINING =
  '(?![\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}])[\\p{L}\\p{M}\\p{Extended_Pictographic}\\p{Emoji_Modifier}]';

/**
 * A character of a one-line text: none of `HIDDEN_IN_ONE_LINE`, but what the scripts that need
 * them type: the zero-width non-joiner and joiner between two letters that join (Persian names,
 * Indic conjuncts, emoji sequences), and the direction marks U+200E, U+200F and U+061C next to a
 * Hebrew or Arabic letter. Beside a Latin letter or a digit they only hide.
 */
const oneLineCharacter = (alsoNot = '') =>
  `[^${alsoNot}${HIDDEN_IN_ONE_LINE}]` +
  `|(?<=${JOINING})[\\u200c\\u200d](?=${JOINING})` +
  `|(?<=${RTL_LETTER})[\\u200e\\u200f\\u061c]|[\\u200e\\u200f\\u061c](?=${RTL_LETTER})`;
const ONE_LINE_CHARACTER = oneLineCharacter();
/** One that is not white space: where a trimmed text starts and ends. */
const ONE_LINE_NON_SPACE = oneLineCharacter('\\s');

/** The pattern of a one-line text, read with the `u` flag as JSON Schema patterns are. */
export const ONE_LINE_PATTERN = `^(?:${ONE_LINE_CHARACTER})*$`;

/**
 * The same, around which any white space may be, since it is trimmed (a tag's QR code). Spaces
 * at the ends and inside never both match one character: a long text is checked in linear time.
 */
export const TRIMMED_ONE_LINE_PATTERN = `^\\s*(?:(?:${ONE_LINE_NON_SPACE})(?:(?:${ONE_LINE_CHARACTER})*(?:${ONE_LINE_NON_SPACE}))?)?\\s*$`;

/** What a one-line text that breaks `ONE_LINE_PATTERN` must be, as a 400 says it after the field. */
export const ONE_LINE_MEANING =
  'must be one line without control or invisible characters (line breaks, tabs, zero-width spaces, direction marks)';

/** '\\u202e': a character written out, where it must be stored or shown without acting. */
export const writtenOut = (char: string) => `\\u${hex4(char)}`;
