// The PDF's fonts (docs/reports.md, "The PDF"): DejaVu Sans and DejaVu Sans Bold, embedded as
// subsets, so that printed names and notes keep their letters (Łukasz, Παπαδόπουλος, Иван, Şahin).
// Helvetica's WinAnsi set printed them with '?'. Each font file is read and parsed once per
// process; each PDF embeds only the glyphs it draws.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type ParsedFont = ReturnType<Fontkit['create']>;

const require = createRequire(import.meta.url);
const FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;

let files: { regular: Uint8Array; bold: Uint8Array } | undefined;
const parsed = new Map<Uint8Array, ParsedFont>();

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
 */
const parseOnce: Fontkit = {
  create(bytes, postscriptName) {
    let font = parsed.get(bytes);
    if (!font) {
      const created = fontkit.create(bytes, postscriptName);
      const layout: Layout = created.layout.bind(created);
      created.layout = (text, features) => layout(text, features, undefined, undefined, 'ltr');
      font = created;
      parsed.set(bytes, font);
    }
    return font;
  },
};

const read = (name: string) => readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`));

export async function embedReportFonts(
  doc: PDFDocument,
): Promise<{ font: PDFFont; bold: PDFFont }> {
  files ??= { regular: read(FILES.regular), bold: read(FILES.bold) };
  doc.registerFontkit(parseOnce);
  return {
    font: await doc.embedFont(files.regular, { subset: true }),
    bold: await doc.embedFont(files.bold, { subset: true }),
  };
}
