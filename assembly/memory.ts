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
