/**
 * Seeded PRNG (sfc32, 128-bit state) so every run benchmarks byte-identical inputs.
 * Math.random cannot be seeded, and results across runs are only comparable on equal data.
 */
export function createPrng(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // Discard the first outputs: sfc32 needs a few rounds to mix a low-entropy seed.
  for (let i = 0; i < 16; i++) next();
  return next;
}
