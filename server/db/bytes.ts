/**
 * The parts in one new buffer of exactly their size, whose ArrayBuffer can be transferred.
 * Buffer.concat is not a substitute: below 4 KiB it hands back a slice of Node's shared pool.
 */
export function concatBytes(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
