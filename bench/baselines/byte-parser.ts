// A hand-written JavaScript keyframe parser: one pass over the bytes, no strings, numbers
// assembled from digits with an exactly-rounded fast path. The bench's strong JS baseline,
// written to be as fast as plain JavaScript reasonably gets.
import type { KeyframeColumns } from '../../workers/path-types.ts';

/** 10^0 … 10^22: every one is exact in float64, so m·10^k and m/10^k round once (m < 2^53). */
const exactPowers = Array.from({ length: 23 }, (_, i) => 10 ** i);

const newline = 10;

/** Where the last readNumber stopped; −1 when the token was not a finite number. */
let numberEnd = -1;

/** Space, tab, CR, vertical tab, form feed: everything below '!' except the line feed. */
function isBlank(c: number): boolean {
  return c <= 32 && c !== newline;
}

function readNumber(b: Uint8Array, start: number, end: number): number {
  let pos = start;
  let c = b[pos]!;
  const negative = c === 45;
  if (c === 45 || c === 43) pos++;
  let mantissa = 0;
  let digits = 0;
  let exponent = 0;
  for (; pos < end; pos++) {
    const d = b[pos]! - 48;
    if (d < 0 || d > 9) break;
    mantissa = mantissa * 10 + d;
    digits++;
  }
  if (pos < end && b[pos] === 46) {
    for (pos++; pos < end; pos++) {
      const d = b[pos]! - 48;
      if (d < 0 || d > 9) break;
      mantissa = mantissa * 10 + d;
      digits++;
      exponent--;
    }
  }
  numberEnd = -1;
  if (digits === 0) return Number.NaN;
  if (pos < end && (b[pos]! | 32) === 101) {
    pos++;
    c = b[pos]!;
    const expNegative = c === 45;
    if (c === 45 || c === 43) pos++;
    let e = 0;
    const expStart = pos;
    for (; pos < end; pos++) {
      const d = b[pos]! - 48;
      if (d < 0 || d > 9) break;
      if (e < 100000) e = e * 10 + d;
    }
    if (pos === expStart) return Number.NaN;
    exponent += expNegative ? -e : e;
  }
  if (pos < end && b[pos] !== newline && !isBlank(b[pos]!)) return Number.NaN;
  let value: number;
  if (digits <= 15 && exponent >= -22 && exponent <= 22) {
    value = exponent < 0 ? mantissa / exactPowers[-exponent]! : mantissa * exactPowers[exponent]!;
  } else {
    // Long mantissas or extreme exponents: let the engine's correctly rounded parser decide.
    value = Number(String.fromCharCode(...b.subarray(start, pos)));
  }
  if (!Number.isFinite(value)) return value;
  numberEnd = pos;
  return negative ? -value : value;
}

function grow(column: Float64Array, capacity: number): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(capacity);
  bigger.set(column);
  return bigger;
}

export function parseKeyframesBytes(bytes: Uint8Array): KeyframeColumns & { badLines: number } {
  const end = bytes.length;
  // Start from a typical line length and double when full: cheaper than a counting pass.
  let capacity = Math.max(16, Math.ceil(end / 32));
  let index = new Float64Array(capacity);
  let x = new Float64Array(capacity);
  let y = new Float64Array(capacity);
  let t = new Float64Array(capacity);
  const fields = new Float64Array(4);
  let count = 0;
  let badLines = 0;
  let pos = 0;
  while (pos < end) {
    let field = 0;
    let ok = true;
    for (;;) {
      while (pos < end && isBlank(bytes[pos]!)) pos++;
      if (pos >= end || bytes[pos] === newline) break;
      if (field === 4) break; // fields after the fourth are ignored
      fields[field] = readNumber(bytes, pos, end);
      if (numberEnd < 0) {
        ok = false;
        break;
      }
      field++;
      pos = numberEnd;
    }
    if (pos < end && bytes[pos] !== newline) {
      const eol = bytes.indexOf(newline, pos);
      pos = eol === -1 ? end : eol;
    }
    pos++;
    if (field === 0 && ok) continue;
    if (!ok || field < 4) {
      badLines++;
      continue;
    }
    if (count === capacity) {
      capacity *= 2;
      index = grow(index, capacity);
      x = grow(x, capacity);
      y = grow(y, capacity);
      t = grow(t, capacity);
    }
    index[count] = fields[0]!;
    x[count] = fields[1]!;
    y[count] = fields[2]!;
    t[count] = fields[3]!;
    count++;
  }
  return {
    index: index.subarray(0, count),
    x: x.subarray(0, count),
    y: y.subarray(0, count),
    t: t.subarray(0, count),
    badLines,
  };
}
