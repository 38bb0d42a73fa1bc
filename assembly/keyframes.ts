// Keyframe text → columns. Rules (spec §3, issue 2 §2.1, docs/path-core.md): lines end at \n;
// fields are separated by blanks (any byte up to the space except \n: space, tab, \r, …);
// fields 1–4 are index, x, y, t and later fields are ignored. A line with fewer than 4 fields, or
// a field 1–4 that is not a finite decimal number, is skipped and counted. Blank lines are ignored
// but still count for line numbers.
//
// JS feeds the text in chunks (512 KiB, so V8 tiers the code up early): a chunk's unfinished last
// line is left unconsumed and JS passes it again at the start of the next chunk.
//
// Speed (about 250 instructions a line): each chunk is first classified 64 bytes at a time with
// SIMD compares into two bit maps, line feeds and field bytes; a line of up to 56 bytes (the usual
// file) then reads its line end and its fields' bounds from one unaligned load per map. Its four
// fields are read with SIMD in straight-line code (one table lookup per field for its shape), and
// one branch per line decides whether all four had the usual shape `[-]digits[.digits]`. Any
// other line takes a byte-by-byte path that accepts the same language.

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

// The field reader's table (fieldShape), filled once when the module starts: one 32-byte entry per
// field shape, at dots · 4096 + span · 64 + negative · 32 bytes, where negative says whether the
// field starts with '-', span is its length − 1 (up to 63) and dots is the count of leading zero
// bits of the 32-bit mask of '.' lanes in its 16-byte window: 32 without a dot, else 31 − the last
// dot's lane. So dots is 16..32, and FIELD_SHAPES points 16 · 4096 bytes before the first entry:
// the entry's offset then adds to it as a load's constant offset, with no instruction.
//   bytes 0–15: the swizzle control that squeezes the body's dot out (lanes up to it take their
//     left neighbour) and clears the lanes before the body's digits (index 0x80 reads zero), so
//     the digits end up alone in the last lanes (the body: the bytes after the sign);
//   bytes 16–23: the divisor, ±10^(digits after the dot), ±1 without a dot, NaN when the shape
//     cannot be `[-]digits[.digits]`: no body, a body of more than 16 bytes, or no digit (a lone
//     dot). Dividing by a negative power gives the sign, −0 included, with the same rounding.
const FIELD_SHAPES = memory.data(33 * 4096, 16);
for (let dots = 16; dots <= 32; dots++) {
  for (let span = 0; span < 64; span++) {
    for (let negative = 0; negative < 2; negative++) {
      const lastDot = 31 - dots; // −1: no dot
      const length = span + 1 - negative;
      // A dot before the body (lanes 16 − length … 15) belongs to an earlier field.
      const hasDot = lastDot >= 16 - length;
      const dot = hasDot ? lastDot : 16;
      const digits = length - <i32>hasDot;
      const entry = FIELD_SHAPES + <usize>(dots * 4096 + span * 64 + negative * 32);
      for (let lane = 0; lane < 16; lane++) {
        const source = lane < 16 - digits ? 0x80 : hasDot && lane <= dot ? lane - 1 : lane;
        store<u8>(entry + <usize>lane, <u8>source);
      }
      const usual = length >= 1 && length <= 16 && digits >= 1;
      const power = hasDot ? pow10(15 - dot) : 1;
      store<f64>(entry, usual ? (negative ? -power : power) : NaN, 16);
    }
  }
}
// 32 (negative · 32 in FIELD_SHAPES) for '-', 0 for every other byte: the sign by a load.
const MINUS = memory.data(256);
store<u8>(MINUS + 45, 32);
// The parser's vector constants, stored here and loaded into locals once per chunk: V8 builds a
// v128.const from scalar moves at every use, a local stays in a register (or one load away).
const PARSE_CONSTANTS = memory.data(9 * 16, 16);
v128.store(PARSE_CONSTANTS, i8x16.splat(48), 0); // '0'
v128.store(PARSE_CONSTANTS, i8x16.splat(0x76), 16); // + 0x76 sets the top bit above 9
v128.store(PARSE_CONSTANTS, i8x16.splat(46 - 48), 32); // '.' − '0'
v128.store(PARSE_CONSTANTS, i16x8.splat(2561), 48); // joins 2 digits (fieldValues)
// Weights of the multiply-adds that join 2-digit pairs into 4 digits and those into 8.
v128.store(PARSE_CONSTANTS, i16x8(100, 1, 100, 1, 100, 1, 100, 1), 64);
v128.store(PARSE_CONSTANTS, i16x8(10000, 1, 10000, 1, 10000, 1, 10000, 1), 80);
v128.store(PARSE_CONSTANTS, f64x2.splat(1e8), 96);
v128.store(PARSE_CONSTANTS, i8x16.splat(<i8>LF), 112); // classifyChunk's
v128.store(PARSE_CONSTANTS, i8x16.splat(0x5f), 128);

// Bit maps of the current chunk (classifyChunk): bit i of FEEDS is set when byte i is \n, of
// WORDS when it is neither a blank nor \n. One allocation, the two maps side by side, kept between
// chunks.
let byteMaps: usize = 0;
let byteMapBytes: usize = 0; // the size of each map

let lineNumber: i32 = 0; // lines of the chunks before the current one
let blankLines: i32 = 0;
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
 * The FIELD_SHAPES entry offset of the field [s, e] (offsets from the line start p, e inclusive)
 * whose 16 bytes up to its last one are `values` (each byte − '0'). Straight-line code, no branch;
 * whether the bytes the entry keeps are all digits is checked on the packed lanes (parseChunk).
 */
// @ts-ignore: decorator
@inline
function fieldShape(p: usize, s: i32, e: i32, values: v128, dotChar: v128): usize {
  const negative = <usize>load<u8>(<usize>load<u8>(p + <usize>s), MINUS);
  const dots = <usize>clz(i8x16.bitmask(i8x16.eq(values, dotChar)));
  const span = <usize>(e - s); // 0..63: both are bits of the maps' 64-bit window
  return (dots << 12) + (span << 6) + negative;
}

/**
 * Two fields' digits, packed by their shapes' swizzles (digits right-aligned, the rest zero), as
 * numbers: joined pairwise by multiply-adds into two 8-digit halves each, then high · 10^8 + low
 * divided by the divisors of their FIELD_SHAPES entries (at the offsets fieldShape gave). As f64
 * the high half times 10^8 is exact, so the sum rounds once (only above 2^53), like converting the
 * 16-digit integer; the divisor 10^f is exact too, so the number is correctly rounded whenever the
 * mantissa is below 2^53.
 */
// @ts-ignore: decorator
@inline
function fieldValues(
  first: v128,
  second: v128,
  firstShape: usize,
  secondShape: usize,
  joinDigits: v128,
  joinPairs: v128,
  joinQuads: v128,
  highScale: v128,
): v128 {
  // Little-endian: lane 2k (the more significant digit) is the low byte of i16 lane k, and
  // (low + 256·high) · 2561 >> 8 = 10·low + high in 16 bits.
  const firstQuads = i32x4.dot_i16x8_s(i16x8.shr_u(i16x8.mul(first, joinDigits), 8), joinPairs);
  const secondQuads = i32x4.dot_i16x8_s(i16x8.shr_u(i16x8.mul(second, joinDigits), 8), joinPairs);
  // Four 4-digit groups each, most significant first → first high, first low, second high, low.
  const halves = i32x4.dot_i16x8_s(i16x8.narrow_i32x4_s(firstQuads, secondQuads), joinQuads);
  const firstHalves = f64x2.convert_low_i32x4_s(halves);
  const secondHalves = f64x2.convert_low_i32x4_s(i32x4.shuffle(halves, halves, 2, 3, 2, 3));
  const mantissas = f64x2.add(
    f64x2.mul(v128.shuffle<f64>(firstHalves, secondHalves, 0, 2), highScale),
    v128.shuffle<f64>(firstHalves, secondHalves, 1, 3),
  );
  const divisors = v128.load64_lane(
    secondShape,
    v128.load64_zero(firstShape, FIELD_SHAPES + 16),
    1,
    FIELD_SHAPES + 16,
  );
  return f64x2.div(mantissas, divisors);
}

/** Starts a parse; `expectedPoints` sizes the columns up front (they still grow if it is short). */
export function parseBegin(expectedPoints: i32): void {
  releaseColumns();
  if (expectedPoints > 0) resizeColumns(expectedPoints);
  lineNumber = 0;
  blankLines = 0;
  badLines = 0;
  firstBadLine = 0;
  pointCount = 0;
}

/** Four 16-lane bit masks, in order, as one 64-bit mask (32-bit halves first: fewer operations). */
// @ts-ignore: decorator
@inline
function joinMasks(a: i32, b: i32, c: i32, d: i32): u64 {
  return <u64>(<u32>(a | (b << 16))) | (<u64>(<u32>(c | (d << 16))) << 32);
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

/**
 * Fills the bit maps of the chunk [ptr, ptr + len): FEEDS (\n) and WORDS (neither blank nor \n),
 * 64 bytes per step with SIMD compares, each byte classified once; a line then reads its bits with
 * one unaligned load per map. Reads up to 63 bytes past len (inside the chunk's padding); those
 * bits are never looked at, since every line ends at or before the sentinel. Returns how many \n
 * the chunk holds.
 */
function classifyChunk(ptr: usize, len: i32): i32 {
  const blocks = (<usize>len + 63) >> 6;
  const needed = (blocks + 1) << 3; // a zero word after the last block for the unaligned reads
  if (needed > byteMapBytes) {
    if (byteMaps != 0) heap.free(byteMaps);
    byteMapBytes = needed;
    byteMaps = heap.alloc(2 * needed);
  }
  const feedMap = byteMaps;
  const wordMap = byteMaps + byteMapBytes;
  // Constants in locals, loaded once: see PARSE_CONSTANTS.
  const newlines = v128.load(PARSE_CONSTANTS, 112);
  // Adding 0x5f with unsigned saturation sets the top bit exactly in bytes > 0x20 (0x21 + 0x5f =
  // 0x80), and bitmask reads the top bits: one instruction per 16 bytes before the bitmask.
  const lift = v128.load(PARSE_CONSTANTS, 128);
  let feedCount: i32 = 0;
  for (let block: usize = 0; block < blocks; block++) {
    const at = ptr + (block << 6);
    const a = v128.load(at);
    const b = v128.load(at, 16);
    const c = v128.load(at, 32);
    const d = v128.load(at, 48);
    const feeds = joinMasks(
      i8x16.bitmask(i8x16.eq(a, newlines)),
      i8x16.bitmask(i8x16.eq(b, newlines)),
      i8x16.bitmask(i8x16.eq(c, newlines)),
      i8x16.bitmask(i8x16.eq(d, newlines)),
    );
    feedCount += <i32>popcnt(feeds);
    store<u64>(feedMap + (block << 3), feeds);
    const words = joinMasks(
      i8x16.bitmask(i8x16.add_sat_u(a, lift)),
      i8x16.bitmask(i8x16.add_sat_u(b, lift)),
      i8x16.bitmask(i8x16.add_sat_u(c, lift)),
      i8x16.bitmask(i8x16.add_sat_u(d, lift)),
    );
    store<u64>(wordMap + (block << 3), words);
  }
  store<u64>(feedMap + (blocks << 3), 0);
  store<u64>(wordMap + (blocks << 3), 0);
  return feedCount;
}

/** How many \n the current chunk holds in its first `bytes` bytes (from the FEEDS map). */
function feedsBefore(bytes: usize): i32 {
  let count: i32 = 0;
  const words = bytes >> 6;
  for (let word: usize = 0; word < words; word++) {
    count += <i32>popcnt(load<u64>(byteMaps + (word << 3)));
  }
  const rest = <u64>(bytes & 63);
  return count + <i32>popcnt(load<u64>(byteMaps + (words << 3)) & ((<u64>1 << rest) - 1));
}

// Whether the line readLineSlowly just read holds a point (its second result).
let slowLineHeldPoint: u32 = 0;

/**
 * A line the fast path does not take (rare): longer than the maps' window, blank, with fewer than
 * four fields, with a field of another shape, or the chunk's last. Reads it with the general path
 * into the columns at `at` and counts it. Returns its \n (or the sentinel), or 0 when it is the
 * unfinished last line of a chunk that is not the final one.
 */
function readLineSlowly(ptr: usize, p: usize, at: usize, end: usize, final: bool): usize {
  const eol = lineEnd(p);
  if (eol == end && !final) return 0;
  const first = skipBlanks(p);
  slowLineHeldPoint = 0;
  if (first == eol) {
    blankLines++;
  } else if (parseLineGeneral(first, at)) {
    slowLineHeldPoint = 1;
  } else {
    badLines++;
    if (firstBadLine == 0) firstBadLine = lineNumber + feedsBefore(p - ptr) + 1;
  }
  return eol;
}

export function parseChunk(ptr: usize, len: i32, final: bool): i32 {
  const end = ptr + <usize>len;
  store<u8>(end, <u8>LF); // sentinel: every scan below stops at a newline
  // Every line of the chunk adds at most one point: room for all of them up front, so the loop
  // never checks.
  const lineLimit = pointCount + classifyChunk(ptr, len + 1);
  if (lineLimit > capacity) resizeColumns(grownCapacity(capacity, lineLimit));
  const feedMap = byteMaps;
  const wordMap = byteMaps + byteMapBytes;
  // The loop's state lives in locals, which V8 keeps in registers; globals are memory accesses.
  let points = pointCount;
  const indexColumn = column(0);
  const xColumn = column(1);
  const yColumn = column(2);
  const tColumn = column(3);
  const zeroChar = v128.load(PARSE_CONSTANTS, 0);
  const aboveNine = v128.load(PARSE_CONSTANTS, 16);
  const dotChar = v128.load(PARSE_CONSTANTS, 32);
  const joinDigits = v128.load(PARSE_CONSTANTS, 48);
  const joinPairs = v128.load(PARSE_CONSTANTS, 64);
  const joinQuads = v128.load(PARSE_CONSTANTS, 80);
  const highScale = v128.load(PARSE_CONSTANTS, 96);
  let p = ptr;
  while (p < end) {
    const at = <usize>points << 3;
    // The maps' bits from p on: at least 57 of them (the shift drops up to 7).
    const offset = p - ptr;
    const shift = <u64>(offset & 7);
    const feeds = load<u64>(feedMap + (offset >> 3)) >> shift;
    const eolOffset = ctz(feeds); // 64: a longer line, which the test below sends on
    const words = (load<u64>(wordMap + (offset >> 3)) >> shift) & (feeds - 1) & ~feeds;
    const eol = p + <usize>eolOffset;
    // A line's fields are the runs of word bits before its \n. Unrolled and without early exits:
    // four independent chains for the CPU to overlap. With fewer than four fields the missing
    // ones read as offset 64, still inside the chunk's padding, and the line fails the test below.
    let starts = words & ~(words << 1);
    let ends = words & ~(words >> 1);
    const s0 = <i32>ctz(starts);
    starts &= starts - 1;
    const s1 = <i32>ctz(starts);
    starts &= starts - 1;
    const s2 = <i32>ctz(starts);
    const s3 = <i32>ctz(starts & (starts - 1));
    const e0 = <i32>ctz(ends);
    ends &= ends - 1;
    const e1 = <i32>ctz(ends);
    ends &= ends - 1;
    const e2 = <i32>ctz(ends);
    const e3 = <i32>ctz(ends & (ends - 1));
    // Each field's 16 bytes up to its last one, as digits 0..9 where they are digits.
    const values0 = i8x16.sub(v128.load(p + <usize>e0 - 15), zeroChar);
    const values1 = i8x16.sub(v128.load(p + <usize>e1 - 15), zeroChar);
    const values2 = i8x16.sub(v128.load(p + <usize>e2 - 15), zeroChar);
    const values3 = i8x16.sub(v128.load(p + <usize>e3 - 15), zeroChar);
    const entry0 = fieldShape(p, s0, e0, values0, dotChar);
    const entry1 = fieldShape(p, s1, e1, values1, dotChar);
    const entry2 = fieldShape(p, s2, e2, values2, dotChar);
    const entry3 = fieldShape(p, s3, e3, values3, dotChar);
    const packed0 = i8x16.swizzle(values0, v128.load(entry0, FIELD_SHAPES));
    const packed1 = i8x16.swizzle(values1, v128.load(entry1, FIELD_SHAPES));
    const packed2 = i8x16.swizzle(values2, v128.load(entry2, FIELD_SHAPES));
    const packed3 = i8x16.swizzle(values3, v128.load(entry3, FIELD_SHAPES));
    const indexX = fieldValues(
      packed0,
      packed1,
      entry0,
      entry1,
      joinDigits,
      joinPairs,
      joinQuads,
      highScale,
    );
    const yT = fieldValues(
      packed2,
      packed3,
      entry2,
      entry3,
      joinDigits,
      joinPairs,
      joinQuads,
      highScale,
    );
    v128.store64_lane(indexColumn + at, indexX, 0);
    v128.store64_lane(xColumn + at, indexX, 1);
    v128.store64_lane(yColumn + at, yT, 0);
    v128.store64_lane(tColumn + at, yT, 1);
    // The usual line: within the maps' window and before the chunk's end, four fields or more
    // (the fourth starts at 64 when missing), each of the shape `[-]digits[.digits]`: a number,
    // not NaN, whose kept lanes are all digits (adding 0x76 with saturation sets a lane's top bit
    // exactly when it is above 9). Any other line (blank, malformed, an exponent, '+', many
    // digits, the last one) goes to the general path below, which reads it again and decides.
    // Numbers below 10^16 cannot overflow a sum, so a sum is NaN exactly when one of its terms is.
    // The tests are or-ed into one word: one branch per line.
    const largest = i8x16.max_u(i8x16.max_u(packed0, packed1), i8x16.max_u(packed2, packed3));
    const sums = f64x2.add(indexX, yT);
    const unusual =
      <u32>((eolOffset | <u64>s3) >> 6) |
      ((<u32>(end - 1 - eol)) >>> 31) |
      i64x2.bitmask(f64x2.ne(sums, sums)) |
      i8x16.bitmask(i8x16.add_sat_u(largest, aboveNine));
    if (unusual == 0) {
      points++;
      p = eol + 1;
      continue;
    }
    const slowEol = readLineSlowly(ptr, p, at, end, final);
    if (slowEol == 0) break; // an unfinished line: parsed again with the next chunk
    points += slowLineHeldPoint;
    p = slowEol + 1;
  }
  pointCount = points;
  // Every line read ends at a \n before p, the final chunk's last one at the sentinel.
  lineNumber += feedsBefore(p - ptr);
  return <i32>(p - ptr) < len ? <i32>(p - ptr) : len;
}

export function parsePointCount(): i32 {
  return pointCount;
}

export function parseLineCount(): i32 {
  return lineNumber - blankLines;
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
