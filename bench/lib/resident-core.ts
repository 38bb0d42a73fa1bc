// The core's kernels on data already resident in its linear memory, as loadPath runs them: no
// copy in or out per call. The PathEngine API copies arrays across on every call, so the bench
// instantiates build/path-core.wasm itself and calls the flat exports (ABI: assembly/index.ts).
// Until the engine offers resident kernel calls, this is how the pipeline's kernels are timed.
import type { TransformExports } from '../../workers/transform-codec.ts';

/** The transform exports (typed by the codec) plus the two path kernels the bench calls. */
interface KernelExports extends TransformExports {
  thinGreedy(xPtr: number, yPtr: number, n: number, minDistance: number, out: number): number;
  scanTags(
    xPtr: number,
    yPtr: number,
    n: number,
    tags: number,
    tagCount: number,
    radius: number,
    flags: number,
  ): number;
}

/** Spec §4: within 0.1 of a tag, measured as distance / 100. */
const TAG_SCAN_RADIUS_PX = 10;

const KERNELS = [
  'memory',
  'alloc',
  'free',
  'thinGreedy',
  'scanTags',
  'transformMatrix',
  'transformMapClamp',
];

export class ResidentCore {
  private readonly core: KernelExports;

  constructor(module: WebAssembly.Module) {
    const exports = new WebAssembly.Instance(module, {}).exports;
    const missing = KERNELS.filter((name) => !(name in exports));
    if (missing.length > 0) {
      throw new Error(
        `build/path-core.wasm lacks ${missing.join(', ')}: rebuild with npm run build:wasm`,
      );
    }
    this.core = exports as unknown as KernelExports;
  }

  /** Copies values into a new buffer in linear memory; returns its address. */
  place(values: Float64Array): number {
    const ptr = this.core.alloc(values.byteLength) >>> 0;
    new Float64Array(this.core.memory.buffer, ptr, values.length).set(values);
    return ptr;
  }

  reserve(bytes: number): number {
    return this.core.alloc(bytes) >>> 0;
  }

  /** Restores a resident buffer from another one (memcpy inside linear memory). */
  copy(to: number, from: number, bytes: number): void {
    new Uint8Array(this.core.memory.buffer).copyWithin(to, from, from + bytes);
  }

  free(ptr: number): void {
    this.core.free(ptr);
  }

  thin(xPtr: number, yPtr: number, n: number, minDistance: number, out: number): number {
    return this.core.thinGreedy(xPtr, yPtr, n, minDistance, out);
  }

  scanTags(
    xPtr: number,
    yPtr: number,
    n: number,
    tagsPtr: number,
    tagCount: number,
    flags: number,
  ): number {
    return this.core.scanTags(xPtr, yPtr, n, tagsPtr, tagCount, TAG_SCAN_RADIUS_PX, flags);
  }

  /** Maps resident points in place: matrix written to the core's slot, then the kernel runs. */
  mapInPlace(
    matrix: readonly number[],
    xPtr: number,
    yPtr: number,
    n: number,
    image: { width: number; height: number },
  ): number {
    const slot = this.core.transformMatrix() >>> 0;
    new Float64Array(this.core.memory.buffer, slot, 9).set(matrix);
    return this.core.transformMapClamp(xPtr, yPtr, n, slot, 0, image.width, image.height);
  }

  /** A copy of n f64 values at ptr (for checking results, outside timed code). */
  read(ptr: number, n: number): Float64Array {
    return new Float64Array(this.core.memory.buffer, ptr, n).slice();
  }

  readI32(ptr: number, n: number): Int32Array {
    return new Int32Array(this.core.memory.buffer, ptr, n).slice();
  }
}
