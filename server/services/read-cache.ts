// A small in-process cache for expensive list reads (GET /api/videos). Correct only when this
// process is the database's sole writer, which the PGlite lock guarantees; with PostgreSQL
// (possibly several processes) it is not used.
//
// Every write to the API is a non-GET request: the generation is bumped when such a request
// starts and again when its response is sent (after its transaction committed). An entry is valid
// only while the generation it was read under is current, so no read that overlapped a write
// survives it.
export class ReadCache<T> {
  private generation = 0;
  private readonly entries = new Map<string, { generation: number; value: T }>();

  constructor(private readonly maxEntries = 500) {}

  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  async get(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.generation === this.generation) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) {
      if (this.entries.size >= this.maxEntries) {
        // Map keeps insertion order: drop the oldest entry.
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      this.entries.set(key, { generation, value });
    }
    return value;
  }
}
