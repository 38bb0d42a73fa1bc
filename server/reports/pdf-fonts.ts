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

/** fontkit with a memory: pdf-lib parses a font for every document, 60–90 ms for the two. */
const parseOnce: Fontkit = {
  create(bytes, postscriptName) {
    let font = parsed.get(bytes);
    if (!font) {
      font = fontkit.create(bytes, postscriptName);
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
