import { describe, expect, it } from 'vitest';
import { runningSha256, sha256OfParts } from './sha256-client.ts';

/** Deterministic bytes (an LCG); the expected digests below were computed with node:crypto. */
function bytes(length: number, seed: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

const NODE_CRYPTO: [length: number, seed: number, sha256: string][] = [
  [0, 1, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  [1, 2, 'dabd3aff769f07eb2965401eb029974ebba3407afd02b26ddb564ea5f8efae72'],
  [65536 * 3 + 17, 3, 'f1f5c41b59e6e7081099fe8452fc446969c0cc633827a66f0a4a96a8235abe12'],
  [5 * 1024 * 1024 + 3, 4, '7736c5a374fc75d6416d30ca2ae3ec2f612615dc2c4d11fae29598fcd54b94f0'],
];

/** Splits into parts of uneven sizes, as a recorder hands them over. */
function parts(data: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer>[] {
  const out: Uint8Array<ArrayBuffer>[] = [];
  for (let start = 0, i = 0; start < data.length; i++) {
    const end = Math.min(data.length, start + 1 + ((i * 7919) % 300_000));
    out.push(data.slice(start, end));
    start = end;
  }
  return out;
}

describe('SHA-256 in the worker', () => {
  for (const [length, seed, expected] of NODE_CRYPTO) {
    it(`matches node:crypto for ${length} bytes, fed part by part (Blobs and buffers)`, async () => {
      const data = bytes(length, seed);
      const hash = await runningSha256();
      let fed = 0;
      for (const [i, part] of parts(data).entries()) {
        // Alternate Blobs (recorder chunks) and transferred buffers.
        fed = await hash.update(i % 2 === 0 ? new Blob([part]) : part.buffer);
      }
      expect(fed).toBe(length);
      expect(await hash.digest()).toBe(expected);
      expect(await sha256OfParts(parts(data).map((part) => new Blob([part])))).toBe(expected);
    });
  }

  it('keeps the order of parts that are read at different speeds', async () => {
    const data = bytes(300_000, 9);
    const hash = await runningSha256();
    // Not awaited one by one: the worker must still hash them in the order given.
    const updates = parts(data).map((part, i) =>
      hash.update(i % 3 === 0 ? new Blob([part, new Uint8Array(0)]) : new Blob([part])),
    );
    await Promise.all(updates);
    const reference = await crypto.subtle.digest('SHA-256', data);
    const hex = [...new Uint8Array(reference)].map((b) => b.toString(16).padStart(2, '0')).join('');
    expect(await hash.digest()).toBe(hex);
  });
});
