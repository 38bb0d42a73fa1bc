// Authentication and role checks for every /api route, driven by the route's `config.access`.
// Runs on onRequest, before body validation, so an anonymous caller learns nothing about schemas.
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { audit } from '../audit/audit.ts';
import type { AuthUser } from '../context.ts';
import { users } from '../db/schema.ts';
import { isApiKey, verifyApiKey } from '../services/api-keys.ts';
import { HttpError } from './errors.ts';

export const MEDIA_COOKIE = 'lc_media';

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? null;
}

function cookieToken(request: FastifyRequest): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === MEDIA_COOKIE) return value.join('=') || null;
  }
  return null;
}

/**
 * Sets the httpOnly, SameSite=Strict media cookie holding the login token. Only GET routes marked
 * `media` accept it, so a forged cross-site request cannot change anything with it.
 */
export function setMediaCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  const maxAge = request.server.ctx.config.tokenTtlSeconds;
  reply.header(
    'set-cookie',
    `${MEDIA_COOKIE}=${token}; Path=/api; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`,
  );
}

export function clearMediaCookie(reply: FastifyReply): void {
  reply.header('set-cookie', `${MEDIA_COOKIE}=; Path=/api; HttpOnly; SameSite=Strict; Max-Age=0`);
}

export function registerAuthHook(app: FastifyInstance): void {
  app.decorateRequest('user', null);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api') && route.config?.access === undefined) {
      throw new Error(`Route ${route.method} ${route.url} declares no access rule`);
    }
  });
  app.addHook('onRequest', async (request) => {
    const { access, media } = request.routeOptions.config;
    if (access === undefined || access === 'public') return;
    const token = bearerToken(request) ?? (media ? cookieToken(request) : null);
    if (!token) throw new HttpError(401, 'Authentication required');
    if (isApiKey(token)) {
      // A service account acts only on routes that name the 'service' role.
      request.user = await verifyApiKey(app.ctx.db, token);
      if (access === 'authenticated' || !access.includes('service')) {
        await denied(request, 'service accounts may only post analysis results');
      }
      return;
    }
    const verified = await app.ctx.tokens.verify(token);
    if (!verified) throw new HttpError(401, 'Invalid or expired token');
    const load = async () => {
      const [found] = await app.ctx.db
        .select({
          id: users.id,
          name: users.name,
          email: users.email,
          roles: users.roles,
          tokenVersion: users.tokenVersion,
        })
        .from(users)
        .where(eq(users.id, verified.id));
      return found ?? null;
    };
    const row = await (app.ctx.caches ? app.ctx.caches.users.get(verified.id, load) : load());
    // A changed password, changed roles or a deleted user revokes every older token.
    if (!row || row.tokenVersion !== verified.tokenVersion) {
      throw new HttpError(401, 'Session is no longer valid; please log in again');
    }
    const user: AuthUser = { id: row.id, name: row.name, email: row.email, roles: row.roles };
    request.user = user;
    if (access !== 'authenticated' && !user.roles.some((role) => access.includes(role))) {
      await denied(request, `role required: ${access.join(' or ')}`);
    }
  });
}

/** Records the refusal in the audit log and answers 403. */
export async function denied(request: FastifyRequest, reason: string): Promise<never> {
  await audit(request.server.ctx.db, request, {
    action: 'authorization.denied',
    entity: 'route',
    entityId: `${request.method} ${request.routeOptions.url ?? request.url}`,
    newValue: { reason, url: request.url },
  });
  throw new HttpError(403, 'You do not have permission for this action');
}

/** The logged-in user of a route whose access rule requires one. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new HttpError(401, 'Authentication required');
  return request.user;
}
