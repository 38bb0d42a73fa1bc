// A small in-process cache for expensive list reads (GET /api/videos). Correct only when this
// process is the database's sole writer, which the PGlite lock guarantees; with PostgreSQL
// (possibly several processes) it is not used.
//
// Every write to the API is a non-GET request: the generation is bumped when such a request
// starts and again when its response is sent (after its transaction committed). An entry is valid
// only while the generation it was read under is current, so no read that overlapped a write
// survives it.
//
// Bounded by entry count and, when given a size function, by bytes: keys come from request
// filters, so a client can ask for as many distinct entries as it likes.
export interface ReadCacheOptions<T> {
  maxEntries?: number;
  /** With `sizeOf`: the most bytes kept; the oldest entries go first. */
  maxBytes?: number;
  sizeOf?: (value: T) => number;
}

export class ReadCache<T> {
  private generation = 0;
  private readonly entries = new Map<string, { generation: number; value: T; size: number }>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly sizeOf: (value: T) => number;
  /** Bytes held by the entries (0 without a size function). */
  bytes = 0;

  constructor(options: ReadCacheOptions<T> = {}) {
    this.maxEntries = options.maxEntries ?? 500;
    this.maxBytes = options.sizeOf ? (options.maxBytes ?? Number.POSITIVE_INFINITY) : Infinity;
    this.sizeOf = options.sizeOf ?? (() => 0);
  }

  get size(): number {
    return this.entries.size;
  }

  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }

  async get(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.generation === this.generation) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) this.keep(key, generation, value);
    return value;
  }

  private keep(key: string, generation: number, value: T): void {
    const size = this.sizeOf(value);
    // A value bigger than the whole budget is answered, never kept.
    if (size > this.maxBytes) return;
    this.forget(key);
    // Map keeps insertion order: the oldest entries go first.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size < this.maxEntries && this.bytes + size <= this.maxBytes) break;
      this.forget(oldest);
    }
    this.entries.set(key, { generation, value, size });
    this.bytes += size;
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.size;
    this.entries.delete(key);
  }
}
