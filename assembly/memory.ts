// Raw, unmanaged buffers shared with JS. The GC never sees them: whoever allocates frees.
// Any function here may grow linear memory, so JS rebuilds its views after calling it.


export function allocBytes(bytes: usize): usize {
  // heap.alloc of 0 still returns a unique block, so callers never special-case empty inputs.
  return heap.alloc(bytes);
}

export function freeBytes(ptr: usize): void {
  if (ptr != 0) heap.free(ptr);
}

/** Capacity (in elements) to grow to so `needed` fit; doubling keeps appends amortised O(1). */
export function grownCapacity(capacity: i32, needed: i32): i32 {
  let next = capacity < 1024 ? 1024 : capacity;
  while (next < needed) next <<= 1;
  return next;
}

/** Resizes (or first allocates, when ptr is 0) a buffer of `elements` × `elementBytes`, keeping its contents. */
export function resizeBuffer(ptr: usize, elements: i32, elementBytes: i32): usize {
  const bytes = <usize>elements * <usize>elementBytes;
  return ptr == 0 ? heap.alloc(bytes) : heap.realloc(ptr, bytes);
}

// Bytes ahead of a streaming pass that touchAhead reads: 64 points of one f64 column, 8 cache
// lines. The fastest distance for mapping in place at 10^6 and 10^7 points (4 KiB was 10–20% slower).
const TOUCH_DISTANCE: usize = 512;

// Where touchAhead's words go: stored, so the loads cannot be dropped as unused. Nothing reads it.
let touchSink: i64 = 0;

/**
 * A software prefetch (WebAssembly has none) for a kernel streaming through two columns (x and
 * y): reads the word TOUCH_DISTANCE bytes past `offset` in each, or their last word near the end
 * (`end` ≥ 8 bytes), so the kernel's upcoming cache lines are on their way before it gets there.
 * On these machines the hardware prefetcher alone leaves such loops waiting on memory.
 */
// @ts-ignore: decorator
@inline
export function touchAhead(x: usize, y: usize, offset: usize, end: usize): void {
  const ahead = offset + TOUCH_DISTANCE;
  const at = ahead < end ? ahead : end - 8;
  touchSink = load<i64>(x + at) ^ load<i64>(y + at);
}
