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
// of each other and of the next line (the CPU overlaps them). A field of the usual shape
// `[-]digits[.digits]` is read with SIMD in straight-line code; a line with any other field, and a
// line longer than 63 bytes, takes a byte-by-byte path that accepts the same language.

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

// @ts-ignore: decorator
@inline
function pow10(e: i32): f64 {
  return load<f64>(POW10 + (<usize>e << 3));
}

// 2^53: integers up to here convert to f64 exactly.
const EXACT_MANTISSA: u64 = 9007199254740992;
// Stop accumulating digits at 19 so the u64 mantissa cannot overflow; later digits only scale.
const MANTISSA_LIMIT: u64 = 1000000000000000000;
const ZERO = i8x16.splat(0);
// What a field of an unusual shape reads as: the line then takes the general path.
const NAN_BITS: u64 = 0x7ff8000000000000;
// Lane numbers 0..15, and the multiply-add weights that join two 2-digit pairs into 4 digits.
const IOTA = i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
const HUNDRED_ONE = i16x8(100, 1, 100, 1, 100, 1, 100, 1);

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
 * The number in the field [s, e] (offsets from the line start p, e inclusive) when it has the usual
 * shape `[-]digits[.digits]` with 1 to 16 digits, else NaN (the line then takes the general path).
 * One 16-byte SIMD load ending at the field's last byte: the dot is squeezed out with a swizzle and
 * the digits are combined pairwise by multiply-adds. Straight-line code: the shape check is a
 * select, not a branch, so the four fields of a line overlap in the CPU.
 */
// @ts-ignore: decorator
@inline
function parseField(p: usize, s: i32, e: i32): f64 {
  const negative = load<u8>(p + <usize>s) == 45;
  const body = e - s + 1 - <i32>negative; // bytes after the sign
  // Lane 15 holds the field's last byte; lanes before the field (up to 15 bytes before the line,
  // still inside linear memory) are ignored.
  const last = p + <usize>e - 15;
  const values = i8x16.sub(v128.load(last), i8x16.splat(48)); // digits become 0..9, others > 9
  const digitLanes = i8x16.bitmask(i8x16.eq(i8x16.sub_sat_u(values, i8x16.splat(9)), ZERO));
  const bodyLanes = <u32>(0x10000 - (1 << (16 - body))); // lanes 16 − body … 15
  const others = ~digitLanes & bodyLanes; // must be empty or one dot
  const dotLane = others == 0 ? -1 : <i32>ctz(others);
  const digits = body - <i32>(others != 0);
  const usual =
    (body <= 16) &
    (digits > 0) &
    ((others & (others - 1)) == 0) &
    ((others == 0) | (load<u8>(last + <usize>(dotLane & 15)) == 46)); // no dot: lane 15, a digit
  // Lanes up to the dot take their left neighbour's byte, so the digits end up contiguous in lanes
  // 16 − digits … 15; the lanes before them (sign, earlier bytes) are cleared.
  const shift = i8x16.le_s(IOTA, i8x16.splat(<i8>dotLane));
  const packed = i8x16.swizzle(values, i8x16.add(IOTA, shift));
  const kept = v128.and(packed, i8x16.gt_s(IOTA, i8x16.splat(<i8>(15 - digits))));
  // Little-endian: lane 2k (the more significant digit) is the low byte of i16 lane k.
  const pairs = i16x8.add(
    i16x8.mul(v128.and(kept, i16x8.splat(0xff)), i16x8.splat(10)),
    i16x8.shr_u(kept, 8),
  );
  const quads = i32x4.dot_i16x8_s(pairs, HUNDRED_ONE); // four 4-digit groups, most significant first
  const high = <u64>(i32x4.extract_lane(quads, 0) * 10000 + i32x4.extract_lane(quads, 1));
  const low = <u64>(i32x4.extract_lane(quads, 2) * 10000 + i32x4.extract_lane(quads, 3));
  // At most 16 digits and an exact 10^f: what scaleDecimal(mantissa, -f) computes, minus its
  // branches (exact up to 2^53, one rounding more above). Masking keeps an unusual field's table
  // read in bounds; its value is discarded.
  const value = <f64>(<i64>(high * 100000000 + low)) / pow10((15 - dotLane) & 15);
  // The sign and the NaN as integer selects: V8 compiles those without a branch.
  const bits = reinterpret<u64>(value) | (<u64>negative << 63);
  return reinterpret<f64>(usual ? bits : NAN_BITS);
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

/** The 64 bytes in a..d as a bit mask: which are not blanks or \n (> 0x20). */
// @ts-ignore: decorator
@inline
function maskWords(a: v128, b: v128, c: v128, d: v128): u64 {
  // Adding 0x5f with unsigned saturation sets the top bit exactly in bytes > 0x20 (0x21 + 0x5f =
  // 0x80), and bitmask reads the top bits: one instruction per 16 bytes before the bitmask.
  const lift = i8x16.splat(0x5f);
  return (
    <u64>(<u32>i8x16.bitmask(i8x16.add_sat_u(a, lift))) |
    (<u64>(<u32>i8x16.bitmask(i8x16.add_sat_u(b, lift))) << 16) |
    (<u64>(<u32>i8x16.bitmask(i8x16.add_sat_u(c, lift))) << 32) |
    (<u64>(<u32>i8x16.bitmask(i8x16.add_sat_u(d, lift))) << 48)
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
      const words = maskWords(a, b, c, d) & ((<u64>1 << (<u64>eolOffset)) - 1);
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
        const index = parseField(p, s0, e0);
        const x = parseField(p, s1, e1);
        const y = parseField(p, s2, e2);
        const t = parseField(p, <i32>ctz(starts), <i32>ctz(ends));
        store<f64>(indexColumn + at, index);
        store<f64>(xColumn + at, x);
        store<f64>(yColumn + at, y);
        store<f64>(tColumn + at, t);
        // A field of another shape (exponent, '+', many digits) or a malformed one: the general
        // path reads the whole line again and decides. The fields are finite or NaN, and a sum of
        // four numbers below 10^16 cannot overflow, so the sum is NaN exactly when one of them is.
        const sum = index + x + y + t;
        ok = sum == sum;
        if (!ok) ok = parseLineGeneral(p + <usize>s0, at);
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
