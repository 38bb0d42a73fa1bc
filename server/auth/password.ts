// scrypt password hashing (OWASP: N=2^17, r=8, p=1). Each hash takes ~128 MiB and ~0.5 s, so a
// small semaphore bounds how many run at once; the cost is stored in the hash so it can change.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const R = 8;
const P = 1;
const KEY_LENGTH = 32;

class Semaphore {
  private waiting: (() => void)[] = [];
  private active = 0;
  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
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
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}

/** Hash format: `scrypt$<log2N>$<r>$<p>$<salt b64>$<key b64>`. */
export function createPasswordHasher(log2N: number, concurrency: number): PasswordHasher {
  const gate = new Semaphore(concurrency);
  return {
    async hash(password) {
      const salt = randomBytes(16);
      const key = await gate.run(() => derive(password, salt, log2N, R, P));
      return `scrypt$${log2N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
    },
    async verify(password, stored) {
      const [scheme, n, r, p, salt, key] = stored.split('$');
      if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
      const expected = Buffer.from(key, 'base64');
      const actual = await gate.run(() =>
        derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p)),
      );
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}
