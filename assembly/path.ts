// The path in time order: sorting, display scaling, 12 px thinning and the scrub-time index.
// All buffers are raw f64/i32/u32 arrays in linear memory owned by JS unless said otherwise.

import { freeBytes, touchAhead } from './memory';

const DISPLAY_MAX_WIDTH: f64 = 700;
const DISPLAY_MAX_HEIGHT: f64 = 650;

/** Spec §9: display ≤ 700×650 and never upscaled. The caller substitutes 800×600 for an unknown image. */
export function displayScale(width: f64, height: f64): f64 {
  return min(min(DISPLAY_MAX_WIDTH / width, DISPLAY_MAX_HEIGHT / height), 1.0);
}

export function scaleColumns(xPtr: usize, yPtr: usize, n: i32, scale: f64): void {
  for (let i = 0; i < n; i++) {
    const at = <usize>i << 3;
    store<f64>(xPtr + at, load<f64>(xPtr + at) * scale);
    store<f64>(yPtr + at, load<f64>(yPtr + at) * scale);
  }
}

/** Minimum and maximum of t written to out[0], out[1]; NaN for no points. */
export function timeRange(tPtr: usize, n: i32, out: usize): void {
  let lo: f64 = NaN;
  let hi: f64 = NaN;
  if (n > 0) {
    lo = load<f64>(tPtr);
    hi = lo;
    for (let i = 1; i < n; i++) {
      const t = load<f64>(tPtr + (<usize>i << 3));
      lo = min(lo, t);
      hi = max(hi, t);
    }
  }
  store<f64>(out, lo);
  store<f64>(out, hi, 8);
}

export function isSortedByTime(tPtr: usize, n: i32): bool {
  for (let i = 1; i < n; i++) {
    if (load<f64>(tPtr + (<usize>i << 3)) < load<f64>(tPtr + (<usize>(i - 1) << 3))) return false;
  }
  return true;
}

// Runs this short are insertion-sorted before merging: cheaper than merging single elements.
const RUN: i32 = 32;

function insertionSortRuns(keys: usize, order: usize, n: i32): void {
  for (let start = 0; start < n; start += RUN) {
    const stop = min(start + RUN, n);
    for (let i = start + 1; i < stop; i++) {
      const key = load<f64>(keys + (<usize>i << 3));
      const id = load<u32>(order + (<usize>i << 2));
      let j = i - 1;
      // Strict > keeps equal times in file order (stable).
      while (j >= start && load<f64>(keys + (<usize>j << 3)) > key) {
        store<f64>(keys + (<usize>(j + 1) << 3), load<f64>(keys + (<usize>j << 3)));
        store<u32>(order + (<usize>(j + 1) << 2), load<u32>(order + (<usize>j << 2)));
        j--;
      }
      store<f64>(keys + (<usize>(j + 1) << 3), key);
      store<u32>(order + (<usize>(j + 1) << 2), id);
    }
  }
}

/** Merges sorted [lo, mid) and [mid, hi) of (keys, order) into (outKeys, outOrder); ties take the left. */
function mergeRuns(
  keys: usize,
  order: usize,
  outKeys: usize,
  outOrder: usize,
  lo: i32,
  mid: i32,
  hi: i32,
): void {
  let a = lo;
  let b = mid;
  for (let k = lo; k < hi; k++) {
    let from: i32;
    if (a < mid && (b >= hi || load<f64>(keys + (<usize>a << 3)) <= load<f64>(keys + (<usize>b << 3)))) {
      from = a++;
    } else {
      from = b++;
    }
    store<f64>(outKeys + (<usize>k << 3), load<f64>(keys + (<usize>from << 3)));
    store<u32>(outOrder + (<usize>k << 2), load<u32>(order + (<usize>from << 2)));
  }
}

function gatherInPlace(column: usize, order: usize, n: i32, scratch: usize): void {
  for (let i = 0; i < n; i++) {
    const from = <usize>load<u32>(order + (<usize>i << 2));
    store<f64>(scratch + (<usize>i << 3), load<f64>(column + (from << 3)));
  }
  memory.copy(column, scratch, <usize>n << 3);
}

/**
 * Stable sort of the points by t; x and y (and `extra` unless 0) move with their times.
 * A bottom-up merge sort of (time, original position) pairs: sequential memory access, O(n log n).
 */
export function sortByTime(tPtr: usize, xPtr: usize, yPtr: usize, extra: usize, n: i32): void {
  if (isSortedByTime(tPtr, n)) return;
  const keysA = heap.alloc(<usize>n << 3);
  const keysB = heap.alloc(<usize>n << 3);
  const orderA = heap.alloc(<usize>n << 2);
  const orderB = heap.alloc(<usize>n << 2);
  memory.copy(keysA, tPtr, <usize>n << 3);
  for (let i = 0; i < n; i++) store<u32>(orderA + (<usize>i << 2), i);
  insertionSortRuns(keysA, orderA, n);
  let keys = keysA;
  let order = orderA;
  let outKeys = keysB;
  let outOrder = orderB;
  for (let width = RUN; width < n; width <<= 1) {
    for (let lo = 0; lo < n; lo += width << 1) {
      const mid = min(lo + width, n);
      const hi = min(lo + (width << 1), n);
      mergeRuns(keys, order, outKeys, outOrder, lo, mid, hi);
    }
    const k = keys;
    keys = outKeys;
    outKeys = k;
    const o = order;
    order = outOrder;
    outOrder = o;
  }
  memory.copy(tPtr, keys, <usize>n << 3);
  // The spare key buffer is free now: reuse it as the gather scratch.
  gatherInPlace(xPtr, order, n, outKeys);
  gatherInPlace(yPtr, order, n, outKeys);
  if (extra != 0) gatherInPlace(extra, order, n, outKeys);
  heap.free(keysA);
  heap.free(keysB);
  heap.free(orderA);
  heap.free(orderB);
}

/**
 * Greedy thinning: keep a point when it is at least minDistance from the last kept one. Writes kept
 * indices (i32, plus `base`) to out and returns how many. With base 0 the first point starts the path
 * and is always kept; otherwise the points continue a path whose last kept point is (lastX, lastY),
 * so JS can stream a long path through in chunks. Prefix-stable: thinning the first k points keeps
 * exactly the kept indices below k, which is what makes the scrub query O(log n).
 */
/** Lanes of the points (x, y) at least √limit from (lx, ly): all ones where dx² + dy² ≥ limit. */
// @ts-ignore: decorator
@inline
function lanesFar(x: v128, y: v128, lx: v128, ly: v128, limits: v128): v128 {
  const dx = f64x2.sub(x, lx);
  const dy = f64x2.sub(y, ly);
  return f64x2.ge(f64x2.add(f64x2.mul(dx, dx), f64x2.mul(dy, dy)), limits);
}

export function thinGreedy(
  xPtr: usize,
  yPtr: usize,
  n: i32,
  minDistance: f64,
  out: usize,
  base: i32,
  lastX: f64,
  lastY: f64,
): i32 {
  if (n <= 0) return 0;
  const limit = minDistance * minDistance;
  let kept = 0;
  let i = 0;
  if (base == 0) {
    lastX = load<f64>(xPtr);
    lastY = load<f64>(yPtr);
    store<i32>(out, 0);
    kept = 1;
    i = 1;
  }
  // Screen eight points at a time with four f64x2 lanes: most points are dropped (a walk moves far
  // less than 12 px per keyframe), so one test and branch per eight points. A block with a far
  // point keeps its first far point (the same f64 operations as a point-by-point test, so the
  // same choice) and screening goes on from the point after it; the last few points go one by one.
  const limits = f64x2.splat(limit);
  const columnBytes = <usize>n << 3;
  let lx = f64x2.splat(lastX);
  let ly = f64x2.splat(lastY);
  while (i + 8 <= n) {
    const at = <usize>i << 3;
    touchAhead(xPtr, yPtr, at, columnBytes);
    const far0 = lanesFar(v128.load(xPtr + at), v128.load(yPtr + at), lx, ly, limits);
    const far1 = lanesFar(v128.load(xPtr + at, 16), v128.load(yPtr + at, 16), lx, ly, limits);
    const far2 = lanesFar(v128.load(xPtr + at, 32), v128.load(yPtr + at, 32), lx, ly, limits);
    const far3 = lanesFar(v128.load(xPtr + at, 48), v128.load(yPtr + at, 48), lx, ly, limits);
    if (!v128.any_true(v128.or(v128.or(far0, far1), v128.or(far2, far3)))) {
      i += 8;
      continue;
    }
    const lanes =
      i64x2.bitmask(far0) |
      (i64x2.bitmask(far1) << 2) |
      (i64x2.bitmask(far2) << 4) |
      (i64x2.bitmask(far3) << 6);
    i += ctz(lanes);
    store<i32>(out + (<usize>kept << 2), base + i);
    kept++;
    lastX = load<f64>(xPtr + (<usize>i << 3));
    lastY = load<f64>(yPtr + (<usize>i << 3));
    lx = f64x2.splat(lastX);
    ly = f64x2.splat(lastY);
    i++;
  }
  for (; i < n; i++) {
    const x = load<f64>(xPtr + (<usize>i << 3));
    const y = load<f64>(yPtr + (<usize>i << 3));
    const dx = x - lastX;
    const dy = y - lastY;
    if (dx * dx + dy * dy >= limit) {
      store<i32>(out + (<usize>kept << 2), base + i);
      kept++;
      lastX = x;
      lastY = y;
    }
  }
  return kept;
}

export function gatherF64(src: usize, indices: usize, count: i32, out: usize): void {
  for (let k = 0; k < count; k++) {
    const i = <usize>load<i32>(indices + (<usize>k << 2));
    store<f64>(out + (<usize>k << 3), load<f64>(src + (i << 3)));
  }
}

export function gatherF32(src: usize, indices: usize, count: i32, out: usize): void {
  for (let k = 0; k < count; k++) {
    const i = <usize>load<i32>(indices + (<usize>k << 2));
    store<f32>(out + (<usize>k << 2), <f32>load<f64>(src + (i << 3)));
  }
}

// ---- the resident time index (one per instance; built by JS's loadPath) ----
// Sorted times are cut into equal-width time buckets; bucketStart[b] is the first point whose bucket
// is ≥ b. The bucket of a time brackets its answer. Buckets hold about 64 points, so the table
// (n/16 bytes) stays in the L2 cache and a query's first dependent read is not a cache miss; inside
// the bracket the search starts where the time falls between the bucket's edges and gallops from
// there, so evenly spread times take one cache line of times. Skewed times gallop further inside
// the bucket: never worse than O(log n).

// The index's own copy of the points, one 16-byte record each: f64 t at 0, then the display
// coordinates as f32 x at 8 and y at 12 (the precision the drawn path has: LoadedPath.kept is
// Float32). A query's answer then lies in the cache lines its search reads, instead of in two
// more columns, each a further cache miss (and page walk) at 10^7 points; and it takes 16 bytes
// a point where the t, x and y columns took 24, so JS frees those once the index is built.
const RECORD_BYTES: usize = 16;
let indexRecords: usize = 0;
let indexCount: i32 = 0;
// Which points the thinning kept, per block of 64 positions: a u64 bit map (bit j = position
// 64·block + j) and, 8 bytes on, a u32 count of kept points before the block; 16 bytes a block,
// so one read of one cache line gives a query's draw count (a u32 a point would be 16× larger).
let keptBlocks: usize = 0;
let bucketStart: usize = 0; // u32 × (buckets + 1)
let bucketCount: i32 = 0;
let bucketOrigin: f64 = 0;
let bucketsPerSecond: f64 = 0;
// A query's answer, read by JS through one cached view (no extra calls per query):
// f64 nearest t, x, y at 0, 8, 16; i32 nearest position at 24; i32 draw count at 28.
const QUERY_RESULT = memory.data(32, 8);

// @ts-ignore: decorator
@inline
function timeAt(i: i32): f64 {
  return load<f64>(indexRecords + <usize>i * RECORD_BYTES);
}

// @ts-ignore: decorator
@inline
function bucketOf(t: f64): i32 {
  // Monotone in t (subtraction and scaling round monotonically): the bracketing argument relies on it.
  const b = <i32>((t - bucketOrigin) * bucketsPerSecond);
  return b < 0 ? 0 : b >= bucketCount ? bucketCount - 1 : b;
}

// @ts-ignore: decorator
@inline
function bucketAt(b: i32): i32 {
  return load<i32>(bucketStart + (<usize>b << 2));
}

export function timeIndexRelease(): void {
  freeBytes(keptBlocks);
  freeBytes(bucketStart);
  freeBytes(indexRecords);
  keptBlocks = 0;
  bucketStart = 0;
  indexRecords = 0;
  indexCount = 0;
  bucketCount = 0;
}

/**
 * Indexes sorted times t[0..n) whose thinning kept `kept[0..keptCount)` (ascending indices), with
 * the display coordinates x and y queries report. The index copies what it needs: t, x and y may
 * be freed once this returns.
 */
export function timeIndexBuild(
  tPtr: usize,
  xPtr: usize,
  yPtr: usize,
  n: i32,
  kept: usize,
  keptCount: i32,
): void {
  timeIndexRelease();
  indexCount = n;
  if (n == 0) return;
  indexRecords = heap.alloc(<usize>n * RECORD_BYTES);
  for (let i: usize = 0; i < <usize>n; i++) {
    const record = indexRecords + i * RECORD_BYTES;
    store<f64>(record, load<f64>(tPtr + (i << 3)));
    store<f32>(record, <f32>load<f64>(xPtr + (i << 3)), 8);
    store<f32>(record, <f32>load<f64>(yPtr + (i << 3)), 12);
  }
  const blocks = (<usize>n + 63) >> 6;
  keptBlocks = heap.alloc(blocks << 4);
  memory.fill(keptBlocks, 0, blocks << 4);
  for (let k = 0; k < keptCount; k++) {
    const i = <usize>load<i32>(kept + (<usize>k << 2));
    const at = keptBlocks + ((i >> 6) << 4);
    store<u64>(at, load<u64>(at) | (<u64>1 << <u64>(i & 63)));
  }
  let before: u32 = 0;
  for (let b: usize = 0; b < blocks; b++) {
    const at = keptBlocks + (b << 4);
    store<u32>(at, before, 8);
    before += <u32>popcnt(load<u64>(at));
  }
  bucketCount = max(1, n >> 6);
  bucketStart = heap.alloc(<usize>(bucketCount + 1) << 2);
  bucketOrigin = timeAt(0);
  const span = timeAt(n - 1) - bucketOrigin;
  bucketsPerSecond = span > 0 ? <f64>bucketCount / span : 0;
  if (!isFinite(bucketsPerSecond)) bucketsPerSecond = 0; // a span too small to divide by: one bucket
  let i = 0;
  for (let b = 0; b < bucketCount; b++) {
    while (i < n && bucketOf(timeAt(i)) < b) i++;
    store<i32>(bucketStart + (<usize>b << 2), i);
  }
  store<i32>(bucketStart + (<usize>bucketCount << 2), n);
}

/**
 * Number of times ≤ time, searching only inside bucket b's bracket [lo, hi): from the position
 * where `time` falls between the bucket's edges, gallop up or down to the first time beyond it.
 */
function countUpTo(time: f64, b: i32, lo: i32, hi: i32): i32 {
  if (lo >= hi) return lo;
  const within = (time - bucketOrigin) * bucketsPerSecond - <f64>b;
  let guess = lo;
  if (within >= 1) guess = hi - 1;
  else if (within > 0) guess = lo + <i32>(within * <f64>(hi - lo));
  // Times below `low` are ≤ time, times from `high` on are beyond it.
  let low = lo;
  let high = hi;
  let step = 1;
  if (timeAt(guess) <= time) {
    low = guess + 1;
    let probe = low;
    while (probe < high && timeAt(probe) <= time) {
      low = probe + 1;
      probe = low + step;
      step <<= 1;
    }
    if (probe < high) high = probe;
  } else {
    high = guess;
    let probe = high - 1;
    while (probe >= low && timeAt(probe) > time) {
      high = probe;
      probe = high - 1 - step;
      step <<= 1;
    }
    if (probe >= low) low = probe + 1;
  }
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (timeAt(mid) <= time) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** First position holding the same time as position i (ties → the earlier point). */
function firstOfRun(i: i32): i32 {
  const t = timeAt(i);
  if (i == 0 || timeAt(i - 1) != t) return i;
  let lo = bucketAt(bucketOf(t));
  let hi = i;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (timeAt(mid) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of kept points at positions ≤ i. */
// @ts-ignore: decorator
@inline
function keptUpTo(i: i32): i32 {
  const at = keptBlocks + ((<usize>i >> 6) << 4);
  // Shifting out the bits above position i leaves those at or below it.
  const bits = load<u64>(at) << <u64>(63 - (i & 63));
  return <i32>load<u32>(at, 8) + <i32>popcnt(bits);
}

/** Where timeQuery leaves its answer (layout at QUERY_RESULT). */
export function timeQueryResult(): usize {
  return QUERY_RESULT;
}

/** Position of the point nearest `time` (−1 without points): earlier on equal distance. */
function nearestTo(time: f64): i32 {
  const n = indexCount;
  if (n == 0) {
    store<i32>(QUERY_RESULT, 0, 28);
    return -1;
  }
  let upTo: i32;
  if (!(time >= timeAt(0))) upTo = 0;
  else if (time >= timeAt(n - 1)) upTo = n;
  else {
    const b = bucketOf(time);
    upTo = countUpTo(time, b, bucketAt(b), bucketAt(b + 1));
  }
  const drawCount = upTo > 0 ? keptUpTo(upTo - 1) : 0;
  store<i32>(QUERY_RESULT, drawCount, 28);
  if (upTo == 0) return 0;
  if (upTo == n) return firstOfRun(n - 1);
  return time - timeAt(upTo - 1) <= timeAt(upTo) - time ? firstOfRun(upTo - 1) : upTo;
}

/**
 * Scrub query: the point nearest `time` and the number of kept points with t ≤ time, left at
 * timeQueryResult(). Returns the nearest position (−1 without points).
 */
export function timeQuery(time: f64): i32 {
  const nearest = nearestTo(time);
  const record = indexRecords + <usize>max(nearest, 0) * RECORD_BYTES;
  const none = nearest < 0;
  store<f64>(QUERY_RESULT, none ? NaN : load<f64>(record));
  store<f64>(QUERY_RESULT, none ? NaN : <f64>load<f32>(record, 8), 8);
  store<f64>(QUERY_RESULT, none ? NaN : <f64>load<f32>(record, 12), 16);
  store<i32>(QUERY_RESULT, nearest, 24);
  return nearest;
}
