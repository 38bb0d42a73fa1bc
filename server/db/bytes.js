// JavaScript for the PGlite worker, which Node loads without tsx (pglite-worker.js).

/**
 * The parts in one new buffer of exactly their size, whose ArrayBuffer can be transferred.
 * Buffer.concat is not a substitute: below 4 KiB it hands back a slice of Node's shared pool.
 * @param {Uint8Array[]} parts
 * @returns {Uint8Array<ArrayBuffer>}
 */
export function concatBytes(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
