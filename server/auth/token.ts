// Login tokens: JWT signed with HS256 only (the verifier's algorithm allow-list rejects `none`
// and every other algorithm). `tv` is the user's token version: bumping it revokes old tokens.
// `sid` names the sign-in session (logout revokes it); `aud` tells the bearer token ('api') from
// the short-lived media token ('media') that only media routes accept.
import { randomBytes, webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Role } from '../schemas/common.ts';

export interface TokenUser {
  id: string;
  name: string;
  email: string;
  roles: Role[];
  tokenVersion: number;
}

export type TokenKind = 'api' | 'media';

export interface VerifiedToken {
  id: string;
  tokenVersion: number;
  sessionId: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** Milliseconds since the epoch. */
  issuedAt: number;
}

export interface TokenService {
  /** A bearer token for a session (a new one when `sessionId` is absent). */
  sign(user: TokenUser, sessionId?: string): Promise<string>;
  /** A media-only token of the same session, valid for `mediaTtlSeconds`. */
  signMedia(user: TokenUser, sessionId: string): Promise<string>;
  /**
   * Null for any token that is malformed, expired, wrongly signed, of another algorithm or of the
   * other kind.
   */
  verify(token: string, kind?: TokenKind): Promise<VerifiedToken | null>;
}

export const newSessionId = () => randomBytes(12).toString('base64url');

const ISSUER = 'line-clearance';

/** Verified tokens remembered (a client sends the same token for a whole shift). */
const VERIFIED_CACHE_SIZE = 1000;

export function createTokenService(
  secret: Uint8Array,
  ttlSeconds: number,
  mediaTtlSeconds = 15 * 60,
): TokenService {
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
  const verified = new Map<string, { token: VerifiedToken; kind: TokenKind }>();
  const signed = async (claims: Record<string, unknown>, kind: TokenKind, seconds: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.id as string)
      .setIssuer(ISSUER)
      .setAudience(kind)
      .setIssuedAt()
      .setExpirationTime(`${seconds}s`)
      .sign(await key());
  return {
    sign(user, sessionId = newSessionId()) {
      const { id, name, email, roles, tokenVersion: tv } = user;
      return signed({ id, name, email, roles, tv, sid: sessionId }, 'api', ttlSeconds);
    },
    signMedia(user, sessionId) {
      return signed(
        { id: user.id, tv: user.tokenVersion, sid: sessionId },
        'media',
        mediaTtlSeconds,
      );
    },
    async verify(token, kind = 'api') {
      // A token's signature and claims never change, only the clock moves: a token verified once
      // is remembered with its expiry. Revocation is the caller's check (token version against
      // the user row, the session against the revoked ones), so caching the signature check does
      // not delay it.
      const known = verified.get(token);
      if (known) {
        if (Date.now() < known.token.expiresAt) return known.kind === kind ? known.token : null;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, await key(), {
          algorithms: ['HS256'],
          issuer: ISSUER,
          requiredClaims: ['sub', 'exp', 'iat', 'aud'],
        });
        const aud = payload.aud;
        if (
          typeof payload.sub !== 'string' ||
          typeof payload.tv !== 'number' ||
          typeof payload.sid !== 'string' ||
          (aud !== 'api' && aud !== 'media')
        ) {
          return null;
        }
        // jwtVerify required `exp` and `iat` (seconds).
        const result: VerifiedToken = {
          id: payload.sub,
          tokenVersion: payload.tv,
          sessionId: payload.sid,
          expiresAt: (payload.exp ?? 0) * 1000,
          issuedAt: (payload.iat ?? 0) * 1000,
        };
        if (verified.size >= VERIFIED_CACHE_SIZE) {
          // Map keeps insertion order: forget the oldest.
          const oldest = verified.keys().next().value;
          if (oldest !== undefined) verified.delete(oldest);
        }
        verified.set(token, { token: result, kind: aud });
        return aud === kind ? result : null;
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
        throw error;
      }
    },
  };
}
