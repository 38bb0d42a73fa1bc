// A file arriving in chunks (the path worker reads a download's body piece by piece, so it never
// holds the file twice), collected into one growing buffer.

const DEFAULT_CAPACITY = 1 << 20;

export class ByteCollector {
  private bytes: Uint8Array;
  private length = 0;

  /** `expectedBytes` (e.g. Content-Length) sizes the buffer up front; 0 when unknown. */
  constructor(expectedBytes: number) {
    if (!Number.isInteger(expectedBytes) || expectedBytes < 0) {
      throw new RangeError(
        `ByteCollector: expectedBytes must be an integer ≥ 0, got ${expectedBytes}`,
      );
    }
    this.bytes = new Uint8Array(expectedBytes || DEFAULT_CAPACITY);
  }

  append(chunk: Uint8Array): void {
    if (!(chunk instanceof Uint8Array))
      throw new TypeError('ByteCollector: a chunk must be a Uint8Array');
    const needed = this.length + chunk.length;
    if (needed > this.bytes.length) {
      // A wrong or missing expected size: grow by doubling, so the copies stay linear overall.
      const grown = new Uint8Array(Math.max(needed, 2 * this.bytes.length));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(chunk, this.length);
    this.length = needed;
  }

  /** The bytes so far, as a view (no copy). */
  take(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}
