// Shapes shared by the hashing worker (workers/sha256.worker.ts) and its owner
// (src/lib/capture/sha256-client.ts).

export interface Sha256WorkerApi {
  /** Starts a running SHA-256; answers its handle. */
  begin(): Promise<number>;
  /** Adds the next part, in order (a recorder chunk); answers the bytes hashed so far. */
  update(handle: number, part: Blob | ArrayBuffer): Promise<number>;
  /** The hex digest of everything added; the handle is released. */
  digest(handle: number): Promise<string>;
  /** Hashes parts start to end at once (a recording's stored chunks after a reload). */
  hashParts(parts: readonly Blob[]): Promise<string>;
}
