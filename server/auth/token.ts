// Login tokens: JWT signed with HS256 only (the verifier's algorithm allow-list rejects `none`
// and every other algorithm). `tv` is the user's token version: bumping it revokes old tokens.
// `sid` names the sign-in session (logout revokes it) and `ss` its start (seconds): no token of a
// session outlives the session's absolute life from its sign-in. `aud` tells the bearer token
// ('api') from the short-lived media token ('media') that only media routes accept. A bearer token
// lives only the idle limit: the app renews it while its user is active (docs/server.md,
// Authentication), so sessions stay stateless and several API processes agree on them.
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

/** A sign-in session: its id and when it began. */
export interface SessionRef {
  sessionId: string;
  /** Milliseconds since the epoch, in whole seconds (the token carries seconds). */
  sessionStart: number;
}

export interface VerifiedToken extends SessionRef {
  id: string;
  tokenVersion: number;
  /**
   * Milliseconds since the epoch: the earliest of the token's `exp`, its issue plus its kind's
   * life as configured now, and the session's absolute end.
   */
  expiresAt: number;
  /** Milliseconds since the epoch. */
  issuedAt: number;
}

export interface TokenLifetimes {
  /** A session's absolute life from its sign-in (TOKEN_TTL_SECONDS). */
  sessionSeconds: number;
  /** A bearer token's life from its issue, the idle limit (SESSION_IDLE_MINUTES). */
  idleSeconds?: number;
  /** A media token's life from its issue (MEDIA_TOKEN_TTL_SECONDS). */
  mediaSeconds?: number;
}

export interface TokenService {
  /** A bearer token of a session (a new session when none is given), living the idle limit. */
  sign(user: TokenUser, session?: SessionRef): Promise<string>;
  /** A media-only token of the same session, valid for the media life. */
  signMedia(user: TokenUser, session: SessionRef): Promise<string>;
  /**
   * Null for any token that is malformed, expired, wrongly signed, of another algorithm or of the
   * other kind. `graceSeconds` accepts one that ran out less than that long ago (logout only).
   */
  verify(token: string, kind?: TokenKind, graceSeconds?: number): Promise<VerifiedToken | null>;
}

/** A new sign-in session, starting now. */
export const newSession = (): SessionRef => ({
  sessionId: randomBytes(12).toString('base64url'),
  sessionStart: Math.floor(Date.now() / 1000) * 1000,
});

const ISSUER = 'line-clearance';

/** Verified tokens remembered (a client sends the same token for a whole shift). */
const VERIFIED_CACHE_SIZE = 1000;

export function createTokenService(
  secret: Uint8Array,
  { sessionSeconds, idleSeconds = sessionSeconds, mediaSeconds = 15 * 60 }: TokenLifetimes,
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
  const lifeOf = { api: idleSeconds, media: mediaSeconds };
  const verified = new Map<string, { token: VerifiedToken; kind: TokenKind }>();
  const signed = async (claims: Record<string, unknown>, kind: TokenKind, session: SessionRef) => {
    const issuedAt = Math.floor(Date.now() / 1000);
    const sessionEnd = session.sessionStart / 1000 + sessionSeconds;
    return new SignJWT({ ...claims, sid: session.sessionId, ss: session.sessionStart / 1000 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.id as string)
      .setIssuer(ISSUER)
      .setAudience(kind)
      .setIssuedAt(issuedAt)
      .setExpirationTime(Math.min(issuedAt + lifeOf[kind], sessionEnd))
      .sign(await key());
  };

  /** The token's claims once its signature and form are checked, whatever its expiry. */
  const read = async (
    token: string,
    graceSeconds: number,
  ): Promise<{ token: VerifiedToken; kind: TokenKind } | null> => {
    try {
      const { payload } = await jwtVerify(token, await key(), {
        algorithms: ['HS256'],
        issuer: ISSUER,
        requiredClaims: ['sub', 'exp', 'iat', 'aud'],
        clockTolerance: graceSeconds,
      });
      const aud = payload.aud;
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.tv !== 'number' ||
        typeof payload.sid !== 'string' ||
        (payload.ss !== undefined && typeof payload.ss !== 'number') ||
        (aud !== 'api' && aud !== 'media')
      ) {
        return null;
      }
      // jwtVerify required `exp` and `iat` (seconds). A token signed before sessions carried their
      // start counts its session from its own issue.
      const issuedAt = (payload.iat ?? 0) * 1000;
      const sessionStart = typeof payload.ss === 'number' ? payload.ss * 1000 : issuedAt;
      const result: VerifiedToken = {
        id: payload.sub,
        tokenVersion: payload.tv,
        sessionId: payload.sid,
        sessionStart,
        // The configured lives apply to tokens signed before a change too (a shorter idle limit
        // holds from the restart on).
        expiresAt: Math.min(
          (payload.exp ?? 0) * 1000,
          issuedAt + lifeOf[aud] * 1000,
          sessionStart + sessionSeconds * 1000,
        ),
        issuedAt,
      };
      return { token: result, kind: aud };
    } catch (error) {
      if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
      throw error;
    }
  };

  const remember = (token: string, entry: { token: VerifiedToken; kind: TokenKind }) => {
    if (verified.size >= VERIFIED_CACHE_SIZE) {
      // Map keeps insertion order: forget the oldest.
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
    verified.set(token, entry);
  };

  return {
    sign(user, session = newSession()) {
      const { id, name, email, roles, tokenVersion: tv } = user;
      return signed({ id, name, email, roles, tv }, 'api', session);
    },
    signMedia(user, session) {
      return signed({ id: user.id, tv: user.tokenVersion }, 'media', session);
    },
    async verify(token, kind = 'api', graceSeconds = 0) {
      // A token's signature and claims never change, only the clock moves: a token verified once
      // is remembered with its expiry. Revocation is the caller's check (token version against
      // the user row, the session against the revoked ones), so caching the signature check does
      // not delay it.
      const known = verified.get(token) ?? (await read(token, graceSeconds));
      if (!known) return null;
      if (!verified.has(token) && Date.now() < known.token.expiresAt) remember(token, known);
      const now = Date.now();
      if (now >= known.token.expiresAt) {
        verified.delete(token);
        if (now >= known.token.expiresAt + graceSeconds * 1000) return null;
      }
      return known.kind === kind ? known.token : null;
    },
  };
}
