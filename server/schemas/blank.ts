// What prints as nothing on a record: one rule for the server's `NonBlank` (common.ts) and the
// web app's checks before it sends (a pure module without imports, so the web app can bundle it).

/**
 * A character class of what prints as nothing alone: spaces and separators; control and format
 * characters (zero-width, joining and direction characters, the soft hyphen, the BOM); marks,
 * which only change the letter before them (combining accents, variation selectors, the Mongolian
 * and Khmer invisible signs); and letters drawn blank (the Hangul fillers, the braille blank).
 */
export const INVISIBLE_CLASS =
  '\\s\\p{Cc}\\p{Cf}\\p{Z}\\p{M}\\u115f\\u1160\\u17b4\\u17b5\\u180e\\u2800\\u3164\\uffa0';

const VISIBLE = new RegExp(`[^${INVISIBLE_CLASS}]`, 'u');

/** True when nothing a person could read is left: only spaces or invisible characters. */
export const isBlank = (value: string) => !VISIBLE.test(value);
