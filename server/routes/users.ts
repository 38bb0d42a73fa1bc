// Users: list, create, edit, deactivate, unlock, delete (spec §7) with the role rules of
// docs/permissions.md.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, arrayContains, asc, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { audit } from '../audit/audit.ts';
import { changeReason, noBodyAsEmpty, unchanged, withReason } from '../audit/change-reason.ts';
import { guessablePasswordRefusal, isGuessablePassword } from '../auth/guessable-password.ts';
import { keepFormerPassword } from '../auth/password-history.ts';
import type { AuthUser } from '../context.ts';
import type { Db, Tx } from '../db/client.ts';
import { accountLockouts, lineClearances, users } from '../db/schema.ts';
import { currentUser, denied } from '../http/auth-hook.ts';
import { errorResponses } from '../http/error-responses.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { passwordRateLimits } from '../http/password-rate-limit.ts';
import { iso } from '../ids.ts';
import { UnlockReasonBody } from '../schemas/change-reason.ts';
import { IdParams, MessageResponse, type Role } from '../schemas/common.ts';
import { sharedAccountRefusal } from '../schemas/manageable-roles.ts';
import { inWords } from '../schemas/named-records.ts';
import { User, UserCreate, UserDelete, type UserStatus, UserUpdate } from '../schemas/users.ts';
import {
  canManageRoles,
  canManageUser,
  hasRole,
  type LineAssignment,
  seesAllLines,
  setsCredentials,
} from '../services/access.ts';
import { deleteUnlessNamed, userNamedRecords } from '../services/named-records.ts';
import { atVersion, notUpdated } from '../services/record-version.ts';
import { assertLinesExist, assertUsersExist } from '../services/references.ts';
import { EMAIL_IN_USE, emailRefusal, insertUser } from '../services/users.ts';

type Row = typeof users.$inferSelect;

/** Never includes the password hash or token version. */
export const toUser = (row: Row, lockedUntil: Date | null = null): User => ({
  _id: row.id,
  id: row.id,
  name: row.name,
  email: row.email,
  role: row.roles,
  lineClearanceIds: row.lineClearanceIds,
  assignedOperators: row.assignedOperators,
  status: row.status as UserStatus,
  lockedUntil: lockedUntil && lockedUntil.getTime() > Date.now() ? iso(lockedUntil) : null,
  version: row.version,
});

const rolesOf = (role: Role | Role[] | undefined): Role[] =>
  role === undefined ? ['operator'] : [...new Set(Array.isArray(role) ? role : [role])];

const errors = errorResponses;
const MANAGERS = ['admin', 'factory_manager', 'lc_manager'] as const;

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string }).code === '23505' ||
  (error as { cause?: { code?: string } }).cause?.code === '23505';

/**
 * The 409 for an email taken meanwhile (a concurrent request; the unique index or the
 * `user_emails` trigger refused it), naming its holder as the check before the change does.
 */
async function emailTaken(db: Db, email: string, userId: string | null) {
  return conflict((await emailRefusal(db, email, userId)) ?? EMAIL_IN_USE);
}

/** A password a manager sets (a new account's, a reset) is one a guesser would not try first. */
function refuseGuessable(password: string | undefined): void {
  if (password && isGuessablePassword(password)) {
    throw badRequest(guessablePasswordRefusal('body.password'));
  }
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * The last active admin can neither be deleted, deactivated nor lose the admin role: someone must
 * run the system.
 */
async function assertAdminRemains(tx: Tx, leaving: Row): Promise<void> {
  if (!leaving.roles.includes('admin') || leaving.status !== 'active') return;
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(
      sql`'admin' = any(${users.roles}) and ${users.status} = 'active' and ${users.id} <> ${leaving.id}`,
    );
  if ((row?.n ?? 0) === 0) throw conflict('The last admin cannot be removed');
}

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, passwords, config } = app.ctx;
  const passwordLimits = passwordRateLimits(app);

  /** The lines an LC manager manages; none are needed for users who see every line. */
  async function managedLines(user: AuthUser): Promise<LineAssignment[]> {
    if (seesAllLines(user)) return [];
    return db
      .select({ id: lineClearances.id, assignedOperators: lineClearances.assignedOperators })
      .from(lineClearances)
      .where(eq(lineClearances.managerId, user.id));
  }

  async function findManageable(request: FastifyRequest, id: string) {
    const user = currentUser(request);
    const [row] = await db.select().from(users).where(eq(users.id, id));
    if (!row) throw notFound('User');
    const lines = await managedLines(user);
    if (!canManageUser(user, row, lines)) {
      await denied(
        request,
        canManageRoles(user, row.roles)
          ? 'the user works on no line this manager manages'
          : `may not manage a user with roles ${row.roles.join(', ')}`,
      );
    }
    return { row, lines };
  }

  /**
   * An LC manager changes the account itself (its name, its status, or deletes it) only when every
   * line the account works on is one it manages: an operator shared with another manager's line
   * belongs to both, and only an admin or a factory manager changes it for both. Its own lines it
   * still assigns.
   */
  async function refuseIfShared(request: FastifyRequest, target: typeof users.$inferSelect) {
    const user = currentUser(request);
    if (seesAllLines(user)) return;
    const others = await db
      .select({ name: lineClearances.name })
      .from(lineClearances)
      .where(
        and(
          or(
            target.lineClearanceIds.length
              ? inArray(lineClearances.id, target.lineClearanceIds)
              : undefined,
            arrayContains(lineClearances.assignedOperators, [target.id]),
          ),
          or(isNull(lineClearances.managerId), ne(lineClearances.managerId, user.id)),
        ),
      );
    if (!others.length) return;
    const message = sharedAccountRefusal(others.map((line) => line.name));
    await denied(request, message, message);
  }

  /**
   * An LC manager changes an account's lines only among the lines it manages: the request says
   * which of its own lines the account works on, and the account's other lines stay as they were
   * (left out of the request or not); adding another manager's line is refused. Others set them
   * freely.
   */
  async function linesAfterChange(
    request: FastifyRequest,
    lines: LineAssignment[],
    old: string[],
    requested: string[] | undefined,
  ): Promise<string[]> {
    const next = requested === undefined ? old : [...new Set(requested)];
    if (seesAllLines(currentUser(request))) return next;
    const mine = new Set(lines.map((line) => line.id));
    if (next.some((id) => !mine.has(id) && !old.includes(id))) {
      await denied(request, 'may only assign the lines this manager manages');
    }
    const kept = old.filter((id) => !mine.has(id) || next.includes(id));
    return [...kept, ...next.filter((id) => mine.has(id) && !kept.includes(id))];
  }

  app.get(
    '/users',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['users'], response: { 200: Type.Array(User), ...errors } },
    },
    async (request) => {
      const user = currentUser(request);
      // Operators see only themselves; everyone else needs the list (filters, assignments).
      const onlySelf = !hasRole(user, 'admin', 'factory_manager', 'lc_manager', 'audit');
      const rows = await db
        .select({ user: users, lockedUntil: accountLockouts.lockedUntil })
        .from(users)
        .leftJoin(
          accountLockouts,
          and(eq(accountLockouts.userId, users.id), gt(accountLockouts.lockedUntil, new Date())),
        )
        .where(onlySelf ? eq(users.id, user.id) : undefined)
        .orderBy(asc(users.name));
      if (!hasRole(user, ...MANAGERS)) return rows.map((row) => toUser(row.user, row.lockedUntil));
      // Those who may delete a user see what names it, so its card says so before a 409 would.
      const namedRecords = await userNamedRecords(db);
      return rows.map((row) => ({
        ...toUser(row.user, row.lockedUntil),
        namedIn: namedRecords(row.user.id),
      }));
    },
  );

  app.post(
    '/users',
    {
      config: { access: MANAGERS },
      preHandler: passwordLimits,
      schema: { tags: ['users'], body: UserCreate, response: { 201: User, ...errors } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const body = request.body;
      const roles = rolesOf(body.role);
      if (!canManageRoles(user, roles)) await denied(request, `may not create ${roles.join(', ')}`);
      const lines = await managedLines(user);
      // An LC manager's new operator works on the LC manager's lines (all of them unless named),
      // so it stays within the LC manager's reach.
      const lineClearanceIds = seesAllLines(user)
        ? (body.lineClearanceIds ?? [])
        : await linesAfterChange(
            request,
            lines,
            [],
            body.lineClearanceIds ?? lines.map((line) => line.id),
          );
      if (!seesAllLines(user) && (body.assignedOperators ?? []).length > 0) {
        await denied(request, 'may not assign operators to a user');
      }
      refuseGuessable(body.password);
      await assertLinesExist(db, lineClearanceIds, 'body.lineClearanceIds');
      await assertUsersExist(db, body.assignedOperators ?? [], 'body.assignedOperators');
      try {
        const row = await db.transaction(async (tx) => {
          // Named fields only: a record's id is the server's, never the request's.
          const created = await insertUser(tx, passwords, {
            name: body.name,
            email: body.email,
            password: body.password,
            roles,
            lineClearanceIds,
            assignedOperators: body.assignedOperators,
            passwordSetBy: user.id,
          });
          await audit(tx, request, {
            action: 'create',
            entity: 'user',
            entityId: created.id,
            newValue: toUser(created),
          });
          return created;
        });
        return reply.status(201).send(toUser(row));
      } catch (error) {
        if (isUniqueViolation(error)) throw await emailTaken(db, body.email, null);
        throw error;
      }
    },
  );

  app.put(
    '/users/:id',
    {
      config: { access: MANAGERS },
      // Only a password reset hashes; other edits are not limited.
      preHandler: async (request, reply) => {
        if ((request.body as { password?: string }).password) {
          await passwordLimits.call(app, request, reply);
        }
      },
      schema: {
        tags: ['users'],
        params: IdParams,
        body: UserUpdate,
        response: { 200: User, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const body = request.body;
      const reason = changeReason(body.reason, 'the user is changed');
      const { row: old, lines } = await findManageable(request, request.params.id);
      const roles = body.role === undefined ? old.roles : rolesOf(body.role);
      if (!canManageRoles(user, roles)) await denied(request, `may not grant ${roles.join(', ')}`);
      const email = body.email.trim().toLowerCase();
      const emailChanged = email !== old.email;
      if ((emailChanged || body.password) && !setsCredentials(user)) {
        await denied(request, 'may not set another user’s password or email');
      }
      // An address another user holds or held is never given to this one (21 CFR 11.100(a)).
      const refusal = emailChanged ? await emailRefusal(db, email, old.id) : null;
      if (refusal) throw conflict(refusal);
      const lineClearanceIds = await linesAfterChange(
        request,
        lines,
        old.lineClearanceIds,
        body.lineClearanceIds,
      );
      const assignedOperators = body.assignedOperators ?? old.assignedOperators;
      if (!seesAllLines(user) && !sameSet(assignedOperators, old.assignedOperators)) {
        await denied(request, 'may not assign operators to a user');
      }
      const status = body.status ?? (old.status as UserStatus);
      const statusChanged = status !== old.status;
      if (statusChanged || body.name.trim() !== old.name) await refuseIfShared(request, old);
      if (statusChanged && old.id === user.id) {
        throw conflict('You cannot deactivate your own account');
      }
      await assertLinesExist(db, lineClearanceIds, 'body.lineClearanceIds');
      await assertUsersExist(db, assignedOperators, 'body.assignedOperators');
      const rolesChanged = !sameSet(roles, old.roles);
      refuseGuessable(body.password);
      const passwordHash = body.password ? await passwords.hash(body.password) : undefined;
      try {
        return await db.transaction(async (tx) => {
          if (!roles.includes('admin') || status !== 'active') await assertAdminRemains(tx, old);
          const [row] = await tx
            .update(users)
            .set({
              name: body.name.trim(),
              email,
              roles,
              lineClearanceIds,
              assignedOperators,
              status,
              ...(passwordHash
                ? {
                    passwordHash,
                    passwordSetBy: old.id === user.id ? null : user.id,
                    passwordChangedAt: new Date(),
                  }
                : {}),
              // New roles, a reset password or email, or a deactivation must not ride on tokens
              // issued before.
              ...(rolesChanged || passwordHash || emailChanged || statusChanged
                ? { tokenVersion: sql`${users.tokenVersion} + 1` }
                : {}),
            })
            .where(atVersion('user', old.id, body.version))
            .returning();
          if (!row) throw await notUpdated(tx, request, 'user', old.id, 'User');
          // A reset is not checked against the history (the manager does not know it), but the
          // password it replaces joins it.
          if (passwordHash) {
            await keepFormerPassword(tx, old.id, old.passwordHash, config.passwordHistory);
          }
          // A reset shows as `passwordReset: true`; the password itself is never in the trail.
          const [before, after] = [toUser(old), toUser(row)];
          const written = passwordHash ? { ...after, passwordReset: true } : after;
          if (!unchanged(before, written)) {
            await audit(tx, request, {
              action: 'update',
              entity: 'user',
              entityId: row.id,
              ...withReason(reason, before, written),
            });
          }
          return after;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw await emailTaken(db, email, old.id);
        throw error;
      }
    },
  );

  app.post(
    '/users/:id/unlock',
    {
      config: { access: ['admin', 'factory_manager'] },
      schema: {
        tags: ['users'],
        description: 'Lifts a sign-in lock (too many failed passwords) before it expires.',
        params: IdParams,
        body: UnlockReasonBody,
        response: { 200: MessageResponse, ...errors },
      },
      preValidation: noBodyAsEmpty,
    },
    async (request) => {
      const { row } = await findManageable(request, request.params.id);
      const reason = changeReason(request.body.reason, 'the account is unlocked');
      const unlocked = await app.ctx.credentials.unlock(request, row.id, reason);
      return { message: unlocked ? 'Account unlocked' : 'The account was not locked' };
    },
  );

  app.delete(
    '/users/:id',
    {
      config: { access: MANAGERS },
      preValidation: noBodyAsEmpty,
      schema: {
        tags: ['users'],
        params: IdParams,
        body: UserDelete,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const reason = changeReason(request.body.reason, 'the user is deleted');
      if (request.params.id === user.id) throw conflict('You cannot delete your own account');
      const { row: old } = await findManageable(request, request.params.id);
      await refuseIfShared(request, old);
      await deleteUnlessNamed(request, 'user', old.id, async (tx) => {
        const managed = await tx
          .select({ name: lineClearances.name })
          .from(lineClearances)
          .where(eq(lineClearances.managerId, old.id))
          .orderBy(asc(lineClearances.name));
        if (managed.length > 0) {
          throw conflict(
            `This user is the LC manager of ${inWords(managed.map((line) => line.name))}; give those lines another LC manager first`,
          );
        }
        await assertAdminRemains(tx, old);
        await tx.delete(users).where(eq(users.id, old.id));
        await audit(tx, request, {
          action: 'delete',
          entity: 'user',
          entityId: old.id,
          ...withReason(reason, toUser(old)),
        });
      });
      return { message: 'User deleted' };
    },
  );
};
