// Login, current user, password change and logout (spec §7, §8).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eq, lt, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { audit } from '../audit/audit.ts';
import { type CredentialCheck, refuseCheck } from '../auth/credentials.ts';
import { newSessionId } from '../auth/token.ts';
import { revokedSessions, users } from '../db/schema.ts';
import {
  bearerToken,
  clearMediaCookie,
  currentSession,
  currentUser,
  mediaCookieToken,
  setMediaCookie,
} from '../http/auth-hook.ts';
import { badRequest, HttpError } from '../http/errors.ts';
import { passwordRateLimits } from '../http/password-rate-limit.ts';
import { ChangePasswordBody, LoginBody, LoginResponse, Me } from '../schemas/auth.ts';
import { ErrorResponse, MessageResponse } from '../schemas/common.ts';
import { ownNewPasswordProblem } from '../schemas/password-rule.ts';

function refuse(reply: FastifyReply, check: CredentialCheck, message: string): never {
  refuseCheck(reply, check, new HttpError(401, message));
}

const LOGIN_BODY_LIMIT = 16 * 1024;

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, tokens, credentials, passwords } = app.ctx;

  app.post(
    '/login',
    {
      // Anyone may call it: an email and a password never need more, and a megabyte of JSON cost
      // every anonymous caller a parse.
      bodyLimit: LOGIN_BODY_LIMIT,
      attachValidation: true,
      config: { access: 'public' },
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
      const check = await credentials.check(request, { email }, password, 'login');
      if (!check.ok) refuse(reply, check, 'Invalid email or password');
      const { user } = check;
      const sessionId = newSessionId();
      const token = await tokens.sign(user, sessionId);
      request.user = { id: user.id, name: user.name, email: user.email, roles: user.roles };
      await audit(db, request, { action: 'login', entity: 'user', entityId: user.id });
      await setMediaCookie(request, reply, user, sessionId);
      return { token, ownPassword: user.passwordSetBy === null };
    },
  );

  // These two serve a user whose password someone else chose: the app restores the session and
  // the user sets its own password (every other route refuses it until then).
  app.get(
    '/me',
    {
      config: { access: 'authenticated', beforeOwnPassword: true },
      schema: { tags: ['auth'], response: { 200: Me, 401: ErrorResponse } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      // Restoring a session from a stored token also restores the media cookie.
      const session = currentSession(request);
      await setMediaCookie(request, reply, session, session.sessionId);
      return {
        id: user.id,
        name: user.name,
        email: user.email,
        roles: user.roles,
        ownPassword: user.ownPassword !== false,
      };
    },
  );

  app.post(
    '/change-password',
    {
      config: { access: 'authenticated', beforeOwnPassword: true },
      preHandler: passwordRateLimits(app),
      schema: {
        tags: ['auth'],
        body: ChangePasswordBody,
        response: {
          200: Type.Object({ message: Type.String(), token: Type.String() }),
          400: ErrorResponse,
          401: ErrorResponse,
          429: ErrorResponse,
          503: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const check = await credentials.check(
        request,
        { userId: me.id },
        request.body.currentPassword,
        'password-change',
      );
      if (!check.ok) refuse(reply, check, 'Current password is incorrect');
      // Only now: a wrong current password answers 401 whatever the new one is (spec §8).
      const problem = ownNewPasswordProblem(request.body, check.user);
      if (problem) throw badRequest(problem);
      const passwordHash = await passwords.hash(request.body.newPassword);
      // Bumping the token version signs out every other session; this one gets a fresh token.
      // The change and its audit entry commit together.
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ passwordHash, passwordSetBy: null, tokenVersion: sql`${users.tokenVersion} + 1` })
          .where(eq(users.id, me.id))
          .returning();
        if (!row) throw new HttpError(401, 'Session is no longer valid; please log in again');
        await audit(tx, request, { action: 'password.change', entity: 'user', entityId: me.id });
        return row;
      });
      const { sessionId } = currentSession(request);
      const token = await tokens.sign(updated, sessionId);
      await setMediaCookie(request, reply, updated, sessionId);
      return { message: 'Password changed', token };
    },
  );

  app.post(
    '/logout',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], security: [], response: { 200: MessageResponse } },
    },
    async (request, reply) => {
      // The session of the bearer token and of the media cookie (usually the same) end here:
      // neither token is accepted again, even before it expires.
      const bearer = bearerToken(request);
      const cookie = mediaCookieToken(request);
      const ended = [
        bearer ? await tokens.verify(bearer, 'api') : null,
        cookie ? await tokens.verify(cookie, 'media') : null,
      ].filter((session) => session !== null);
      if (ended.length > 0) {
        await db.transaction(async (tx) => {
          // Sessions past their tokens' lifetime need no record any more.
          await tx.delete(revokedSessions).where(lt(revokedSessions.expiresAt, new Date()));
          for (const session of ended) {
            await tx
              .insert(revokedSessions)
              .values({
                sessionId: session.sessionId,
                userId: session.id,
                // The bearer token of a session outlives its media token.
                expiresAt: new Date(session.issuedAt + app.ctx.config.tokenTtlSeconds * 1000),
              })
              .onConflictDoNothing();
          }
          const first = ended[0];
          if (first) {
            // A public route has no request user: the entry names the one whose session ended,
            // the verified token's user (21 CFR 11.10(e): who, not 'system').
            const [row] = await tx
              .select({ id: users.id, name: users.name, email: users.email, roles: users.roles })
              .from(users)
              .where(eq(users.id, first.id));
            const actor = { user: row ?? null, ip: request.ip };
            await audit(tx, actor, {
              action: 'logout',
              entity: 'user',
              entityId: first.id,
              newValue: { session: first.sessionId },
            });
          }
        });
      }
      clearMediaCookie(request, reply);
      return { message: 'Logged out' };
    },
  );
};
