// The PDF's fonts (docs/reports.md, "The PDF"): DejaVu Sans and DejaVu Sans Bold, embedded as
// subsets, so that printed names and notes keep their letters (Łukasz, Παπαδόπουλος, Иван, Şahin).
// Helvetica's WinAnsi set printed them with '?'. Chinese, Japanese and Korean, which DejaVu lacks,
// print with the system's Noto Sans CJK when one is installed: its 20 MB files are read only for a
// record that has such text. Each font file is read and parsed once per process; each PDF embeds
// only the glyphs it draws.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type ParsedFont = ReturnType<Fontkit['create']>;

const require = createRequire(import.meta.url);
const FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;

let files: { regular: Uint8Array; bold: Uint8Array } | undefined;
const parsed = new Map<Uint8Array, ParsedFont>();
/** The face of a font collection (a .ttc) that a view of its bytes stands for. */
const faceOf = new WeakMap<Uint8Array, string>();

/** fontkit's `layout` with the arguments pdf-lib does not pass: script, language and direction. */
type Layout = (
  text: string,
  features: Parameters<ParsedFont['layout']>[1],
  script?: string,
  language?: string,
  direction?: 'ltr' | 'rtl',
) => ReturnType<ParsedFont['layout']>;

/**
 * fontkit with a memory: pdf-lib parses a font for every document, 60–90 ms for the two. Its
 * layout draws in the order given: pdf.ts passes each line in visual order (pdf-script.ts), and
 * fontkit reversed a whole line whose first letter is Hebrew or Arabic, Latin and digits with it.
 * pdf-lib passes only the bytes: a face of a collection is named by `faceOf`.
 */
const parseOnce: Fontkit = {
  create(bytes, postscriptName) {
    let font = parsed.get(bytes);
    if (!font) {
      const created = fontkit.create(bytes, postscriptName ?? faceOf.get(bytes));
      const layout: Layout = created.layout.bind(created);
      created.layout = (text, features) => layout(text, features, undefined, undefined, 'ltr');
      fixCidSubsets(created);
      font = created;
      parsed.set(bytes, font);
    }
    return font;
  },
};

/** What `fixCidSubsets` reaches of @pdf-lib/fontkit 1.1.1's CFF table and subset. */
interface CffTable {
  isCIDFont: boolean;
  topDict: { FDArray: FontDict[] };
  fdForGlyph(gid: number): number | null;
}
interface FontDict {
  FontName?: unknown;
  Private?: { Subrs?: unknown[] } | null;
}
interface CffSubset {
  cff: CffTable & { length?: number };
  glyphs: number[];
  font: { getGlyph(gid: number): { path: unknown; _usedSubrs?: Record<string, boolean> } };
  subsetSubrs(subrs: unknown[], used: Record<string, boolean>): unknown[];
  subsetFontdict(topDict: { FDArray?: FontDict[]; FDSelect?: unknown }): void;
  encode(stream: unknown): void;
}

/**
 * A CID-keyed CFF font (Noto Sans CJK) subsets wrongly in @pdf-lib/fontkit 1.1.1, the fork pdf-lib
 * uses (fixed in fontkit 2, a second font engine of 18 MB): its header's offset size is a stray
 * value, for which poppler and FreeType reject the whole font, and each glyph gets the font dict
 * (hints, local subroutines) of the last one added, so glyphs of the font's other dicts draw blank
 * or wrong; and a subset of no glyph but .notdef (a weight the copy never drew) encodes a charset
 * of -1 glyphs and throws. Each subset of such a font gets a valid offset size, the dict of each
 * glyph's own, and a second .notdef when it has nothing else.
 */
function fixCidSubsets(font: ParsedFont): void {
  const cff = (font as unknown as { 'CFF '?: CffTable | null })['CFF '];
  if (!cff?.isCIDFont) return;
  const createSubset = font.createSubset.bind(font);
  font.createSubset = () => {
    const subset = createSubset() as unknown as CffSubset;
    subset.cff = Object.create(cff, { length: { value: 4 } });
    subset.subsetFontdict = function (topDict) {
      const dicts: FontDict[] = [];
      const used: Record<string, boolean>[] = [];
      /** The font's dict → the subset's. */
      const index = new Map<number, number>();
      const fds: number[] = [];
      for (const gid of this.glyphs) {
        const fd = cff.fdForGlyph(gid);
        if (fd === null) continue;
        let own = index.get(fd);
        if (own === undefined) {
          own = dicts.push({ ...cff.topDict.FDArray[fd] }) - 1;
          index.set(fd, own);
          used.push({});
        }
        fds.push(own);
        const glyph = this.font.getGlyph(gid);
        void glyph.path; // parsing the outline records the subroutines it calls
        Object.assign(used[own] ?? {}, glyph._usedSubrs);
      }
      dicts.forEach((dict, i) => {
        delete dict.FontName;
        const subrs = dict.Private?.Subrs;
        if (subrs)
          dict.Private = { ...dict.Private, Subrs: this.subsetSubrs(subrs, used[i] ?? {}) };
      });
      topDict.FDArray = dicts;
      topDict.FDSelect = { version: 0, fds };
    };
    const encode = subset.encode.bind(subset);
    subset.encode = (stream) => {
      if (subset.glyphs.length === 1) subset.glyphs.push(0);
      encode(stream);
    };
    return subset as unknown as ReturnType<ParsedFont['createSubset']>;
  };
}

const read = (name: string) => readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`));

/** A CJK font collection's regular and bold files (bold absent: bold CJK text prints regular). */
export interface CjkFontFiles {
  regular: string;
  bold: string | null;
}

/**
 * Where Noto Sans CJK is installed: Debian and Ubuntu (fonts-noto-cjk), Fedora
 * (google-noto-sans-cjk-fonts), Arch (noto-fonts-cjk).
 */
const CJK_FONT_FOLDERS = [
  '/usr/share/fonts/opentype/noto',
  '/usr/share/fonts/google-noto-sans-cjk-fonts',
  '/usr/share/fonts/noto-cjk',
];

let systemCjk: CjkFontFiles | null | undefined;

/** The system's Noto Sans CJK, looked for once per process; null when none is installed. */
export function systemCjkFonts(): CjkFontFiles | null {
  if (systemCjk === undefined) {
    const folder = CJK_FONT_FOLDERS.find((dir) => existsSync(`${dir}/NotoSansCJK-Regular.ttc`));
    const bold = `${folder}/NotoSansCJK-Bold.ttc`;
    systemCjk = folder
      ? { regular: `${folder}/NotoSansCJK-Regular.ttc`, bold: existsSync(bold) ? bold : null }
      : null;
  }
  return systemCjk;
}

/** Text that needs the CJK font: Han, kana, Hangul, Bopomofo, CJK punctuation, full-width forms. */
export const CJK =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\p{sc=Bopomofo}\u3000-\u303f\uff00-\uffef]/u;

/**
 * The collection's face for the record's text: Japanese when it has kana, Korean when it has
 * Hangul, else Simplified Chinese. The faces share their characters; each draws Han in its
 * region's forms.
 */
function cjkFace(text: string, weight: 'Regular' | 'Bold'): string {
  const region = /[\p{sc=Hiragana}\p{sc=Katakana}]/u.test(text)
    ? 'jp'
    : /\p{sc=Hangul}/u.test(text)
      ? 'kr'
      : 'sc';
  return `NotoSansCJK${region}-${weight}`;
}

const collections = new Map<string, Uint8Array>();
/** One view of a collection's bytes per face, so that `parseOnce` keeps each face apart. */
const faceViews = new Map<string, Uint8Array>();

function faceBytes(file: string, face: string): Uint8Array {
  const key = `${file}#${face}`;
  let view = faceViews.get(key);
  if (!view) {
    let bytes = collections.get(file);
    if (!bytes) {
      bytes = readFileSync(file);
      collections.set(file, bytes);
    }
    view = bytes.subarray(0);
    faceOf.set(view, face);
    faceViews.set(key, view);
  }
  return view;
}

export interface ReportFonts {
  font: PDFFont;
  bold: PDFFont;
  /** What prints CJK text, when the record has some and a CJK font is installed. */
  cjk: { font: PDFFont; bold: PDFFont } | null;
}

/** The fonts of a report whose printed text is `text`; the CJK font only when it needs one. */
export async function embedReportFonts(
  doc: PDFDocument,
  text: string,
  cjkFiles: CjkFontFiles | null,
): Promise<ReportFonts> {
  files ??= { regular: read(FILES.regular), bold: read(FILES.bold) };
  doc.registerFontkit(parseOnce);
  const fonts = {
    font: await doc.embedFont(files.regular, { subset: true }),
    bold: await doc.embedFont(files.bold, { subset: true }),
  };
  if (!cjkFiles || !CJK.test(text)) return { ...fonts, cjk: null };
  const regular = faceBytes(cjkFiles.regular, cjkFace(text, 'Regular'));
  const bold = cjkFiles.bold ? faceBytes(cjkFiles.bold, cjkFace(text, 'Bold')) : regular;
  return {
    ...fonts,
    cjk: {
      font: await doc.embedFont(regular, { subset: true }),
      bold: await doc.embedFont(bold, { subset: true }),
    },
  };
}
