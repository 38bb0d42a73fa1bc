// Login, current user, password change and logout (spec §7, §8).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { audit } from '../audit/audit.ts';
import { users } from '../db/schema.ts';
import { clearMediaCookie, currentUser, setMediaCookie } from '../http/auth-hook.ts';
import { HttpError } from '../http/errors.ts';
import { ChangePasswordBody, LoginBody, LoginResponse, Me } from '../schemas/auth.ts';
import { ErrorResponse, MessageResponse } from '../schemas/common.ts';

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, passwords, tokens, config } = app.ctx;
  // Unknown emails still cost one hash, so response time does not reveal which accounts exist.
  let dummyHash: Promise<string> | null = null;

  app.post(
    '/login',
    {
      attachValidation: true,
      config: {
        access: 'public',
        rateLimit: { max: config.loginRateLimit, timeWindow: '1 minute' },
      },
      schema: {
        tags: ['auth'],
        security: [],
        body: LoginBody,
        response: { 200: LoginResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const email = request.validationError ? '' : request.body.email.trim().toLowerCase();
      const password = request.validationError ? '' : request.body.password;
      if (!email || !password) throw new HttpError(400, 'Email and password are required');
      const [user] = await db.select().from(users).where(eq(users.email, email));
      if (!user) {
        dummyHash ??= passwords.hash('not-a-real-password');
        await passwords.verify(password, await dummyHash);
      }
      if (!user || !(await passwords.verify(password, user.passwordHash))) {
        await audit(db, request, { action: 'login.failed', entity: 'user', actorEmail: email });
        throw new HttpError(401, 'Invalid email or password');
      }
      const token = await tokens.sign(user);
      request.user = { id: user.id, name: user.name, email: user.email, roles: user.roles };
      await audit(db, request, { action: 'login', entity: 'user', entityId: user.id });
      setMediaCookie(request, reply, token);
      return { token };
    },
  );

  app.get(
    '/me',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['auth'], response: { 200: Me, 401: ErrorResponse } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      // Restoring a session from a stored token also restores the media cookie.
      const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (bearer) setMediaCookie(request, reply, bearer);
      return { id: user.id, name: user.name, email: user.email, roles: user.roles };
    },
  );

  app.post(
    '/change-password',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['auth'],
        body: ChangePasswordBody,
        response: {
          200: Type.Object({ message: Type.String(), token: Type.String() }),
          400: ErrorResponse,
          401: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const [user] = await db.select().from(users).where(eq(users.id, me.id));
      if (!user || !(await passwords.verify(request.body.currentPassword, user.passwordHash))) {
        await audit(db, request, {
          action: 'password.change-failed',
          entity: 'user',
          entityId: me.id,
        });
        throw new HttpError(401, 'Current password is incorrect');
      }
      const passwordHash = await passwords.hash(request.body.newPassword);
      // Bumping the token version signs out every other session; this one gets a fresh token.
      const [updated] = await db
        .update(users)
        .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, me.id))
        .returning();
      if (!updated) throw new HttpError(401, 'Session is no longer valid; please log in again');
      await audit(db, request, { action: 'password.change', entity: 'user', entityId: me.id });
      const token = await tokens.sign(updated);
      setMediaCookie(request, reply, token);
      return { message: 'Password changed', token };
    },
  );

  app.post(
    '/logout',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], security: [], response: { 200: MessageResponse } },
    },
    async (_request, reply) => {
      clearMediaCookie(reply);
      return { message: 'Logged out' };
    },
  );
};
