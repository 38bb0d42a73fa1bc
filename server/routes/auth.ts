// Login, current user, password change, session renewal and logout (spec §7, §8).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eq, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { audit } from '../audit/audit.ts';
import { type CredentialCheck, refuseCheck, type UserRow } from '../auth/credentials.ts';
import { guessablePasswordRefusal, isGuessablePassword } from '../auth/guessable-password.ts';
import {
  isFormerPassword,
  keepFormerPassword,
  passwordExpired,
  reusedPasswordProblem,
} from '../auth/password-history.ts';
import { newSession } from '../auth/token.ts';
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
import {
  ChangePasswordBody,
  LoginBody,
  LoginResponse,
  LogoutBody,
  Me,
  RenewResponse,
} from '../schemas/auth.ts';
import { ErrorResponse, MessageResponse } from '../schemas/common.ts';
import { ownNewPasswordProblem } from '../schemas/password-rule.ts';

function refuse(reply: FastifyReply, check: CredentialCheck, message: string): never {
  refuseCheck(reply, check, new HttpError(401, message));
}

const LOGIN_BODY_LIMIT = 16 * 1024;

/**
 * How long after its end a bearer token still ends its session at logout: the app's sign-out at
 * the idle limit races the token's own end by the time the call takes, and the trail must still
 * say that the session ended and why.
 */
const LOGOUT_GRACE_SECONDS = 60;

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, tokens, credentials, passwords, config } = app.ctx;
  const idleMinutes = config.sessionIdleMinutes;
  const maxAgeDays = config.passwordMaxAgeDays;

  /**
   * The password's maximum age when that is why the user must set a new one: marked at a sign-in
   * (password_set_by is the user's own id, as for the deployment's first admin) and still too old.
   */
  const expiredAfterDays = (row: Pick<UserRow, 'id' | 'passwordSetBy' | 'passwordChangedAt'>) =>
    row.passwordSetBy === row.id && passwordExpired(row.passwordChangedAt, maxAgeDays)
      ? maxAgeDays
      : null;

  /**
   * Marks an expired password as the gate's, in the sign-in's transaction and audit entry: as for a
   * password the user did not choose, the auth hook then serves it only what setting a new one
   * needs. Its other sessions end (token version), so they too come back through a sign-in.
   */
  const markExpired = (request: FastifyRequest, user: UserRow, lockPassed: object) =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        .set({ passwordSetBy: user.id, tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, user.id))
        .returning();
      if (!row) throw new HttpError(401, 'Invalid email or password');
      await audit(tx, request, {
        action: 'login',
        entity: 'user',
        entityId: row.id,
        newValue: {
          passwordExpired: true,
          passwordChangedAt: row.passwordChangedAt.toISOString(),
          maxAgeDays,
          ...lockPassed,
        },
      });
      return row;
    });

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
      const { user: found } = check;
      request.user = { id: found.id, name: found.name, email: found.email, roles: found.roles };
      // Signed in past the account's lock, from a browser it signed in from before: the trail says
      // how, since the lock stays for everyone else.
      const lockPassed = check.lockPassed
        ? { knownBrowser: true, lockedUntil: check.lockPassed.toISOString() }
        : null;
      // A password of one's own older than PASSWORD_MAX_AGE_DAYS signs in, then must be replaced
      // before anything else.
      const expired =
        found.passwordSetBy === null && passwordExpired(found.passwordChangedAt, maxAgeDays);
      const user = expired ? await markExpired(request, found, lockPassed ?? {}) : found;
      if (!expired) {
        await audit(db, request, {
          action: 'login',
          entity: 'user',
          entityId: user.id,
          ...(lockPassed ? { newValue: lockPassed } : {}),
        });
      }
      const session = newSession();
      const token = await tokens.sign(user, session);
      // The media cookie first: scripts that read the first Set-Cookie header get it as before.
      await setMediaCookie(request, reply, user, session);
      credentials.rememberBrowser(request, reply, user.id);
      return {
        token,
        ownPassword: user.passwordSetBy === null,
        passwordExpiredAfterDays: expiredAfterDays(user),
        idleMinutes,
      };
    },
  );

  // These three serve a user whose password someone else chose: the app restores the session and
  // keeps it while the user sets its own password (every other route refuses it until then).
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
      await setMediaCookie(request, reply, session, session);
      const ownPassword = user.ownPassword !== false;
      // Only a user who must set a password asks why (the gate's words).
      const [row] = ownPassword
        ? []
        : await db
            .select({
              id: users.id,
              passwordSetBy: users.passwordSetBy,
              passwordChangedAt: users.passwordChangedAt,
            })
            .from(users)
            .where(eq(users.id, user.id));
      return {
        id: user.id,
        name: user.name,
        email: user.email,
        roles: user.roles,
        ownPassword,
        passwordExpiredAfterDays: row ? expiredAfterDays(row) : null,
        idleMinutes,
      };
    },
  );

  // The app calls this while its user is active; a revoked session or one past its absolute end
  // never gets here (the auth hook answers 401). Not audited: a renewal changes no record, and an
  // active user would write one entry a minute.
  app.post(
    '/session/renew',
    {
      config: { access: 'authenticated', beforeOwnPassword: true },
      schema: { tags: ['auth'], response: { 200: RenewResponse, 401: ErrorResponse } },
    },
    async (request) => {
      const user = currentUser(request);
      const session = currentSession(request);
      const token = await tokens.sign({ ...user, tokenVersion: session.tokenVersion }, session);
      return { token, idleMinutes };
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
      if (isGuessablePassword(request.body.newPassword)) {
        throw badRequest(guessablePasswordRefusal('The new password'));
      }
      // Not a failed password check: the current one was right, so it counts toward no lockout.
      const history = config.passwordHistory;
      if (await isFormerPassword(db, passwords, me.id, request.body.newPassword, history)) {
        throw badRequest(reusedPasswordProblem(history));
      }
      const passwordHash = await passwords.hash(request.body.newPassword);
      // Bumping the token version signs out every other session; this one gets a fresh token.
      // The change, the history and the audit entry commit together.
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({
            passwordHash,
            passwordSetBy: null,
            passwordChangedAt: new Date(),
            tokenVersion: sql`${users.tokenVersion} + 1`,
          })
          .where(eq(users.id, me.id))
          .returning();
        if (!row) throw new HttpError(401, 'Session is no longer valid; please log in again');
        await keepFormerPassword(tx, me.id, check.user.passwordHash, history);
        await audit(tx, request, { action: 'password.change', entity: 'user', entityId: me.id });
        return row;
      });
      const session = currentSession(request);
      const token = await tokens.sign(updated, session);
      await setMediaCookie(request, reply, updated, session);
      return { message: 'Password changed', token };
    },
  );

  app.post(
    '/logout',
    {
      config: { access: 'public' },
      // Without a body (a plain log out) as with an empty one.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags: ['auth'],
        security: [],
        body: LogoutBody,
        response: { 200: MessageResponse, 400: ErrorResponse },
      },
    },
    async (request, reply) => {
      // The session of the bearer token and of the media cookie (usually the same) end here:
      // neither token is accepted again, even before it expires.
      const bearer = bearerToken(request);
      const cookie = mediaCookieToken(request);
      const ended = [
        bearer ? await tokens.verify(bearer, 'api', LOGOUT_GRACE_SECONDS) : null,
        cookie ? await tokens.verify(cookie, 'media') : null,
      ].filter((session) => session !== null);
      if (ended.length > 0) {
        await db.transaction(async (tx) => {
          // Sessions past their tokens' lifetime need no record any more.
          await tx.delete(revokedSessions).where(lt(revokedSessions.expiresAt, new Date()));
          // Only a session this call ends is audited: a second tab's sign-out at the same limit,
          // or a repeated call, finds it ended already and writes nothing.
          let endedNow = false;
          for (const session of ended) {
            const inserted = await tx
              .insert(revokedSessions)
              .values({
                sessionId: session.sessionId,
                userId: session.id,
                // No token of the session lives past its absolute end.
                expiresAt: new Date(session.sessionStart + config.tokenTtlSeconds * 1000),
              })
              .onConflictDoNothing()
              .returning({ sessionId: revokedSessions.sessionId });
            endedNow ||= inserted.length > 0;
          }
          const first = ended[0];
          if (first && endedNow) {
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
              newValue: { session: first.sessionId, reason: request.body.reason ?? 'user' },
            });
          }
        });
      }
      clearMediaCookie(request, reply);
      return { message: 'Logged out' };
    },
  );
};
