// Keyframe text → columns. Rules (spec §3, issue 2 §2.1, docs/path-core.md): lines end at \n;
// fields are separated by blanks (any byte up to the space except \n: space, tab, \r, …);
// fields 1–4 are index, x, y, t and later fields are ignored. A line with fewer than 4 fields, or
// a field 1–4 that is not a finite decimal number, is skipped and counted. Blank lines are ignored
// but still count for line numbers.
//
// JS feeds the text in chunks (~1 MiB, so V8 tiers the code up early): a chunk's unfinished last
// line is left unconsumed and JS passes it again at the start of the next chunk.
//
// Speed: a line of up to 63 bytes (the usual file) is split with SIMD masks of its 64 bytes, so its
// line end and its fields' bounds come without a byte loop, and its four fields parse independently
// of each other and of the next line (the CPU overlaps them). Digits are read 8 bytes at a time.
// Longer lines take a byte-by-byte path that accepts the same language.

import { grownCapacity, resizeBuffer } from './memory';

const LF: u32 = 10;

// Correctly rounded 10^0..10^308 (the compiler rounds each literal): one multiply or divide per
// number. Static data rather than StaticArray: reading a managed array in a hot loop makes the
// incremental runtime spill the reference to its shadow stack on every access.
const POW10 = memory.data<f64>([
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
  1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
  1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29,
  1e30, 1e31, 1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39,
  1e40, 1e41, 1e42, 1e43, 1e44, 1e45, 1e46, 1e47, 1e48, 1e49,
  1e50, 1e51, 1e52, 1e53, 1e54, 1e55, 1e56, 1e57, 1e58, 1e59,
  1e60, 1e61, 1e62, 1e63, 1e64, 1e65, 1e66, 1e67, 1e68, 1e69,
  1e70, 1e71, 1e72, 1e73, 1e74, 1e75, 1e76, 1e77, 1e78, 1e79,
  1e80, 1e81, 1e82, 1e83, 1e84, 1e85, 1e86, 1e87, 1e88, 1e89,
  1e90, 1e91, 1e92, 1e93, 1e94, 1e95, 1e96, 1e97, 1e98, 1e99,
  1e100, 1e101, 1e102, 1e103, 1e104, 1e105, 1e106, 1e107, 1e108, 1e109,
  1e110, 1e111, 1e112, 1e113, 1e114, 1e115, 1e116, 1e117, 1e118, 1e119,
  1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127, 1e128, 1e129,
  1e130, 1e131, 1e132, 1e133, 1e134, 1e135, 1e136, 1e137, 1e138, 1e139,
  1e140, 1e141, 1e142, 1e143, 1e144, 1e145, 1e146, 1e147, 1e148, 1e149,
  1e150, 1e151, 1e152, 1e153, 1e154, 1e155, 1e156, 1e157, 1e158, 1e159,
  1e160, 1e161, 1e162, 1e163, 1e164, 1e165, 1e166, 1e167, 1e168, 1e169,
  1e170, 1e171, 1e172, 1e173, 1e174, 1e175, 1e176, 1e177, 1e178, 1e179,
  1e180, 1e181, 1e182, 1e183, 1e184, 1e185, 1e186, 1e187, 1e188, 1e189,
  1e190, 1e191, 1e192, 1e193, 1e194, 1e195, 1e196, 1e197, 1e198, 1e199,
  1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207, 1e208, 1e209,
  1e210, 1e211, 1e212, 1e213, 1e214, 1e215, 1e216, 1e217, 1e218, 1e219,
  1e220, 1e221, 1e222, 1e223, 1e224, 1e225, 1e226, 1e227, 1e228, 1e229,
  1e230, 1e231, 1e232, 1e233, 1e234, 1e235, 1e236, 1e237, 1e238, 1e239,
  1e240, 1e241, 1e242, 1e243, 1e244, 1e245, 1e246, 1e247, 1e248, 1e249,
  1e250, 1e251, 1e252, 1e253, 1e254, 1e255, 1e256, 1e257, 1e258, 1e259,
  1e260, 1e261, 1e262, 1e263, 1e264, 1e265, 1e266, 1e267, 1e268, 1e269,
  1e270, 1e271, 1e272, 1e273, 1e274, 1e275, 1e276, 1e277, 1e278, 1e279,
  1e280, 1e281, 1e282, 1e283, 1e284, 1e285, 1e286, 1e287, 1e288, 1e289,
  1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299,
  1e300, 1e301, 1e302, 1e303, 1e304, 1e305, 1e306, 1e307, 1e308
]);
const POW10_U64 = memory.data<u64>([1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000]);

// @ts-ignore: decorator
@inline
function pow10(e: i32): f64 {
  return load<f64>(POW10 + (<usize>e << 3));
}

// 2^53: integers up to here convert to f64 exactly.
const EXACT_MANTISSA: u64 = 9007199254740992;
// Stop accumulating digits at 19 so the u64 mantissa cannot overflow; later digits only scale.
const MANTISSA_LIMIT: u64 = 1000000000000000000;
// '0' in every byte: XOR turns digit bytes into their values 0..9 (no borrows between bytes).
const ZEROS: u64 = 0x3030303030303030;

let lineNumber: i32 = 0;
let nonBlankLines: i32 = 0;
let badLines: i32 = 0;
let firstBadLine: i32 = 0;
let pointCount: i32 = 0;
let capacity: i32 = 0;
// Output column pointers in field order (index, x, y, t), so a field number can index them.
const COLUMNS = memory.data(4 * sizeof<usize>());

// Where parseNumberGeneral stopped: its second result (a global, so nothing is allocated).
let cursor: usize = 0;

/** Blanks separate fields: every byte up to the space except the line feed. */
// @ts-ignore: decorator
@inline
function isBlank(c: u32): bool {
  return c <= 32 && c != LF;
}

/** m × 10^e (m of at most 19 digits): exact in Clinger's case, else within 1–2 ulp (docs/path-core.md). */
// @ts-ignore: decorator
@inline
function scaleDecimal(m: u64, e: i32): f64 {
  if (m == 0) return 0;
  if (e == 0) return <f64>m;
  if (m <= EXACT_MANTISSA) {
    // Both factors exact, so one IEEE operation rounds correctly (Clinger's fast path).
    const exact = <f64>(<i64>m); // signed conversion: one instruction, and m < 2^63 here
    if (e < 0 && e >= -22) return exact / pow10(-e);
    if (e > 0 && e <= 22) return exact * pow10(e);
    if (e > 22 && e <= 37) {
      // Moving the surplus powers into the mantissa keeps the fast path while it stays exact.
      const surplus = <u64>pow10(e - 22);
      if (m <= EXACT_MANTISSA / surplus) return <f64>(<i64>(m * surplus)) * 1e22;
    }
  }
  if (e > 308) return Infinity; // m ≥ 1, so at least 1e309
  if (e > 0) return <f64>m * pow10(e);
  if (e >= -308) return <f64>m / pow10(-e);
  const rest = -e - 308; // two steps into the subnormal range; beyond that it underflows to 0
  return rest > 308 ? 0 : <f64>m / 1e308 / pow10(rest);
}

/**
 * Reads `[+-]digits[.digits][(e|E)[+-]digits]` (either digit run may be empty, not both) at p and
 * leaves cursor at the byte after it. Returns NaN for no number and ±Infinity when it overflows.
 */
function parseNumberGeneral(p: usize): f64 {
  let c = <u32>load<u8>(p);
  const negative = c == 45;
  if (c == 45 || c == 43) c = load<u8>(++p);
  let mantissa: u64 = 0;
  let exponent: i32 = 0;
  let digits = 0;
  let d = c - 48;
  while (d < 10) {
    if (mantissa < MANTISSA_LIMIT) mantissa = mantissa * 10 + <u64>d;
    else exponent++;
    digits++;
    d = <u32>load<u8>(++p) - 48;
  }
  if (d + 48 == 46) {
    d = <u32>load<u8>(++p) - 48;
    while (d < 10) {
      if (mantissa < MANTISSA_LIMIT) {
        mantissa = mantissa * 10 + <u64>d;
        exponent--;
      }
      digits++;
      d = <u32>load<u8>(++p) - 48;
    }
  }
  c = d + 48;
  if (digits == 0) {
    cursor = p;
    return NaN;
  }
  if ((c | 32) == 101) {
    c = load<u8>(++p);
    const negativeExponent = c == 45;
    if (c == 45 || c == 43) c = load<u8>(++p);
    d = c - 48;
    if (d >= 10) {
      cursor = p;
      return NaN;
    }
    let e: i32 = 0;
    while (d < 10) {
      if (e < 100000) e = e * 10 + <i32>d; // any larger exponent over- or underflows anyway
      d = <u32>load<u8>(++p) - 48;
    }
    exponent += negativeExponent ? -e : e;
  }
  cursor = p;
  const value = scaleDecimal(mantissa, exponent);
  return negative ? -value : value;
}

/** The value of 8 digit values 0..9, first digit in the lowest byte: three multiplies (SWAR). */
// @ts-ignore: decorator
@inline
function eightDigits(x: u64): u64 {
  x = ((x & 0x0f0f0f0f0f0f0f0f) * 2561) >> 8;
  x = ((x & 0x00ff00ff00ff00ff) * 6553601) >> 16;
  return ((x & 0x0000ffff0000ffff) * 42949672960001) >> 32;
}

/** Non-digit bytes of x (bytes XOR '0') as 0x80 flags; exact per byte, no carries between bytes. */
// @ts-ignore: decorator
@inline
function nonDigits(x: u64): u64 {
  return (((x & 0x7f7f7f7f7f7f7f7f) + 0x7676767676767676) | x) & 0x8080808080808080;
}

/** The value of the first k ≤ 8 digit bytes of x (bytes XOR '0'). */
// @ts-ignore: decorator
@inline
function leadingDigits(x: u64, k: i32): u64 {
  // Shifting the k digits to the top fills the low bytes with leading zeros.
  return k == 0 ? 0 : eightDigits(x << (<u64>(64 - 8 * k)));
}

/** First \n at or after p; the chunk's sentinel guarantees one, and the padding covers the 8-byte reads. */
// @ts-ignore: decorator
@inline
function lineEnd(p: usize): usize {
  while (true) {
    const w = load<u64>(p) ^ 0x0a0a0a0a0a0a0a0a;
    const zero = (w - 0x0101010101010101) & ~w & 0x8080808080808080;
    if (zero != 0) return p + <usize>(ctz(zero) >> 3);
    p += 8;
  }
}

// @ts-ignore: decorator
@inline
function skipBlanks(p: usize): usize {
  while (isBlank(load<u8>(p))) p++;
  return p;
}

// @ts-ignore: decorator
@inline
function column(field: i32): usize {
  return load<usize>(COLUMNS + (<usize>field << alignof<usize>()));
}

function resizeColumns(points: i32): void {
  capacity = points;
  for (let field = 0; field < 4; field++) {
    const resized = resizeBuffer(column(field), points, 8);
    store<usize>(COLUMNS + (<usize>field << alignof<usize>()), resized);
  }
}

function growColumns(): void {
  resizeColumns(grownCapacity(capacity, pointCount + 1));
}

function releaseColumns(): void {
  for (let field = 0; field < 4; field++) {
    const ptr = column(field);
    if (ptr != 0) heap.free(ptr);
  }
  forgetColumns();
}

function forgetColumns(): void {
  memory.fill(COLUMNS, 0, 4 * sizeof<usize>());
  capacity = 0;
}

/**
 * The number in the field [s, e] (offsets from the line start p, e inclusive), NaN when the field
 * is not a finite number. `[-]digits[.digits]` with at most 8 digits on either side of the dot is
 * read 8 bytes at a time; any other shape (exponent, '+', longer runs, garbage) goes to
 * parseNumberGeneral, which must then consume exactly the field.
 */
// @ts-ignore: decorator
@inline
function parseToken(p: usize, s: i32, e: i32): f64 {
  const negative = load<u8>(p + <usize>s) == 45;
  const body = p + <usize>s + <usize>negative;
  const length = <i32>(p + <usize>e + 1 - body);
  const whole = load<u64>(body) ^ ZEROS;
  const k = <i32>(ctz(nonDigits(whole)) >> 3); // digits before the first non-digit (≤ 8)
  // After k digits: the end of the field, or a dot and f ≤ 8 more digits.
  const f = max(length - k - 1, 0);
  const fraction = load<u64>(body + <usize>k + 1) ^ ZEROS;
  const dotted = k < 8 && <u32>((whole >> (<u64>(8 * k))) & 0xff) == (46 ^ 0x30);
  const fractionDigits = <i32>(ctz(nonDigits(fraction)) >> 3);
  // Bitwise rather than short-circuit: straight-line code, no branches to mispredict.
  const simple =
    ((k == length) & (length > 0)) | (dotted & (f <= 8) & (fractionDigits >= f) & (length > 1));
  if (!simple) {
    const value = parseNumberGeneral(p + <usize>s);
    return cursor == p + <usize>e + 1 ? value : NaN;
  }
  const mantissa =
    leadingDigits(whole, k) * load<u64>(POW10_U64 + (<usize>f << 3)) + leadingDigits(fraction, f);
  // At most 16 digits and an exact 10^f: what scaleDecimal(mantissa, -f) computes, minus its
  // branches (exact up to 2^53, one rounding more above).
  const value = <f64>(<i64>mantissa) / pow10(f);
  return negative ? -value : value;
}

/** Starts a parse; `expectedPoints` sizes the columns up front (they still grow if it is short). */
export function parseBegin(expectedPoints: i32): void {
  releaseColumns();
  if (expectedPoints > 0) resizeColumns(expectedPoints);
  lineNumber = 0;
  nonBlankLines = 0;
  badLines = 0;
  firstBadLine = 0;
  pointCount = 0;
}

/** The 64 bytes in a..d as a bit mask: which equal `value`. */
// @ts-ignore: decorator
@inline
function maskEqual(a: v128, b: v128, c: v128, d: v128, value: v128): u64 {
  return (
    <u64>(<u32>i8x16.bitmask(i8x16.eq(a, value))) |
    (<u64>(<u32>i8x16.bitmask(i8x16.eq(b, value))) << 16) |
    (<u64>(<u32>i8x16.bitmask(i8x16.eq(c, value))) << 32) |
    (<u64>(<u32>i8x16.bitmask(i8x16.eq(d, value))) << 48)
  );
}

/** The 64 bytes in a..d as a bit mask: which are blanks or \n (≤ 0x20). */
// @ts-ignore: decorator
@inline
function maskSpaces(a: v128, b: v128, c: v128, d: v128): u64 {
  // Saturating subtraction leaves 0 exactly in bytes ≤ 0x20: two instructions per 16 bytes on
  // x64, where an unsigned less-than takes four.
  const space = i8x16.splat(32);
  const zero = i8x16.splat(0);
  return (
    <u64>(<u32>i8x16.bitmask(i8x16.eq(i8x16.sub_sat_u(a, space), zero))) |
    (<u64>(<u32>i8x16.bitmask(i8x16.eq(i8x16.sub_sat_u(b, space), zero))) << 16) |
    (<u64>(<u32>i8x16.bitmask(i8x16.eq(i8x16.sub_sat_u(c, space), zero))) << 32) |
    (<u64>(<u32>i8x16.bitmask(i8x16.eq(i8x16.sub_sat_u(d, space), zero))) << 48)
  );
}

/** Counts a malformed line (rare: kept out of parseChunk's loop). */
function noteBadLine(line: i32): void {
  badLines++;
  if (firstBadLine == 0) firstBadLine = line;
}

/**
 * The general line path: fields one after the other from `first` (the line's first non-blank
 * byte), each read byte by byte. Handles any line; columns at `at`. Returns whether the line holds
 * a point.
 */
function parseLineGeneral(first: usize, at: usize): bool {
  let q = first;
  for (let i = 0; i < 4; i++) {
    const value = parseNumberGeneral(skipBlanks(q));
    store<f64>(column(i) + at, value);
    const c = <u32>load<u8>(cursor);
    // Fields 1–3 must end in a blank (a \n there means too few fields); field 4 may end the line.
    if (!isFinite(value) || !(isBlank(c) || (i == 3 && c == LF))) return false;
    q = cursor;
  }
  return true;
}

export function parseChunk(ptr: usize, len: i32, final: bool): i32 {
  const end = ptr + <usize>len;
  store<u8>(end, <u8>LF); // sentinel: every scan below stops at a newline
  const newlines = i8x16.splat(<i8>LF);
  // The loop's state lives in locals, which V8 keeps in registers; globals are memory accesses.
  let points = pointCount;
  let lines = lineNumber;
  let nonBlank = nonBlankLines;
  let indexColumn = column(0);
  let xColumn = column(1);
  let yColumn = column(2);
  let tColumn = column(3);
  let consumed = len;
  let p = ptr;
  while (p < end) {
    if (points == capacity) {
      pointCount = points;
      growColumns();
      indexColumn = column(0);
      xColumn = column(1);
      yColumn = column(2);
      tColumn = column(3);
    }
    const at = <usize>points << 3;
    const a = v128.load(p);
    const b = v128.load(p, 16);
    const c = v128.load(p, 32);
    const d = v128.load(p, 48);
    const feeds = maskEqual(a, b, c, d, newlines);
    let eol: usize;
    let blank: bool;
    let ok: bool;
    if (feeds != 0) {
      // The line is within these 64 bytes: its fields are the runs of non-blank bytes before \n.
      const eolOffset = <i32>ctz(feeds);
      eol = p + <usize>eolOffset;
      const words = ~maskSpaces(a, b, c, d) & ((<u64>1 << (<u64>eolOffset)) - 1);
      blank = words == 0;
      let starts = words & ~(words << 1);
      let ends = words & ~(words >> 1);
      ok = popcnt(starts) >= 4;
      if (ok) {
        // Unrolled and without early exits: four independent chains for the CPU to overlap.
        const s0 = <i32>ctz(starts);
        starts &= starts - 1;
        const s1 = <i32>ctz(starts);
        starts &= starts - 1;
        const s2 = <i32>ctz(starts);
        starts &= starts - 1;
        const e0 = <i32>ctz(ends);
        ends &= ends - 1;
        const e1 = <i32>ctz(ends);
        ends &= ends - 1;
        const e2 = <i32>ctz(ends);
        ends &= ends - 1;
        const index = parseToken(p, s0, e0);
        const x = parseToken(p, s1, e1);
        const y = parseToken(p, s2, e2);
        const t = parseToken(p, <i32>ctz(starts), <i32>ctz(ends));
        store<f64>(indexColumn + at, index);
        store<f64>(xColumn + at, x);
        store<f64>(yColumn + at, y);
        store<f64>(tColumn + at, t);
        ok = isFinite(index) & isFinite(x) & isFinite(y) & isFinite(t);
      }
    } else {
      // A line longer than 63 bytes: the byte-by-byte path.
      eol = lineEnd(p);
      const first = skipBlanks(p);
      blank = first == eol;
      ok = !blank && parseLineGeneral(first, at);
    }
    if (eol == end && !final) {
      consumed = <i32>(p - ptr); // an unfinished line: parsed again with the next chunk
      break;
    }
    lines++;
    if (!blank) {
      nonBlank++;
      if (ok) points++;
      else noteBadLine(lines);
    }
    p = eol + 1;
  }
  pointCount = points;
  lineNumber = lines;
  nonBlankLines = nonBlank;
  return consumed;
}

export function parsePointCount(): i32 {
  return pointCount;
}

export function parseLineCount(): i32 {
  return nonBlankLines;
}

export function parseBadLineCount(): i32 {
  return badLines;
}

export function parseFirstBadLine(): i32 {
  return firstBadLine;
}

export function parseColumn(which: i32): usize {
  return which >= 0 && which < 4 ? column(which) : 0;
}

export function parseTake(): void {
  forgetColumns();
}

export function parseRewind(): void {
  pointCount = 0;
}

// ---- keyframe image names: every whitespace-separated token ending in ".png" (spec §7) ----

let nameCount: i32 = 0;
let nameCapacity: i32 = 0;
let names: usize = 0; // u32 pairs: start, end offsets in the whole text

const PNG_SUFFIX: u32 = 0x676e702e; // ".png" read as a little-endian u32

/** Blank or line feed: what separates names. */
// @ts-ignore: decorator
@inline
function isSpace(c: u32): bool {
  return c <= 32;
}

export function namesReset(): void {
  if (names != 0) heap.free(names);
  names = 0;
  nameCount = 0;
  nameCapacity = 0;
}

export function namesChunk(ptr: usize, len: i32, base: u32, final: bool): i32 {
  const end = ptr + <usize>len;
  store<u8>(end, <u8>LF);
  let p = ptr;
  while (true) {
    while (isSpace(load<u8>(p)) && p < end) p++;
    if (p >= end) return len;
    const start = p;
    while (!isSpace(load<u8>(p))) p++;
    if (p == end && !final) return <i32>(start - ptr);
    if (p - start > 4 && load<u32>(p - 4) == PNG_SUFFIX) {
      if (nameCount == nameCapacity) {
        nameCapacity = grownCapacity(nameCapacity, nameCount + 1);
        names = resizeBuffer(names, nameCapacity, 8);
      }
      const at = names + (<usize>nameCount << 3);
      store<u32>(at, base + <u32>(start - ptr));
      store<u32>(at, base + <u32>(p - ptr), 4);
      nameCount++;
    }
  }
}

export function namesCount(): i32 {
  return nameCount;
}

export function namesPointer(): usize {
  return names;
}
