// The inspection report as a PDF (docs/reports.md, "The PDF"), drawn with pdf-lib on the server:
// header, signature (printed name, UTC date and time, meaning, record hash), a warning when the
// record changed after signing, the checklist, the coverage picture, the flags, the flagged
// detections with their keyframe crops and dispositions, the record's history from the audit
// trail, and 'Page n of m' with the print time.
import { eq } from 'drizzle-orm';
import {
  clip,
  type PDFDocument as Doc,
  endPath,
  PDFDocument,
  type PDFFont,
  type PDFImage,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
} from 'pdf-lib';
import { type CheckedEntry, checkedRecordHistory } from '../audit/record-history.ts';
import type { AppContext } from '../context.ts';
import { videos } from '../db/schema.ts';
import { changes, cut } from '../schemas/audit-changes.ts';
import { coverageSource } from '../schemas/coverage-source.ts';
import { replacedDetectionText } from '../schemas/replaced-detection.ts';
import type {
  Coverage,
  EvidenceCheck,
  InspectionReport,
  ReportDetection,
} from '../schemas/reports.ts';
import { lengthInSeconds } from '../schemas/video-length.ts';
import { floorplanImageKey } from '../services/floorplan-images.ts';
import { sniffImage } from '../services/image-type.ts';
import { readWhole, type Storage } from '../storage/storage.ts';
import { CJK, type CjkFontFiles, embedReportFonts, systemCjkFonts } from './pdf-fonts.ts';
import { type Line, shapeArabic, UNSHAPED, visualLines } from './pdf-script.ts';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
const FOOTER = 30;
const ink = rgb(0.1, 0.1, 0.12);
const muted = rgb(0.38, 0.38, 0.42);
const danger = rgb(0.75, 0.1, 0.1);
const ok = rgb(0.1, 0.5, 0.2);

/**
 * A font and the CJK font that prints what it lacks (pdf-fonts.ts), each character drawn by the
 * first of them that has it.
 */
class Face {
  private readonly known: Set<number>;
  private readonly fallbackKnown: Set<number>;

  constructor(
    readonly font: PDFFont,
    readonly fallback: PDFFont | null,
  ) {
    this.known = new Set(font.getCharacterSet());
    this.fallbackKnown = new Set(fallback?.getCharacterSet());
  }

  /** The font that draws `char`, or null when neither has it. */
  fontFor(char: string): PDFFont | null {
    const code = char.codePointAt(0) ?? 0;
    if (this.known.has(code)) return this.font;
    return this.fallback && this.fallbackKnown.has(code) ? this.fallback : null;
  }

  /** Printable text (`printable`) cut into runs that one font draws. */
  runs(text: string): { text: string; font: PDFFont }[] {
    const runs: { text: string; font: PDFFont }[] = [];
    for (const char of text) {
      const font = this.fontFor(char) ?? this.font;
      const last = runs.at(-1);
      if (last?.font === font) last.text += char;
      else runs.push({ text: char, font });
    }
    return runs;
  }

  width(text: string, size: number): number {
    let width = 0;
    for (const run of this.runs(text)) width += run.font.widthOfTextAtSize(run.text, size);
    return width;
  }
}

/**
 * Text as the face can print it, in stored (logical) order: Arabic letters in their joined forms
 * (`shapeArabic`); characters neither font has (CJK without a CJK font among them) and letters of
 * joining scripts left unshaped become '?', so a lost letter shows rather than a wrong one. Every
 * line break ('\r\n', '\r', U+2028, U+2029) becomes '\n', which `wrap` turns into lines: a note's
 * lines print as lines.
 */
function printable(face: Face, text: string): { text: string; lost: boolean } {
  let lost = false;
  const printed = Array.from(
    shapeArabic(
      text
        .normalize('NFC')
        .replace(/\r\n?|[\u2028\u2029]/g, '\n')
        .replace(/[^\S\n]/g, ' '),
    ),
    (char) => {
      if (char === '\n' || (face.fontFor(char) && !UNSHAPED.test(char))) return char;
      lost = true;
      return '?';
    },
  ).join('');
  return { text: printed, lost };
}

/** Under the footer of every page of a copy that lost a letter: a '?' there is not the record's. */
const LOST_LETTERS_NOTE =
  "'?' marks a character this PDF cannot print (e.g. Chinese, Japanese or Korean script): the report page shows the record as entered.";

/** A word cut into pieces no wider than `width`, character by character. */
function cutToWidth(word: string, face: Face, size: number, width: number): string[] {
  const parts: string[] = [];
  let part = '';
  let partWidth = 0;
  for (const char of word) {
    const charWidth = face.width(char, size);
    if (part && partWidth + charWidth > width) {
      parts.push(part);
      [part, partWidth] = ['', 0];
    }
    part += char;
    partWidth += charWidth;
  }
  return [...parts, part];
}

/** Characters a line does not start with: closing punctuation, small kana, the length mark. */
const NO_BREAK_BEFORE = /[\p{Pe}\p{Pf}\p{Po}ー々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ]/u;
/** Characters a line does not end with: opening punctuation. */
const NO_BREAK_AFTER = /[\p{Ps}\p{Pi}]/u;

/**
 * The words of a paragraph as `[start, end)`, between which a line may break: at spaces, which
 * the break drops, and between two characters of which one is CJK, which has no spaces between
 * its words (unless punctuation keeps them together).
 */
function words(paragraph: string): [number, number][] {
  const found: [number, number][] = [];
  let start = 0;
  let at = 0;
  let before = '';
  for (const char of paragraph) {
    if (char === ' ') found.push([start, at]);
    else if (
      before &&
      before !== ' ' &&
      (CJK.test(before) || CJK.test(char)) &&
      !NO_BREAK_BEFORE.test(char) &&
      !NO_BREAK_AFTER.test(before)
    ) {
      found.push([start, at]);
      start = at;
    }
    at += char.length;
    if (char === ' ') start = at;
    before = char;
  }
  found.push([start, at]);
  return found;
}

/** A top-down writer over pages: a cursor, wrapping and page breaks. */
class Writer {
  page: PDFPage;
  y = PAGE.height - MARGIN;
  /** Whether a character of the record printed as '?' (LOST_LETTERS_NOTE). */
  lostLetters = false;

  constructor(
    readonly doc: Doc,
    readonly font: Face,
    readonly bold: Face,
  ) {
    this.page = doc.addPage([PAGE.width, PAGE.height]);
  }

  /** Starts a new page unless `height` points still fit above the footer. */
  room(height: number): void {
    if (this.y - height >= MARGIN + FOOTER) return;
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - MARGIN;
  }

  /** The text as `face` prints it, noting a lost letter. */
  private printable(face: Face, text: string): string {
    const printed = printable(face, text);
    if (printed.lost) this.lostLetters = true;
    return printed.text;
  }

  /**
   * The text's printed lines, cut between words to fit `width` (measured in stored order), each
   * in visual order to draw left to right; a line of a right-to-left paragraph says so (`rtl`).
   */
  private wrap(text: string, face: Face, size: number, width: number): Line[] {
    const lines: Line[] = [];
    for (const paragraph of this.printable(face, text).split('\n')) {
      const cuts: [number, number][] = [];
      let [start, end] = [0, 0];
      for (const [wordStart, wordEnd] of words(paragraph)) {
        const word = paragraph.slice(wordStart, wordEnd);
        if (face.width(paragraph.slice(start, wordEnd), size) <= width) end = wordEnd;
        else if (face.width(word, size) <= width) {
          cuts.push([start, end]);
          [start, end] = [wordStart, wordEnd];
        } else {
          // A word wider than the line (a long file name, a name without spaces) is cut.
          if (end > start) cuts.push([start, end]);
          start = wordStart;
          for (const part of cutToWidth(word, face, size, width).slice(0, -1)) {
            cuts.push([start, start + part.length]);
            start += part.length;
          }
          end = wordEnd;
        }
      }
      cuts.push([start, end]);
      lines.push(...visualLines(paragraph, cuts));
    }
    return lines;
  }

  /** Printable text at `x`, each run in the font that has its characters. */
  private drawRuns(
    text: string,
    x: number,
    options: { size: number; face: Face; color: ReturnType<typeof rgb> },
  ): void {
    let at = x;
    for (const run of options.face.runs(text)) {
      const { size, color } = options;
      this.page.drawText(run.text, { x: at, y: this.y, size, font: run.font, color });
      at += run.font.widthOfTextAtSize(run.text, size);
    }
  }

  /** A line at `x`, or, in a right-to-left paragraph, against the right end of `width` from `x`. */
  private drawLine(
    line: Line,
    x: number,
    width: number,
    options: { size: number; face: Face; color: ReturnType<typeof rgb> },
  ): void {
    const shift = line.rtl ? width - options.face.width(line.text, options.size) : 0;
    this.drawRuns(line.text, x + Math.max(shift, 0), options);
  }

  text(
    text: string,
    options: {
      size?: number;
      bold?: boolean;
      color?: ReturnType<typeof rgb>;
      indent?: number;
    } = {},
  ): void {
    const size = options.size ?? 10;
    const face = options.bold ? this.bold : this.font;
    const indent = options.indent ?? 0;
    const width = CONTENT_WIDTH - indent;
    for (const line of this.wrap(text, face, size, width)) {
      this.room(size * 1.4);
      this.y -= size * 1.4;
      this.drawLine(line, MARGIN + indent, width, { size, face, color: options.color ?? ink });
    }
  }

  heading(text: string): void {
    this.room(40);
    this.y -= 10;
    this.text(text, { size: 14, bold: true });
    this.y -= 4;
  }

  /**
   * A label and its value on one line (the value wraps under itself); a SHA-256 in a smaller size,
   * so its 64 digits stay on one line to be compared.
   */
  field(label: string, value: string, { hash = false } = {}): void {
    const [labelSize, labelWidth, step] = [10, 150, 14];
    const size = hash ? 8 : labelSize;
    const width = CONTENT_WIDTH - labelWidth;
    const lines = this.wrap(value, this.font, size, width);
    // Together on one page when they fit; a longer value goes on over the page break.
    this.room(step * Math.min(lines.length, 3));
    lines.forEach((line, i) => {
      this.room(step);
      this.y -= step;
      if (i === 0) {
        this.drawRuns(this.printable(this.bold, label), MARGIN, {
          size: labelSize,
          face: this.bold,
          color: muted,
        });
      }
      this.drawLine(line, MARGIN + labelWidth, width, { size, face: this.font, color: ink });
    });
  }
}

const utc = (iso: string | null) =>
  iso ? `${iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '')} UTC` : '—';
/** A flagged detection's disposition beside its flag, as the report page shows it. */
const flagDecisionText = { confirmed: 'confirmed finding', dismissed: 'dismissed' } as const;
/** A detection's, a scan's or a stay's time, to the hundredth as the screens show it. */
const secondsText = (value: number | null) => (value === null ? '—' : `${value.toFixed(2)} s`);

async function embedStored(doc: Doc, storage: Storage, key: string): Promise<PDFImage | null> {
  const bytes = await readWhole(storage, key);
  if (!bytes) return null;
  const type = sniffImage(bytes);
  try {
    if (type?.ext === 'png') return await doc.embedPng(bytes);
    if (type?.ext === 'jpg') return await doc.embedJpg(bytes);
  } catch {
    // An image pdf-lib cannot read is left out; the text still says what it showed.
  }
  return null;
}

function drawCoverage(w: Writer, coverage: Coverage, image: PDFImage | null): void {
  const scale = Math.min(CONTENT_WIDTH / coverage.width, 300 / coverage.height);
  const width = coverage.width * scale;
  const height = coverage.height * scale;
  // The caption goes on the picture's page: room for both first.
  w.room(height + 30);
  w.text(
    `Coverage: the path in blue; visited zones outlined green, unvisited zones filled red. ${coverageSource(coverage)}`,
    { color: muted },
  );
  w.y -= height + 6;
  const x = MARGIN;
  const top = w.y + height;
  const page = w.page;
  if (image) page.drawImage(image, { x, y: w.y, width, height, opacity: 0.6 });
  page.drawRectangle({ x, y: w.y, width, height, borderColor: muted, borderWidth: 0.5 });
  for (const zone of coverage.zones) {
    const path = `M ${zone.x} ${zone.y} h ${zone.width} v ${zone.height} h ${-zone.width} Z`;
    page.drawSvgPath(path, {
      x,
      y: top,
      scale,
      borderColor: zone.visited ? ok : danger,
      borderWidth: 1.5 / scale,
      color: zone.visited ? undefined : danger,
      opacity: zone.visited ? undefined : 0.25,
    });
  }
  if (coverage.path.length > 1) {
    const d = coverage.path.map(([px, py], i) => `${i ? 'L' : 'M'} ${px} ${py}`).join(' ');
    page.drawSvgPath(d, {
      x,
      y: top,
      scale,
      borderColor: rgb(0.1, 0.3, 0.8),
      borderWidth: 1.2 / scale,
    });
  }
  for (const tag of coverage.tags) {
    page.drawCircle({
      x: x + tag.x * scale,
      y: top - tag.y * scale,
      size: 3,
      color: tag.scanned ? ok : danger,
    });
  }
}

/** The detection's strongest box, cropped out of its keyframe image (with a 15% margin). */
function drawCrop(w: Writer, image: PDFImage, box: number[] | undefined, x: number, y: number) {
  const frame = { width: 120, height: 90 };
  const [x1 = 0, y1 = 0, x2 = 1, y2 = 1] = box ?? [];
  const bw = Math.max(x2 - x1, 0.01) * 1.3 * image.width;
  const bh = Math.max(y2 - y1, 0.01) * 1.3 * image.height;
  const scale = Math.min(frame.width / bw, frame.height / bh);
  const cx = ((x1 + x2) / 2) * image.width * scale;
  const cy = ((y1 + y2) / 2) * image.height * scale;
  const page = w.page;
  page.pushOperators(
    pushGraphicsState(),
    rectangle(x, y, frame.width, frame.height),
    clip(),
    endPath(),
  );
  page.drawImage(image, {
    x: x + frame.width / 2 - cx,
    y: y + frame.height / 2 - (image.height * scale - cy),
    width: image.width * scale,
    height: image.height * scale,
  });
  page.pushOperators(popGraphicsState());
  page.drawRectangle({
    x,
    y,
    width: frame.width,
    height: frame.height,
    borderColor: muted,
    borderWidth: 0.5,
  });
}

/** Decisions whose detection a later analysis replaced, with the detection as it was. */
function drawReplacedDecisions(w: Writer, report: InspectionReport): void {
  if (!report.replacedDecisions.length) return;
  w.heading(`Decisions on replaced detections (${report.replacedDecisions.length})`);
  w.text(
    'Detections a later analysis no longer holds, with the decisions reviewers made on them.',
    {
      color: muted,
    },
  );
  for (const d of report.replacedDecisions) {
    const from = d.detection
      ? ` (${d.detection.filename}; from analysis ${d.detection.analysisVersion ?? '—'}, replaced ${utc(d.detection.replacedAt)})`
      : '';
    w.text(`${replacedDetectionText(d.detection)}${from}`, { bold: true });
    w.text(
      `${d.disposition === 'confirmed' ? 'Confirmed finding' : 'Dismissed as a false positive'} by ${d.reviewerName}, ${utc(d.at)}${d.reason ? `: ${d.reason}` : ''}`,
    );
  }
}

function detectionText(detection: ReportDetection): string {
  const objects = detection.labels
    .map((label, i) => `${label} ${((detection.confs[i] ?? 0) * 100).toFixed(0)}%`)
    .join(', ');
  return `${secondsText(detection.time)}: ${objects} (${detection.filename})`;
}

/**
 * How much of an entry the history prints: a field per line, a SHA-256 whole (not a long note),
 * and the fields of a signature (nine) or an inspection, not every field of a large record.
 */
const HISTORY_LIMITS = { value: 72, fields: 16, reason: 200 };

/** What a failed entry check means, in the words 'Verify trail' uses on /audit. */
const ENTRY_PROBLEMS = {
  hash: 'NOT VERIFIED: its content no longer matches its hash (it was edited).',
  link: 'NOT VERIFIED: its link to the entry before or after it is broken (an entry was removed, inserted or its hash rewritten).',
} as const;

/**
 * The record's history (docs/audit-trail.md, "A record's history"), oldest first: each entry's
 * UTC time, who, what and a short summary of its change and reason. It is printed, not signed:
 * the record hash covers the record, and the history goes on growing after the signature.
 */
function drawHistory(w: Writer, entries: CheckedEntry[]): void {
  w.heading(`Record history (${entries.length} ${entries.length === 1 ? 'entry' : 'entries'})`);
  w.text(
    "The audit trail's entries for this inspection, its video and the video's uploads, oldest first. The history is not part of the signed record hash. Long values are shortened (…) and at most 16 fields an entry are printed: /audit shows each entry whole, by its number, as does the record's electronic copy (JSON).",
    { color: muted },
  );
  const failing = entries.filter((entry) => entry.chain !== 'ok').length;
  if (failing) {
    w.text(
      `WARNING: ${failing} of these entries ${failing === 1 ? 'does' : 'do'} not verify against the audit trail's hash chain (marked below); 'Verify trail' on /audit finds the first break.`,
      { bold: true, color: danger },
    );
  } else if (entries.length) {
    w.text(
      "Each entry was checked against the audit trail's hash chain (its hash and its links to the entries before and after it): all verify.",
      { color: ok },
    );
  }
  for (const entry of entries) {
    w.room(40);
    w.y -= 3;
    w.text(
      `${utc(entry.at)} · ${entry.actorEmail ?? 'system'} · ${entry.action} ${entry.entity} (entry ${entry.id})`,
      { bold: true },
    );
    if (entry.chain !== 'ok') {
      w.text(ENTRY_PROBLEMS[entry.chain], { indent: 10, bold: true, color: danger });
    }
    const lines = changes(entry.oldValue, entry.newValue, HISTORY_LIMITS.value).map(
      (change) => change.line,
    );
    for (const line of lines.slice(0, HISTORY_LIMITS.fields)) w.text(line, { indent: 10 });
    if (lines.length > HISTORY_LIMITS.fields) {
      w.text(
        `… ${lines.length - HISTORY_LIMITS.fields} more fields in entry ${entry.id} on /audit`,
        {
          indent: 10,
          color: muted,
        },
      );
    }
    if (entry.reason) {
      w.text(`Reason: ${cut(entry.reason, HISTORY_LIMITS.reason)}`, { indent: 10 });
    }
  }
}

/** When and by whom a copy was printed (Annex 11 §8.1: a printout says who made it). */
export interface Printing {
  at: Date;
  by: { name: string; email: string };
  /**
   * The evidence files hashed as the copy is printed (`checkEvidenceFiles`): a printout leaves
   * the system, so it says what a full check found, not only the record hash's cheap part.
   */
  evidence: EvidenceCheck;
}

/** What the print-time check of the evidence files found, in words; `bad` when it must warn. */
function evidenceFilesText(check: EvidenceCheck): { text: string; bad: boolean } | null {
  const parts: string[] = [];
  let bad = false;
  const video = check.video?.state;
  if (video === 'matches') parts.push('the video file matches its SHA-256');
  else if (video === 'differs' || video === 'missing') {
    bad = true;
    parts.push(
      video === 'differs'
        ? 'the video file does NOT match its SHA-256'
        : 'the video file is MISSING',
    );
  } else if (video === 'unverified') parts.push('the video file has not arrived');
  const images = check.keyframeImages;
  if (images?.state === 'matches')
    parts.push(`the ${images.count} keyframe images match what was signed`);
  else if (images?.state === 'differs') {
    bad = true;
    parts.push('the keyframe images DIFFER from those signed');
  } else if (images?.state === 'not-kept') {
    parts.push('the keyframe images were not hashed when this older signature was made');
  }
  if (!parts.length) return null;
  return { text: `Evidence files checked when printed: ${parts.join('; ')}.`, bad };
}

/** 'Pixel 7 (id)', as the report page's header says it; a deleted device's name is 'Unknown'. */
const deviceText = (device: InspectionReport['device']) =>
  device ? `${device.name ?? 'Unknown'} (${device.id})` : 'not recorded';

export async function reportPdf(
  ctx: Pick<AppContext, 'db' | 'storage'>,
  report: InspectionReport,
  printing: Printing,
  cjkFonts: CjkFontFiles | null = systemCjkFonts(),
): Promise<Uint8Array> {
  const printedAt = printing.at;
  const history = await checkedRecordHistory(ctx.db, report.inspectionId);
  const doc = await PDFDocument.create();
  // Everything the copy prints comes from these: the CJK font is read only when they have CJK.
  const fonts = await embedReportFonts(
    doc,
    `${printing.by.name}${JSON.stringify(report)}${JSON.stringify(history)}`,
    cjkFonts,
  );
  doc.setTitle(`Line clearance inspection ${report.inspectionId}`);
  doc.setCreationDate(printedAt);
  doc.setProducer('Line clearance inspection system');
  const w = new Writer(
    doc,
    new Face(fonts.font, fonts.cjk?.font ?? null),
    new Face(fonts.bold, fonts.cjk?.bold ?? null),
  );

  w.text('Line Clearance Inspection Report', { size: 18, bold: true });
  w.text(`${report.lineName} · inspection ${report.inspectionId}`, { color: muted });
  w.text(`Printed ${utc(printedAt.toISOString())} by ${printing.by.name} (${printing.by.email})`, {
    color: muted,
  });
  w.heading('Inspection');
  w.field('Line', report.lineName);
  w.field('Operator', report.operatorName);
  w.field('Start', utc(report.startTime));
  w.field('End', utc(report.endTime));
  w.field('Received by the server', report.receivedAt ? utc(report.receivedAt) : 'not recorded');
  w.field(
    'Product / batch leaving',
    `${report.productLeaving ?? '—'} / ${report.batchLeaving ?? '—'}`,
  );
  w.field(
    'Product / batch coming',
    `${report.productComing ?? '—'} / ${report.batchComing ?? '—'}`,
  );
  w.field('Review status', report.status);
  w.field('Operator notes', report.operatorNotes || '—');
  w.field('Device', deviceText(report.device));
  w.field(
    'Video',
    report.video
      ? `${report.video.filename} (${lengthInSeconds(report.video.duration) ?? 'length unknown'})`
      : 'none',
  );
  w.field('Video SHA-256', report.video?.sha256 ?? 'not recorded', { hash: true });
  w.field('Analysis version', report.video?.analysisVersion ?? 'not recorded');

  w.heading('Electronic signature');
  const signature = report.signature;
  if (signature) {
    w.field('Signed by', `${signature.signerName} (${signature.signerEmail})`);
    w.field('Date and time', utc(signature.signedAt));
    w.field('Meaning', signature.statement);
    w.field('Notes', signature.notes || '—');
    w.field('Signed record hash', signature.recordHash, { hash: true });
  } else {
    w.text('Not signed: the review of this inspection is pending.');
  }
  w.field('Current record hash', report.recordHash, { hash: true });
  if (report.unchangedSinceSigning === false) {
    w.text(
      'WARNING: the record changed after it was signed. Its current hash differs from the signed hash; the signature does not cover what this report shows.',
      { bold: true, color: danger },
    );
    if (report.changedParts.length) {
      w.text(`Changed since signing: ${report.changedParts.join(', ')}.`, {
        bold: true,
        color: danger,
      });
    }
  } else if (report.unchangedSinceSigning) {
    w.text('The record is unchanged since it was signed (the hashes match).', { color: ok });
  }
  if (report.notCoveredBySignature) w.text(report.notCoveredBySignature, { bold: true });
  if (report.flagsSinceSigning) w.text(report.flagsSinceSigning, { bold: true });
  const files = evidenceFilesText(printing.evidence);
  if (files?.bad) {
    w.text(
      'WARNING: the evidence files no longer match what they were when recorded or signed; this copy shows what is stored now.',
      { bold: true, color: danger },
    );
  }
  if (files) w.text(files.text, files.bad ? { bold: true, color: danger } : { color: muted });

  w.heading('Checklist');
  if (report.pathMessage) w.text(report.pathMessage, { color: muted });
  w.text('Tags', { bold: true });
  if (!report.checklist.tags.length) w.text('No tags configured.', { color: muted, indent: 10 });
  for (const tag of report.checklist.tags) {
    const how = tag.source === 'qr' ? 'QR code' : 'path';
    const line =
      tag.scanned === null
        ? `Not assessable (no scans from the phone, no path): ${tag.name}`
        : tag.scanned
          ? `Scanned: ${tag.name} at ${secondsText(tag.time)} (${how})${tag.keyframe ? `, keyframe ${tag.keyframe.filename}` : ''}`
          : `NOT scanned: ${tag.name}`;
    w.text(line, { indent: 10, color: tag.scanned ? ink : tag.scanned === null ? muted : danger });
  }
  w.text('Hot zones', { bold: true });
  if (!report.checklist.zones.length)
    w.text('No hot zones configured.', { color: muted, indent: 10 });
  for (const zone of report.checklist.zones) {
    const line =
      zone.visited === null
        ? `Not assessable (no path): ${zone.name} (${zone.importance})`
        : zone.visited
          ? `Visited: ${zone.name} (${zone.importance}), ${secondsText(zone.secondsInside)} inside`
          : `NOT visited: ${zone.name} (${zone.importance})`;
    w.text(line, { indent: 10, color: zone.visited ? ink : danger });
  }
  if (report.coverage) {
    const plan = report.coverage.imageUrl
      ? await embedStored(doc, ctx.storage, floorplanImageKey(report.coverage.imageUrl))
      : null;
    drawCoverage(w, report.coverage, plan);
  }

  const dismissed = report.flags.filter((flag) => flag.decision === 'dismissed').length;
  // As /reports counts them: the dismissed ones are listed but no longer open.
  w.heading(
    `Flags (${dismissed ? `${report.flags.length - dismissed} open, ${dismissed} dismissed` : report.flags.length})`,
  );
  if (!report.flags.length) w.text('No flags.', { color: muted });
  for (const flag of report.flags) {
    const decision = flag.decision ? ` (${flagDecisionText[flag.decision]})` : '';
    w.text(`[${flag.severity}] ${flag.text}${decision}`, { indent: 10 });
  }

  const flagged = report.detections.filter((d) => d.flagged || d.disposition);
  w.heading(`Flagged detections (${flagged.length} of ${report.detections.length})`);
  w.text(
    `Detections at or above ${(report.rules.confidenceThreshold * 100).toFixed(0)}% confidence, and any with a disposition.`,
    { color: muted },
  );
  if (report.detectionNote) w.text(`${report.detectionNote}.`, { bold: true, color: danger });
  const [video] = report.video
    ? await ctx.db.select().from(videos).where(eq(videos.id, report.video.id))
    : [];
  for (const detection of flagged) {
    w.room(100);
    const top = w.y;
    const image =
      video?.keyframeImagesPrefix &&
      (await embedStored(doc, ctx.storage, `${video.keyframeImagesPrefix}/${detection.filename}`));
    const strongest = detection.confs.indexOf(detection.confidence);
    const indent = image ? 130 : 0;
    if (image) drawCrop(w, image, detection.boxes[strongest], MARGIN, top - 92);
    w.text(detectionText(detection), { indent, bold: true });
    const d = detection.disposition;
    w.text(
      d
        ? `${d.disposition === 'confirmed' ? 'Confirmed finding' : 'Dismissed as a false positive'} by ${d.reviewerName}, ${utc(d.at)}${d.reason ? `: ${d.reason}` : ''}`
        : 'No disposition.',
      { indent, color: d ? ink : muted },
    );
    w.y = Math.min(w.y, top - 100);
  }
  drawReplacedDecisions(w, report);

  drawHistory(w, history);

  // One line, always inside the page: a hash of wide characters made the footer 2 pt too long at
  // 7 pt. Rounded down to 0.01 pt: the exact fit measured a hair past the margin in floating point.
  const { font } = fonts;
  const footerFace = new Face(font, null);
  const fitted = (line: string, largest: number) => {
    const fit = (largest * CONTENT_WIDTH) / font.widthOfTextAtSize(line, largest);
    return Math.min(largest, Math.floor(fit * 100) / 100);
  };
  const pages = doc.getPages();
  pages.forEach((page, i) => {
    const footer = printable(
      footerFace,
      `Page ${i + 1} of ${pages.length} · Printed ${utc(printedAt.toISOString())} · Record hash ${report.recordHash}`,
    ).text;
    page.drawText(footer, {
      x: MARGIN,
      y: MARGIN / 2,
      size: fitted(footer, 7),
      font,
      color: muted,
    });
    if (w.lostLetters) {
      page.drawText(LOST_LETTERS_NOTE, {
        x: MARGIN,
        y: MARGIN / 2 + 9,
        size: fitted(LOST_LETTERS_NOTE, 6.5),
        font,
        color: muted,
      });
    }
  });
  return doc.save();
}
