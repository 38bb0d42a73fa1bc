// The PDF prints Hebrew and Arabic as a reader reads them: each printed line in visual order
// (UAX #9), Arabic letters joined, brackets mirrored in right-to-left runs; Chinese, Japanese and
// Korean with the system's Noto Sans CJK; only what no font can print is '?', with the note. A
// video's length prints as the screens show it. Checked twice: the glyphs as drawn, left to right (the
// PDF's show-text operations), and the text pdfjs-dist extracts, which it puts back into logical
// order when a text item is mostly right-to-left (its own bidi heuristic, over 30%).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { decodePDFRawStream, PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfPages, pdfTextBoxes } from '../../tests/support/pdf-text.ts';
import { inspections } from '../db/schema.ts';
import { DEMO_PASSWORD, loadDemo } from '../demo/load-demo.ts';
import type { InspectionReport } from '../schemas/reports.ts';
import { build, type TestApp } from '../test/build.ts';
import { dataset, files } from '../test/demo-dataset.ts';
import { checkEvidenceFiles } from './evidence.ts';
import { reportPdf } from './pdf.ts';
import { type CjkFontFiles, systemCjkFonts } from './pdf-fonts.ts';
import { shapeArabic, visualLines } from './pdf-script.ts';
import { readRecord } from './record.ts';

const LOST_NOTE = "'?' marks a character this PDF cannot print";
const PAGE_RIGHT = 595.28 - 50;

let t: TestApp;
let base: InspectionReport;

beforeAll(async () => {
  t = await build();
  await loadDemo(t.services.ctx, dataset, files);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: 'lcmanager2@example.com', password: DEMO_PASSWORD },
  });
  const start = dataset.inspections.find((i) => i.key === 'insp-lc2-3')?.startTime;
  const row = (await t.services.ctx.db.select().from(inspections)).find(
    (r) => r.startTime.toISOString() === start,
  );
  base = (
    await t.app.inject({
      url: `/api/reports/${row?.id}`,
      headers: { authorization: `Bearer ${res.json().token}` },
    })
  ).json();
});
afterAll(() => t.close());

/** The PDF of the demo report with some of its fields as a plant in Israel or Jordan enters them. */
async function pdfOf(
  changes: Partial<InspectionReport>,
  cjkFonts: CjkFontFiles | null = systemCjkFonts(),
): Promise<Uint8Array> {
  const at = new Date();
  const pdf = await reportPdf(
    t.services.ctx,
    { ...base, ...changes },
    {
      at,
      by: { name: 'Anna Auditor', email: 'audit@example.com' },
      evidence: await checkEvidenceFiles(
        t.services.ctx.storage,
        await readRecord(t.services.ctx.db, base.inspectionId),
        at,
      ),
    },
    cjkFonts,
  );
  return Buffer.from(pdf);
}

/** Each show-text operation's characters in the order its glyphs are drawn, left to right. */
async function drawnTexts(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const texts: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const { fnArray, argsArray } = await (await pdf.getPage(n)).getOperatorList();
    fnArray.forEach((fn, i) => {
      if (fn !== OPS.showText) return;
      const glyphs: unknown[] = argsArray[i]?.[0] ?? [];
      texts.push(
        glyphs.map((g) => (g && typeof g === 'object' && 'unicode' in g ? g.unicode : '')).join(''),
      );
    });
  }
  await pdf.destroy();
  return texts;
}

const HEBREW_NOTE = 'נבדק (LOT-2026-114) ב-12 מכונות.';
const MIXED_NOTE = 'Batch LOT-2026-114 checked by שרה לוי (QA).';

describe('Hebrew', () => {
  it('prints a name and a note mixed with a batch number and brackets in reading order', async () => {
    const pdf = await pdfOf({
      operatorName: 'יוסי כהן',
      operatorNotes: `${HEBREW_NOTE}\n${MIXED_NOTE}`,
    });
    const drawn = await drawnTexts(pdf);
    // Right to left: the first word at the right end; the batch number and the digits read left
    // to right inside it, the brackets mirrored so that they still open towards the number.
    expect(drawn).toContain('ןהכ יסוי');
    expect(drawn).toContain('.תונוכמ 12-ב (LOT-2026-114) קדבנ');
    // A left-to-right paragraph keeps its order; only the Hebrew name runs right to left.
    expect(drawn).toContain('Batch LOT-2026-114 checked by יול הרש (QA).');

    // pdfjs reads the lines back as entered, except that a bracket in a right-to-left run stays as
    // drawn (mirrored).
    const text = (await pdfPages(pdf)).join('\n');
    expect(text).toContain('יוסי כהן');
    expect(text).toContain('נבדק )LOT-2026-114( ב-12 מכונות.');
    expect(text).toContain(MIXED_NOTE);
    expect(text).not.toContain(LOST_NOTE);

    // A right-to-left paragraph's lines end at the right margin; a left-to-right one starts at the
    // value's column as before.
    const items = (await pdfTextBoxes(pdf)).flatMap((page) => page.items);
    const name = items.find((item) => item.str === 'יוסי כהן');
    expect(name?.x).toBeGreaterThan(300);
    expect((name?.x ?? 0) + (name?.width ?? 0)).toBeCloseTo(PAGE_RIGHT, 1);
    expect(items.find((item) => item.str === MIXED_NOTE)?.x).toBeCloseTo(200, 1);
  });

  it('reorders each printed line of a wrapped paragraph on its own', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `מילה${i + 1}`);
    const pdf = await pdfOf({ operatorNotes: words.join(' ') });
    const lines = (await drawnTexts(pdf)).filter((line) => line.includes('הלימ'));
    expect(lines.length).toBeGreaterThan(1);
    // The first line holds the first words, the first of them at its right end.
    const first = lines[0]?.split(' ') ?? [];
    expect(first.at(-1)).toBe('1הלימ');
    expect(first[0]).toBe(`${first.length}הלימ`);
    expect(lines.at(-1)?.split(' ')[0]).toBe('40הלימ');
  });

  it('puts lines in visual order and mirrors brackets (UAX #9)', () => {
    const text = (paragraph: string, cuts: [number, number][]) =>
      visualLines(paragraph, cuts).map((line) => line.text);
    expect(text('abc (def)', [[0, 9]])).toEqual(['abc (def)']);
    expect(text('שלום [א] 3.5 kg', [[0, 15]])).toEqual(['kg 3.5 [א] םולש']);
    // Two lines of one paragraph: levels come from the whole paragraph, order from each line.
    expect(
      text('אבג דהו LOT-1 זחט', [
        [0, 7],
        [8, 17],
      ]),
    ).toEqual(['והד גבא', 'טחז LOT-1']);
    expect(visualLines('שלום', [[0, 4]])[0]?.rtl).toBe(true);
    expect(visualLines('Hi שלום', [[0, 7]])[0]?.rtl).toBe(false);
  });
});

describe('Arabic', () => {
  it('prints letters joined, lam-alef as one, in reading order', async () => {
    const name = 'محمد لا سلام';
    const pdf = await pdfOf({ operatorNotes: name, operatorName: 'أحمد (LOT-2026-114)' });
    const drawn = await drawnTexts(pdf);
    // سلام: seen initial, lam-alef final, meem isolated (alef does not join on); لا one glyph;
    // محمد: meem initial, hah medial, meem medial, dal final; drawn right to left.
    expect(drawn).toContain('\ufee1\ufefc\ufeb3 \ufefb \ufeaa\ufee4\ufea4\ufee3');
    const text = (await pdfPages(pdf)).join('\n').normalize('NFKC');
    expect(text).toContain(name);
    // Under 30% Arabic, pdfjs takes the line for left to right: the name comes back after the number.
    expect(text).toContain('(LOT-2026-114) أحمد');
    expect(text).not.toContain(LOST_NOTE);
  });

  it('gives each letter its form by its neighbours, through marks', () => {
    // beh initial, yeh medial, teh final; a fatha between two letters keeps their join.
    expect(shapeArabic('بيت')).toBe('\ufe91\ufef4\ufe96');
    expect(shapeArabic('بَيت')).toBe('\ufe91\u064e\ufef4\ufe96');
    // Alef, dal, reh and waw join only to the letter before them: the next one starts anew.
    expect(shapeArabic('باب')).toBe('\ufe91\ufe8e\ufe8f');
    expect(shapeArabic('دار')).toBe('\ufea9\ufe8d\ufead');
    expect(shapeArabic('و')).toBe('\ufeed');
    // Lam-alef after a joining letter is the final ligature; tatweel joins on both sides.
    expect(shapeArabic('سلا')).toBe('\ufeb3\ufefc');
    expect(shapeArabic('ـبـ')).toBe('\u0640\ufe92\u0640');
  });

  it('has every form of every letter it shapes in both fonts', () => {
    const require = createRequire(import.meta.url);
    const fonts = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((name) =>
      fontkit.create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`))),
    );
    const letters = 'ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىيپچژکگی';
    for (const letter of letters) {
      // Alone, at the end, at the start and in the middle of a word.
      const forms = `${letter} ـ${letter} ${letter}ـ ـ${letter}ـ`;
      const shaped = shapeArabic(forms);
      // Each form stands for its letter (a compatibility decomposition) and is in the font.
      expect(shaped.normalize('NFKC')).toBe(forms);
      for (const char of shaped) {
        for (const font of fonts) {
          expect(font.hasGlyphForCodePoint(char.codePointAt(0) ?? 0), char).toBe(true);
        }
      }
    }
    expect(shapeArabic('لآ لأ لإ').normalize('NFKC')).toBe('لآ لأ لإ');
  });
});

describe('what still cannot print', () => {
  it('prints CJK as ? without a CJK font, and says so on every page', async () => {
    const pdf = await pdfOf({ operatorNotes: 'Wang 张伟' }, null);
    const pages = await pdfPages(pdf);
    expect(pages.join('\n')).toContain('Wang ??');
    expect(pages.every((page) => page.includes(`${LOST_NOTE} (e.g. Chinese, Japanese`))).toBe(true);
  });

  it('prints unshaped joining letters as ?, with the note', async () => {
    // The font has Urdu's tteh but no joined forms for it: '?' rather than a wrong shape.
    const pdf = await pdfOf({ operatorNotes: 'Imran ٹ' });
    const pages = await pdfPages(pdf);
    expect(pages.join('\n')).toContain('Imran ?');
    expect(pages.every((page) => page.includes(LOST_NOTE))).toBe(true);
  });
  it('leaves Latin, Greek and Cyrillic as they were', async () => {
    const names = 'Łukasz Wójcik, Γεώργιος (LOT-2026-114), Иван, İsmail Şahin';
    const pdf = await pdfOf({ operatorName: names, operatorNotes: 'Checked (x) [y].' });
    const drawn = await drawnTexts(pdf);
    expect(drawn).toContain(names);
    expect(drawn).toContain('Checked (x) [y].');
    expect((await pdfPages(pdf)).join('\n')).not.toContain(LOST_NOTE);
  });
});

const cjkFonts = systemCjkFonts();
if (!cjkFonts && !process.env.CI) {
  console.warn(
    'Skipping the CJK PDF tests: no Noto Sans CJK installed (apt-get install -y fonts-noto-cjk).',
  );
}

/** Each printed line of the field values' column (x ≥ 200), its text pieces joined left to right. */
async function valueLines(pdf: Uint8Array): Promise<{ text: string; right: number }[]> {
  const lines: { text: string; right: number }[] = [];
  for (const page of await pdfTextBoxes(pdf)) {
    const rows = new Map<number, { str: string; x: number; width: number }[]>();
    for (const item of page.items.filter((item) => item.x >= 199)) {
      rows.set(item.y, [...(rows.get(item.y) ?? []), item]);
    }
    for (const [, items] of [...rows].sort(([a], [b]) => b - a)) {
      items.sort((a, b) => a.x - b.x);
      const last = items.at(-1);
      lines.push({
        text: items.map((item) => item.str).join(''),
        right: (last?.x ?? 0) + (last?.width ?? 0),
      });
    }
  }
  return lines;
}

/** The embedded CFF fonts of a PDF by their font name, as raw bytes. */
async function embeddedCff(pdf: Uint8Array): Promise<Map<string, Uint8Array>> {
  const doc = await PDFDocument.load(pdf);
  const fonts = new Map<string, Uint8Array>();
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    const file = object.get(PDFName.of('FontFile3'));
    const stream = file && doc.context.lookup(file);
    if (stream instanceof PDFRawStream) {
      fonts.set(String(object.get(PDFName.of('FontName'))), decodePDFRawStream(stream).decode());
    }
  }
  return fonts;
}

/** A bare CFF font wrapped in an OpenType file of that one table: enough for fontkit's outlines. */
function openType(cff: Uint8Array) {
  const header = Buffer.alloc(28);
  header.write('OTTO', 0, 'latin1');
  header.writeUInt16BE(1, 4);
  header.write('CFF ', 12, 'latin1');
  header.writeUInt32BE(28, 20);
  header.writeUInt32BE(cff.length, 24);
  return fontkit.create(Buffer.concat([header, cff]));
}

describe.skipIf(!cjkFonts && !process.env.CI)('Chinese, Japanese and Korean', () => {
  const JAPANESE_NOTE = '清掃済み。ラベル残りなし（LOT-2026-114）';

  it('prints CJK names and notes as entered, with no note about ?', async () => {
    const pdf = await pdfOf({
      operatorName: '王秀英',
      operatorNotes: `${JAPANESE_NOTE}\n김민준 확인`,
      productComing: 'Wang 张伟 Paracetamol 500 mg',
    });
    const lines = (await valueLines(pdf)).map((line) => line.text);
    expect(lines).toContain('王秀英');
    expect(lines).toContain(JAPANESE_NOTE);
    expect(lines).toContain('김민준 확인');
    expect(lines.some((line) => line.startsWith('Wang 张伟 Paracetamol 500 mg /'))).toBe(true);
    expect((await pdfPages(pdf)).join('\n')).not.toContain(LOST_NOTE);
  });

  it('breaks CJK between any two characters, Latin words only at spaces', async () => {
    const sentence = '包装线清场检查完成，无残留物料。Batch LOT-2026-114 checked. ';
    const notes = sentence.repeat(8).trim();
    const lines = (await pdfOf({ operatorNotes: notes }).then(valueLines)).filter((line) =>
      /[包装线]|LOT|Batch|checked/.test(line.text),
    );
    expect(lines.length).toBeGreaterThan(3);
    // Every line inside the page; together, spaces aside (a break drops one), the note as entered.
    for (const line of lines) expect(line.right).toBeLessThanOrEqual(PAGE_RIGHT + 0.01);
    const letters = (text: string) => text.replace(/ /g, '');
    expect(letters(lines.map((line) => line.text).join(''))).toBe(letters(notes));
    // A line broken inside a run of CJK ends at a character, no Latin word is cut, and a line
    // does not start with the closing comma or full stop.
    for (const line of lines) {
      expect(line.text).toMatch(/^[^，。]/);
      for (const word of line.text.split(/[^A-Za-z0-9.-]+/).filter(Boolean)) {
        expect(sentence).toMatch(new RegExp(`(^|[^A-Za-z0-9.-])${word}([^A-Za-z0-9.-]|$)`));
      }
    }
    expect(lines.some((line) => /[\u4e00-\u9fff]$/.test(line.text))).toBe(true);
  });

  it('draws each glyph as the font does, in the face of the record’s language', async () => {
    // Glyphs of several of the font's dicts, alternating: the subsetter must keep each one's own.
    const names = '張偉 田中太郎 김민준 カタカナ 骨直 王秀英';
    const pdf = await pdfOf({ operatorName: names });
    const fonts = await embeddedCff(pdf);
    const [name, cff] = [...fonts].find(([font]) => font.includes('NotoSansCJK')) ?? [];
    expect(name).toMatch(/NotoSansCJKjp-Regular/); // kana: the Japanese face
    expect(cff?.[3]).toBeLessThanOrEqual(4); // the header's offset size, which poppler checks
    const subset = openType(cff ?? new Uint8Array());
    const face = fontkit.create(readFileSync(cjkFonts?.regular ?? ''), 'NotoSansCJKjp-Regular');
    const expected = [...new Set(face.layout(names.replace(/ /g, '')).glyphs)].map((glyph) =>
      glyph.path.toSVG(),
    );
    const drawn = expected.map((_, i) => subset.getGlyph(i + 1).path.toSVG());
    expect(drawn).toEqual(expected);
    // Chinese alone: the Simplified Chinese face.
    const chinese = await embeddedCff(await pdfOf({ operatorName: '王秀英' }));
    expect([...chinese.keys()].join()).toMatch(/NotoSansCJKsc-Regular/);
  });
});

describe('lengths and times', () => {
  it('prints the video’s length in whole seconds as the screens do, a scan’s time to 0.01 s', async () => {
    const [tag] = base.checklist.tags;
    if (!base.video || !tag) throw new Error('the demo report has a video and a tag');
    const scanned = { ...tag, scanned: true, time: 12.5, source: 'qr' as const, keyframe: null };
    const pdf = await pdfOf({
      video: { ...base.video, duration: 34.78 },
      checklist: { ...base.checklist, tags: [scanned] },
    });
    const text = (await pdfPages(pdf)).join('\n');
    expect(text).toContain(`${base.video.filename} (34 s)`);
    expect(text).not.toContain('34.78');
    expect(text).toContain(`Scanned: ${tag.name} at 12.50 s (QR code)`);
  });
});
