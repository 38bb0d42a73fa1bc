// A PDF's text and images, page by page, as pdfjs-dist reads them (the report tests check every
// printed field).
import { fileURLToPath } from 'node:url';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

const standardFontDataUrl = fileURLToPath(
  new URL('../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url),
);

const open = (bytes: Uint8Array) =>
  getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, standardFontDataUrl }).promise;

export async function pdfPages(bytes: Uint8Array): Promise<string[]> {
  const pdf = await open(bytes);
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join('\n'));
  }
  await pdf.destroy();
  return pages;
}

/** How many images each page paints (pdfjs's paintImageXObject operations), page by page. */
export async function pdfPageImageCounts(bytes: Uint8Array): Promise<number[]> {
  const pdf = await open(bytes);
  const counts: number[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const { fnArray } = await (await pdf.getPage(n)).getOperatorList();
    counts.push(fnArray.filter((fn) => fn === OPS.paintImageXObject).length);
  }
  await pdf.destroy();
  return counts;
}

/** Every piece of text with where it is drawn (points from the page's bottom left), and the page size. */
export async function pdfTextBoxes(
  bytes: Uint8Array,
): Promise<
  { width: number; height: number; items: { str: string; x: number; y: number; width: number }[] }[]
> {
  const pdf = await open(bytes);
  const pages = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const items = (await page.getTextContent()).items.flatMap((item) =>
      'str' in item && item.str
        ? [
            {
              str: item.str,
              x: item.transform[4] ?? 0,
              y: item.transform[5] ?? 0,
              width: item.width,
            },
          ]
        : [],
    );
    pages.push({ width: page.view[2] ?? 0, height: page.view[3] ?? 0, items });
  }
  await pdf.destroy();
  return pages;
}
