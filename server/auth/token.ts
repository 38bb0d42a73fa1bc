// Login tokens: JWT signed with HS256 only (the verifier's algorithm allow-list rejects `none`
// and every other algorithm). `tv` is the user's token version: bumping it revokes old tokens.
import { webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Role } from '../schemas/common.ts';

export interface TokenUser {
  id: string;
  name: string;
  email: string;
  roles: Role[];
  tokenVersion: number;
}

export interface VerifiedToken {
  id: string;
  tokenVersion: number;
}

export interface TokenService {
  sign(user: TokenUser): Promise<string>;
  /** Null for any token that is malformed, expired, wrongly signed or of another algorithm. */
  verify(token: string): Promise<VerifiedToken | null>;
}

const ISSUER = 'line-clearance';

/** Verified tokens remembered (a client sends the same token for a whole shift). */
const VERIFIED_CACHE_SIZE = 1000;

export function createTokenService(secret: Uint8Array, ttlSeconds: number): TokenService {
  // Imported once: given the raw bytes, jose imports the key again on every sign and verify.
  let hmacKey: Promise<webcrypto.CryptoKey> | undefined;
  const key = () =>
    (hmacKey ??= webcrypto.subtle.importKey(
      'raw',
      secret,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    ));
  const verified = new Map<string, { token: VerifiedToken; expiresAt: number }>();
  return {
    async sign(user) {
      return new SignJWT({
        id: user.id,
        name: user.name,
        email: user.email,
        roles: user.roles,
        tv: user.tokenVersion,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(await key());
    },
    async verify(token) {
      // A token's signature and claims never change, only the clock moves: a token verified once
      // is remembered with its expiry. Revocation is the caller's check (token version against
      // the user row), so caching the signature check does not delay it.
      const known = verified.get(token);
      if (known) {
        if (Date.now() < known.expiresAt) return known.token;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, await key(), {
          algorithms: ['HS256'],
          issuer: ISSUER,
          requiredClaims: ['sub', 'exp', 'iat'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number') return null;
        const result = { id: payload.sub, tokenVersion: payload.tv };
        if (verified.size >= VERIFIED_CACHE_SIZE) {
          // Map keeps insertion order: forget the oldest.
          const oldest = verified.keys().next().value;
          if (oldest !== undefined) verified.delete(oldest);
        }
        // jwtVerify required `exp` (seconds).
        verified.set(token, { token: result, expiresAt: (payload.exp ?? 0) * 1000 });
        return result;
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
        throw error;
      }
    },
  };
}
