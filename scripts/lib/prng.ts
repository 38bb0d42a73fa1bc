// Seeded PRNG (mulberry32): the demo generator must write the same bytes on every run, so every
// random choice draws from one of these instead of Math.random.
export class Prng {
  private state: number;

  constructor(seed: number) {
    if (!Number.isInteger(seed)) throw new Error(`Prng seed must be an integer, got ${seed}`);
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }
}
