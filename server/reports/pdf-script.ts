// Right-to-left text in the PDF (docs/reports.md, "The PDF"). pdf-lib draws a line's glyphs left
// to right in the order given (pdf-fonts.ts keeps fontkit from reversing them) and does not shape,
// so Arabic letters take their joined forms here, from Unicode's Arabic Presentation Forms, and
// each printed line is put in visual order by the Unicode Bidirectional Algorithm (UAX #9, bidi-js).
import bidiFactory from 'bidi-js';

const bidi = bidiFactory();

type Joining = 'dual' | 'right' | 'none';

/**
 * Each Arabic (and Persian) letter shaped here: its isolated presentation form, which the final,
 * initial and medial forms follow in that order (a right-joining letter has only the first two),
 * and how it joins (Unicode's ArabicShaping.txt). Alef maksura joins on both sides in Unicode, but
 * Presentation Forms-B has only its isolated and final forms: it is right-joining here.
 */
const LETTERS = new Map<string, { isolated: number; joining: Joining }>(
  (
    [
      [0x0621, 0xfe80, 'none'],
      [0x0622, 0xfe81, 'right'],
      [0x0623, 0xfe83, 'right'],
      [0x0624, 0xfe85, 'right'],
      [0x0625, 0xfe87, 'right'],
      [0x0626, 0xfe89, 'dual'],
      [0x0627, 0xfe8d, 'right'],
      [0x0628, 0xfe8f, 'dual'],
      [0x0629, 0xfe93, 'right'],
      [0x062a, 0xfe95, 'dual'],
      [0x062b, 0xfe99, 'dual'],
      [0x062c, 0xfe9d, 'dual'],
      [0x062d, 0xfea1, 'dual'],
      [0x062e, 0xfea5, 'dual'],
      [0x062f, 0xfea9, 'right'],
      [0x0630, 0xfeab, 'right'],
      [0x0631, 0xfead, 'right'],
      [0x0632, 0xfeaf, 'right'],
      [0x0633, 0xfeb1, 'dual'],
      [0x0634, 0xfeb5, 'dual'],
      [0x0635, 0xfeb9, 'dual'],
      [0x0636, 0xfebd, 'dual'],
      [0x0637, 0xfec1, 'dual'],
      [0x0638, 0xfec5, 'dual'],
      [0x0639, 0xfec9, 'dual'],
      [0x063a, 0xfecd, 'dual'],
      [0x0641, 0xfed1, 'dual'],
      [0x0642, 0xfed5, 'dual'],
      [0x0643, 0xfed9, 'dual'],
      [0x0644, 0xfedd, 'dual'],
      [0x0645, 0xfee1, 'dual'],
      [0x0646, 0xfee5, 'dual'],
      [0x0647, 0xfee9, 'dual'],
      [0x0648, 0xfeed, 'right'],
      [0x0649, 0xfeef, 'right'],
      [0x064a, 0xfef1, 'dual'],
      [0x067e, 0xfb56, 'dual'],
      [0x0686, 0xfb7a, 'dual'],
      [0x0698, 0xfb8a, 'right'],
      [0x06a9, 0xfb8e, 'dual'],
      [0x06af, 0xfb92, 'dual'],
      [0x06cc, 0xfbfc, 'dual'],
    ] as const
  ).map(([letter, isolated, joining]) => [String.fromCodePoint(letter), { isolated, joining }]),
);

/** Lam followed by these alefs is one ligature (isolated form; the final one follows it). */
const LAM = '\u0644';
const LAM_ALEF = new Map([
  ['\u0622', 0xfef5],
  ['\u0623', 0xfef7],
  ['\u0625', 0xfef9],
  ['\u0627', 0xfefb],
]);

/** Marks (harakat) and format characters sit between letters without breaking their join. */
const TRANSPARENT = /^(?![\u200c\u200d])[\p{Mn}\p{Me}\p{Cf}]$/u;
/** Tatweel and the zero-width joiner join on both sides without forms of their own. */
const JOIN_CAUSING = /^[\u0640\u200d]$/;

type Neighbour = Joining | 'causing' | 'transparent';

function joiningOf(char: string): Neighbour {
  const letter = LETTERS.get(char);
  if (letter) return letter.joining;
  if (JOIN_CAUSING.test(char)) return 'causing';
  return TRANSPARENT.test(char) ? 'transparent' : 'none';
}

/**
 * Letters of scripts that join (Arabic, Syriac, N'Ko, Mandaic) but that `shapeArabic` has no forms
 * for: printed unjoined they would mislead, so they print as '?'. Presentation forms typed as such
 * are already shaped; tatweel only stretches a join.
 */
export const UNSHAPED =
  /^(?![\u0640\ufb50-\ufdff\ufe70-\ufeff])(?=\p{L})[\p{sc=Arabic}\p{sc=Syriac}\p{sc=Nko}\p{sc=Mandaic}]$/u;

/**
 * Arabic text, still in logical order, with each letter in the form its neighbours give it
 * (isolated, final, initial, medial) and lam-alef as one ligature.
 */
export function shapeArabic(text: string): string {
  if (!/[\u0621-\u06cc]/.test(text)) return text;
  const chars = Array.from(text);
  const joining = chars.map(joiningOf);
  /** The joining of the nearest character that is not a mark, before (-1) or after (1) `i`. */
  const neighbour = (i: number, step: -1 | 1): Neighbour => {
    for (let j = i + step; j >= 0 && j < chars.length; j += step) {
      const type = joining[j] ?? 'none';
      if (type !== 'transparent') return type;
    }
    return 'none';
  };
  let shaped = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] ?? '';
    const letter = LETTERS.get(char);
    if (!letter) {
      shaped += char;
      continue;
    }
    const before = neighbour(i, -1);
    const joinsBefore = letter.joining !== 'none' && (before === 'dual' || before === 'causing');
    const ligature = char === LAM ? LAM_ALEF.get(chars[i + 1] ?? '') : undefined;
    if (ligature) {
      shaped += String.fromCodePoint(ligature + (joinsBefore ? 1 : 0));
      i++;
      continue;
    }
    const after = neighbour(i, 1);
    const joinsAfter = letter.joining === 'dual' && after !== 'none';
    const form = joinsBefore ? (joinsAfter ? 3 : 1) : joinsAfter ? 2 : 0;
    shaped += String.fromCodePoint(letter.isolated + form);
  }
  return shaped;
}

/**
 * Characters that can make a line's visual order differ from its stored order: right-to-left
 * letters, Arabic digits and the explicit right-to-left marks. Text without any is left as is.
 */
const BIDI = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200f\u202b\u202e\u2067]/;

/** A printed line in the order it is drawn, left to right; `rtl` when its paragraph is right to left. */
export interface Line {
  text: string;
  rtl: boolean;
}

/**
 * A paragraph's printed lines (each `[start, end)` in the paragraph, as wrapping cut it) in visual
 * order, as drawn left to right, with brackets mirrored in right-to-left runs. The paragraph's
 * direction is its first strong character's (UAX #9 P2–P3), left to right when it has none; the
 * levels are resolved over the whole paragraph and each line is reordered alone (L1–L2).
 */
export function visualLines(paragraph: string, lines: [number, number][]): Line[] {
  if (!BIDI.test(paragraph)) {
    return lines.map(([start, end]) => ({ text: paragraph.slice(start, end), rtl: false }));
  }
  const levels = bidi.getEmbeddingLevels(paragraph);
  const rtl = ((levels.paragraphs[0]?.level ?? 0) & 1) === 1;
  return lines.map(([start, end]) => {
    if (start === end) return { text: '', rtl };
    const mirrored = bidi.getMirroredCharactersMap(paragraph, levels.levels, start, end - 1);
    const chars = Array.from(
      { length: end - start },
      (_, i) => mirrored.get(start + i) ?? paragraph[start + i] ?? '',
    );
    for (const [from = start, to = start] of bidi.getReorderSegments(
      paragraph,
      levels,
      start,
      end - 1,
    )) {
      chars.splice(
        from - start,
        to - from + 1,
        ...chars.slice(from - start, to - start + 1).reverse(),
      );
    }
    return { text: chars.join(''), rtl };
  });
}
