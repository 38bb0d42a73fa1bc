// Reference keyframe parser: deliberately naive (split into lines, split into fields, a regular
// expression for the number grammar, Number() for the value) so that it shares no code or
// technique with the engine's byte scanner. Rules as docs/path-core.md states them:
// lines end at \n; any other byte up to the space (tab, \r, NUL, other controls) separates
// fields like the space; fields 1–4 are index, x, y, t and later fields are ignored; a line with
// fewer than 4 fields, or whose first four fields are not all finite decimal numbers, is
// malformed; blank lines count for line numbers only.
import type { ParseReport } from '../../workers/path-types.ts';

/** Optional sign, digits with an optional point (at least one digit), optional exponent. */
const decimalNumber = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** Every byte up to the space except the line feed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control bytes are the separators.
const blanks = /[\x00-\x09\x0b-\x20]+/;

export interface ReferenceLine {
  /** 1-based line number in the file. */
  line: number;
  /** The four values when the line is a keyframe, null when it is malformed. */
  values: [index: number, x: number, y: number, t: number] | null;
}

export interface ReferenceParse {
  /** Every non-blank line in file order, accepted or not. */
  lines: ReferenceLine[];
  report: ParseReport;
}

function parseField(field: string): number | null {
  if (!decimalNumber.test(field)) return null;
  const value = Number(field);
  return Number.isFinite(value) ? value : null;
}

/** One character per byte (Latin-1), so invalid UTF-8 cannot merge or split fields. */
function latin1(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return text;
}

export function parseKeyframesReference(bytes: Uint8Array): ReferenceParse {
  const text = latin1(bytes);
  const rawLines = text.split('\n');
  // Text after the last \n is a line only when it is not empty.
  if (rawLines[rawLines.length - 1] === '') rawLines.pop();
  const lines: ReferenceLine[] = [];
  rawLines.forEach((raw, i) => {
    const fields = raw.split(blanks).filter((f) => f !== '');
    if (fields.length === 0) return;
    const values = fields.slice(0, 4).map(parseField);
    const ok = values.length === 4 && values.every((v) => v !== null);
    lines.push({ line: i + 1, values: ok ? (values as ReferenceLine['values']) : null });
  });
  const bad = lines.filter((l) => l.values === null);
  const points = lines.length - bad.length;
  return {
    lines,
    report: {
      lines: lines.length,
      points,
      badLines: bad.length,
      firstBadLine: bad[0]?.line ?? 0,
      empty: lines.length === 0,
    },
  };
}

/**
 * Spec §7: the same file read as keyframe image names — every token longer than ".png" that ends
 * in ".png", in order, decoded as UTF-8; tokens are separated by any byte up to the space.
 */
export function keyframeImageNamesReference(bytes: Uint8Array): string[] {
  const decoder = new TextDecoder();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these control bytes are the separators.
  const separators = /[\x00-\x20]+/;
  return latin1(bytes)
    .split(separators)
    .filter((token) => token.length > 4 && token.endsWith('.png'))
    .map((token) => decoder.decode(Uint8Array.from(token, (c) => c.charCodeAt(0))));
}
