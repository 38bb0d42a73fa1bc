// scrypt password hashing (OWASP: N=2^17, r=8, p=1). Each hash takes ~128 MiB and ~0.5 s, so a
// small semaphore bounds how many run at once; the cost is stored in the hash so it can change.
// The wait is bounded too (503 beyond it), and sign-ins wait in their own lane, served first, so
// a flood of other password work cannot make signing in slow.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../http/errors.ts';
import { Turns } from '../http/turns.ts';

const R = 8;
const P = 1;
const KEY_LENGTH = 32;

/** Sign-ins go first; everything else (password changes, new users, e-signatures) after. */
export type HashLane = 'sign-in' | 'other';

export class HashQueueFullError extends HttpError {
  constructor() {
    super(503, 'The server is busy checking passwords; try again in a moment');
  }
}

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number) {
  const N = 2 ** log2N;
  return new Promise<Buffer>((resolve, reject) => {
    // maxmem must exceed 128 * N * r bytes (128 MiB at OWASP cost).
    scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export interface PasswordHasher {
  /** Rejects with HashQueueFullError (503) when the lane's queue is full. */
  hash(password: string, lane?: HashLane): Promise<string>;
  verify(password: string, stored: string, lane?: HashLane): Promise<boolean>;
}

/** Hash format: `scrypt$<log2N>$<r>$<p>$<salt b64>$<key b64>`. */
export function createPasswordHasher(
  log2N: number,
  concurrency: number,
  maxWaiting = 32,
): PasswordHasher {
  // A shift change signs in many people at once: sign-ins may queue four times as many.
  const gate = new Turns<HashLane>(
    concurrency,
    { 'sign-in': 4 * maxWaiting, other: maxWaiting },
    () => new HashQueueFullError(),
  );
  return {
    async hash(password, lane = 'other') {
      const salt = randomBytes(16);
      const key = await gate.run(lane, () => derive(password, salt, log2N, R, P));
      return `scrypt$${log2N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
    },
    async verify(password, stored, lane = 'other') {
      const [scheme, n, r, p, salt, key] = stored.split('$');
      if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
      const expected = Buffer.from(key, 'base64');
      const actual = await gate.run(lane, () =>
        derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p)),
      );
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}
