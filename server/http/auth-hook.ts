// Authentication and role checks for every /api route, driven by the route's `config.access`.
// Runs on onRequest, before body validation, so an anonymous caller learns nothing about schemas.
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RefusalSubject } from '../audit/refusals.ts';
import type { SessionRef, VerifiedToken } from '../auth/token.ts';
import type { AuthUser, SessionRow } from '../context.ts';
import { revokedSessions, users } from '../db/schema.ts';
import { isApiKey, verifyApiKey } from '../services/api-keys.ts';
import { conflict, HttpError } from './errors.ts';

export const MEDIA_COOKIE = 'lc_media';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified token of this request (bearer or media), once the auth hook has run. */
    session: VerifiedToken | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? null;
}

/** The value of the request's cookie of this name, or null. */
export function cookieValue(request: FastifyRequest, cookie: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === cookie) return value.join('=') || null;
  }
  return null;
}

export const mediaCookieToken = (request: FastifyRequest) => cookieValue(request, MEDIA_COOKIE);

/** Every cookie of the API's: sent to /api only, never to scripts or other sites. */
export const cookieAttributes = (request: FastifyRequest, maxAge: number) =>
  `Path=/api; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${request.protocol === 'https' ? '; Secure' : ''}`;

/**
 * Sets the httpOnly, SameSite=Strict media cookie: a short-lived token of the same session that
 * only GET routes marked `media` accept, so it can neither act as the bearer token nor change
 * anything if a cross-site request carried it.
 */
export async function setMediaCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  user: { id: string; tokenVersion: number },
  session: SessionRef,
): Promise<void> {
  const { tokens, config } = request.server.ctx;
  const token = await tokens.signMedia({ ...user, name: '', email: '', roles: [] }, session);
  reply.header(
    'set-cookie',
    `${MEDIA_COOKIE}=${token}; ${cookieAttributes(request, config.mediaTokenTtlSeconds)}`,
  );
}

export function clearMediaCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', `${MEDIA_COOKIE}=; ${cookieAttributes(request, 0)}`);
}

/** The user of a token and whether its session was revoked, in one query. */
async function loadSession(app: FastifyInstance, token: VerifiedToken): Promise<SessionRow | null> {
  const load = async () => {
    const [found] = await app.ctx.db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        roles: users.roles,
        passwordSetBy: users.passwordSetBy,
        tokenVersion: users.tokenVersion,
        status: users.status,
        revoked: sql<boolean>`exists(select from ${revokedSessions} where ${and(
          eq(revokedSessions.sessionId, token.sessionId),
          eq(revokedSessions.userId, users.id),
        )})`,
      })
      .from(users)
      .where(eq(users.id, token.id));
    return found ?? null;
  };
  const caches = app.ctx.caches;
  return caches ? caches.users.get(`${token.id} ${token.sessionId}`, load) : load();
}

export function registerAuthHook(app: FastifyInstance): void {
  app.decorateRequest('user', null);
  app.decorateRequest('session', null);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api') && route.config?.access === undefined) {
      throw new Error(`Route ${route.method} ${route.url} declares no access rule`);
    }
  });
  app.addHook('onRequest', async (request, reply) => {
    const { access, media } = request.routeOptions.config;
    if (access === undefined || access === 'public') return;
    // The bearer token wherever it is sent; the media token only from the cookie of a media route.
    const bearer = bearerToken(request);
    if (bearer && isApiKey(bearer)) {
      // A service account acts only on routes that name the 'service' role.
      request.user = await verifyApiKey(app.ctx.db, bearer);
      if (access === 'authenticated' || !access.includes('service')) {
        await denied(request, 'service accounts may only post analysis results');
      }
      return;
    }
    const cookie = bearer || !media ? null : mediaCookieToken(request);
    if (!bearer && !cookie) throw new HttpError(401, 'Authentication required');
    const verified = bearer
      ? await app.ctx.tokens.verify(bearer, 'api')
      : await app.ctx.tokens.verify(cookie as string, 'media');
    if (!verified) throw new HttpError(401, 'Invalid or expired token');
    const row = await loadSession(app, verified);
    // A changed password, email or roles, a deactivated or deleted user, or a logout revokes
    // every older token.
    if (
      !row ||
      row.tokenVersion !== verified.tokenVersion ||
      row.status !== 'active' ||
      row.revoked
    ) {
      throw new HttpError(401, 'Session is no longer valid; please log in again');
    }
    const user: AuthUser = {
      id: row.id,
      name: row.name,
      email: row.email,
      roles: row.roles,
      ownPassword: row.passwordSetBy === null,
    };
    request.user = user;
    request.session = verified;
    if (bearer) await keepMediaCookieFresh(request, reply, row, verified);
    if (access !== 'authenticated' && !user.roles.some((role) => access.includes(role))) {
      await denied(request, `role required: ${access.join(' or ')}`);
    }
    if (!user.ownPassword && !request.routeOptions.config.beforeOwnPassword) {
      throw new HttpError(403, SET_OWN_PASSWORD_FIRST);
    }
  });
}

/**
 * The answer to a user whose password someone else chose (users.password_set_by: a manager's, or
 * the deployment's for the first admin) on every route but those marked `beforeOwnPassword`
 * (GET /api/me, POST /api/change-password, POST /api/session/renew; logging out is public). The
 * plant-wide default a new account starts with would otherwise let anyone who knows it record
 * inspections as that user (21 CFR 11.10(d), 11.300). Not audited: the call is one its roles allow
 * (a role refusal, checked first, is), the state is in the trail already (the create or reset
 * entry, each login), and a page loading in a client that ignores `ownPassword` would write a
 * refusal for each of its calls.
 * Service accounts (API keys: not people) are answered above and never reach it.
 */
export const SET_OWN_PASSWORD_FIRST =
  'Set your own password first: your password was chosen by someone else or has expired (POST /api/change-password; the app asks for it at sign-in)';

/**
 * A browser's API call (Sec-Fetch-Site: same-origin) renews the media cookie when it is missing,
 * of another session or past half its life, so <video> and <img> keep working through a shift
 * while the cookie itself stays short-lived. Other clients never use the cookie and get none.
 */
async function keepMediaCookieFresh(
  request: FastifyRequest,
  reply: FastifyReply,
  user: { id: string; tokenVersion: number },
  session: VerifiedToken,
): Promise<void> {
  if (request.headers['sec-fetch-site'] !== 'same-origin') return;
  const current = mediaCookieToken(request);
  const media = current ? await request.server.ctx.tokens.verify(current, 'media') : null;
  const fresh =
    media !== null &&
    media.sessionId === session.sessionId &&
    media.tokenVersion === user.tokenVersion &&
    media.expiresAt - Date.now() > (media.expiresAt - media.issuedAt) / 2;
  if (!fresh) await setMediaCookie(request, reply, user, session);
}

/** Records the refusal in the audit log (repeats merged) and answers 403 (generic unless the caller should read why). */
export async function denied(
  request: FastifyRequest,
  reason: string,
  answer = 'You do not have permission for this action',
): Promise<never> {
  await request.server.ctx.refusals.record(request, reason);
  throw new HttpError(403, answer);
}

/**
 * Records a refused change that would lose a record's evidence (a deletion of what records name)
 * under that object, repeats merged, and answers it as a 409 with `message`.
 */
export async function evidenceProtected(
  request: FastifyRequest,
  subject: RefusalSubject,
  message: string,
): Promise<never> {
  await request.server.ctx.refusals.record(request, message, 'evidence.protected', subject);
  throw conflict(message);
}

/** The logged-in user of a route whose access rule requires one. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new HttpError(401, 'Authentication required');
  return request.user;
}

/** The session of the request's verified token (routes whose access requires a login). */
export function currentSession(request: FastifyRequest): VerifiedToken {
  if (!request.session) throw new HttpError(401, 'Authentication required');
  return request.session;
}
