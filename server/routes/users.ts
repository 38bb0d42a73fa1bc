// Users: list, create, edit, delete (spec §7) with the role rules of docs/permissions.md.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { asc, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { audit } from '../audit/audit.ts';
import type { AuthUser } from '../context.ts';
import type { Tx } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { currentUser, denied } from '../http/auth-hook.ts';
import { errorResponses } from '../http/error-responses.ts';
import { conflict, notFound } from '../http/errors.ts';
import { IdParams, MessageResponse, type Role } from '../schemas/common.ts';
import { User, UserCreate, UserUpdate } from '../schemas/users.ts';
import { canManageRoles, hasRole } from '../services/access.ts';
import { assertLinesExist, assertUsersExist } from '../services/references.ts';
import { insertUser } from '../services/users.ts';

type Row = typeof users.$inferSelect;

/** Never includes the password hash or token version. */
export const toUser = (row: Row): User => ({
  _id: row.id,
  id: row.id,
  name: row.name,
  email: row.email,
  role: row.roles,
  lineClearanceIds: row.lineClearanceIds,
  assignedOperators: row.assignedOperators,
});

const rolesOf = (role: Role | Role[] | undefined): Role[] =>
  role === undefined ? ['operator'] : [...new Set(Array.isArray(role) ? role : [role])];

const errors = errorResponses;
const MANAGERS = ['admin', 'factory_manager', 'lc_manager'] as const;

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string }).code === '23505' ||
  (error as { cause?: { code?: string } }).cause?.code === '23505';

/** The last admin can neither be deleted nor lose the admin role: someone must run the system. */
async function assertAdminRemains(tx: Tx, leaving: Row): Promise<void> {
  if (!leaving.roles.includes('admin')) return;
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(sql`'admin' = any(${users.roles}) and ${users.id} <> ${leaving.id}`);
  if ((row?.n ?? 0) === 0) throw conflict('The last admin cannot be removed');
}

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, passwords } = app.ctx;

  async function findManageable(request: Parameters<typeof currentUser>[0], id: string) {
    const user: AuthUser = currentUser(request);
    const [row] = await db.select().from(users).where(eq(users.id, id));
    if (!row) throw notFound('User');
    if (!canManageRoles(user, row.roles)) {
      await denied(request, `may not manage a user with roles ${row.roles.join(', ')}`);
    }
    return row;
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
        .select()
        .from(users)
        .where(onlySelf ? eq(users.id, user.id) : undefined)
        .orderBy(asc(users.name));
      return rows.map(toUser);
    },
  );

  app.post(
    '/users',
    {
      config: { access: MANAGERS },
      schema: { tags: ['users'], body: UserCreate, response: { 201: User, ...errors } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const body = request.body;
      const roles = rolesOf(body.role);
      if (!canManageRoles(user, roles)) await denied(request, `may not create ${roles.join(', ')}`);
      await assertLinesExist(db, body.lineClearanceIds ?? [], 'body.lineClearanceIds');
      await assertUsersExist(db, body.assignedOperators ?? [], 'body.assignedOperators');
      try {
        const row = await db.transaction(async (tx) => {
          const created = await insertUser(tx, passwords, { ...body, roles });
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
        if (isUniqueViolation(error)) throw conflict('A user with this email already exists');
        throw error;
      }
    },
  );

  app.put(
    '/users/:id',
    {
      config: { access: MANAGERS },
      schema: {
        tags: ['users'],
        params: IdParams,
        body: UserUpdate,
        response: { 200: User, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const old = await findManageable(request, request.params.id);
      const body = request.body;
      const roles = body.role === undefined ? old.roles : rolesOf(body.role);
      if (!canManageRoles(user, roles)) await denied(request, `may not grant ${roles.join(', ')}`);
      await assertLinesExist(db, body.lineClearanceIds ?? [], 'body.lineClearanceIds');
      await assertUsersExist(db, body.assignedOperators ?? [], 'body.assignedOperators');
      const rolesChanged =
        roles.length !== old.roles.length || roles.some((r) => !old.roles.includes(r));
      const passwordHash = body.password ? await passwords.hash(body.password) : undefined;
      try {
        return await db.transaction(async (tx) => {
          if (!roles.includes('admin')) await assertAdminRemains(tx, old);
          const [row] = await tx
            .update(users)
            .set({
              name: body.name.trim(),
              email: body.email.trim().toLowerCase(),
              roles,
              lineClearanceIds: body.lineClearanceIds ?? old.lineClearanceIds,
              assignedOperators: body.assignedOperators ?? old.assignedOperators,
              ...(passwordHash ? { passwordHash } : {}),
              // New roles or a reset password must not ride on tokens issued before.
              ...(rolesChanged || passwordHash
                ? { tokenVersion: sql`${users.tokenVersion} + 1` }
                : {}),
            })
            .where(eq(users.id, old.id))
            .returning();
          if (!row) throw notFound('User');
          await audit(tx, request, {
            action: 'update',
            entity: 'user',
            entityId: row.id,
            oldValue: toUser(old),
            newValue: { ...toUser(row), passwordReset: Boolean(passwordHash) },
          });
          return toUser(row);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('A user with this email already exists');
        throw error;
      }
    },
  );

  app.delete(
    '/users/:id',
    {
      config: { access: MANAGERS },
      schema: {
        tags: ['users'],
        params: IdParams,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (request.params.id === user.id) throw conflict('You cannot delete your own account');
      const old = await findManageable(request, request.params.id);
      await db.transaction(async (tx) => {
        await assertAdminRemains(tx, old);
        await tx.delete(users).where(eq(users.id, old.id));
        await audit(tx, request, {
          action: 'delete',
          entity: 'user',
          entityId: old.id,
          oldValue: toUser(old),
        });
      });
      return { message: 'User deleted' };
    },
  );
};
