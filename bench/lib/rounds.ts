// Alternating measurement rounds: every round runs each contender once, in an order rotated by
// one per round, so drift (thermal, other processes, GC debt) spreads evenly over contenders.
import { type Spread, spread } from './stats.ts';

export interface Contender {
  name: string;
  /** One call of the measured work; its result is kept so nothing is optimised away. */
  run: () => unknown;
  /** Untimed set-up before every call (e.g. restoring inputs an in-place kernel overwrote). */
  prepare?: () => void;
}

export interface Measured {
  /** The very first call, before any warm-up (includes lazy compilation and tier-up). */
  firstMs: number;
  /** Per-call milliseconds, one sample per round. */
  samplesMs: number[];
}

/** Where results go so that the computation producing them cannot be dropped as dead. */
export let sink: unknown;

function keep(value: unknown): void {
  sink = value;
}

function collectGarbage(): void {
  // `node --expose-gc` (npm run bench) provides gc(); without it GC just runs when it runs.
  (globalThis as { gc?: () => void }).gc?.();
}

/** Mean milliseconds per call over `repeats` calls. */
function time(c: Contender, repeats: number): number {
  if (!c.prepare) {
    const start = performance.now();
    for (let i = 0; i < repeats; i++) keep(c.run());
    return (performance.now() - start) / repeats;
  }
  let total = 0;
  for (let i = 0; i < repeats; i++) {
    c.prepare();
    const start = performance.now();
    keep(c.run());
    total += performance.now() - start;
  }
  return total / repeats;
}

/**
 * Runs the contenders for `rounds` rounds. Calls shorter than `minSampleMs` are repeated within
 * a sample (the same count for every round of that contender) so timer resolution never matters.
 */
export function alternate(
  contenders: readonly Contender[],
  rounds: number,
  minSampleMs = 20,
): Map<string, Measured> {
  const results = new Map<string, Measured>();
  const repeats = new Map<string, number>();
  for (const c of contenders) {
    collectGarbage();
    const firstMs = time(c, 1);
    // One warm-up call, which also sizes the repeat count; a first call of a second or more has
    // warmed the code up by itself (and a second one would only lengthen the run).
    const warm = firstMs >= 1000 ? firstMs : time(c, 1);
    repeats.set(c.name, Math.max(1, Math.ceil(minSampleMs / Math.max(warm, 1e-6))));
    results.set(c.name, { firstMs, samplesMs: [] });
  }
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < contenders.length; k++) {
      const c = contenders[(r + k) % contenders.length]!;
      collectGarbage();
      results.get(c.name)!.samplesMs.push(time(c, repeats.get(c.name)!));
    }
  }
  return results;
}

/** Spread of the per-round ratios slow[r] / fast[r] (how many times faster `fast` was). */
export function ratioSpread(slow: Measured, fast: Measured): Spread {
  return spread(slow.samplesMs.map((s, r) => s / fast.samplesMs[r]!));
}
