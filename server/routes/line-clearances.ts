// Line clearances (also "areas"): list, create, edit, delete (spec §7).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { arrayOverlaps, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { audit } from '../audit/audit.ts';
import { changeReason, noBodyAsEmpty, unchanged, withReason } from '../audit/change-reason.ts';
import type { AuthUser } from '../context.ts';
import type { Db, Tx } from '../db/client.ts';
import { floorplanConfigs, floorplans, lineClearances, users } from '../db/schema.ts';
import { currentUser, denied } from '../http/auth-hook.ts';
import { errorResponses } from '../http/error-responses.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { newId } from '../ids.ts';
import { IdParams, MessageResponse } from '../schemas/common.ts';
import {
  LineClearance,
  LineClearanceCreate,
  LineClearanceDelete,
  type LineClearanceStatus,
  LineClearanceUpdate,
} from '../schemas/line-clearances.ts';
import {
  canManageRoles,
  canManageUser,
  hasRole,
  managesLine,
  seesAllLines,
} from '../services/access.ts';
import { deleteUnlessNamed, lineNamedRecords } from '../services/named-records.ts';
import { atVersion, notUpdated } from '../services/record-version.ts';
import { assertUsersExist } from '../services/references.ts';

type Row = typeof lineClearances.$inferSelect;

export const toLineClearance = (row: Row): LineClearance => ({
  _id: row.id,
  name: row.name,
  description: row.description,
  location: row.location,
  status: row.status as LineClearanceStatus,
  managerId: row.managerId,
  assignedOperators: row.assignedOperators,
  version: row.version,
});

export async function findLine(db: Db, id: string): Promise<Row> {
  const [row] = await db.select().from(lineClearances).where(eq(lineClearances.id, id));
  if (!row) throw notFound('Line clearance');
  return row;
}

/** A name as lines are told apart: trimmed and in NFC (as the body guard stores it), any case. */
const nameKey = (name: string) => name.trim().normalize('NFC').toLowerCase();

/**
 * Refuses (409) a name another line has in another case or Unicode form: two lines that print
 * alike would be mistaken for each other on every record. Creates and renames take turns (the
 * lock, held until the transaction ends; 7243001 and 7243002 are the audit chain's and the
 * codes'), so two of them cannot both take one name.
 */
async function assertNameFree(tx: Tx, name: string, exceptId?: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(7243003)`);
  const key = nameKey(name);
  const rows = await tx
    .select({ id: lineClearances.id, name: lineClearances.name })
    .from(lineClearances);
  const other = rows.find((row) => row.id !== exceptId && nameKey(row.name) === key);
  if (other) {
    throw conflict(
      `body.name is the name of the line clearance '${other.name}' already (names are compared in any case); choose another`,
    );
  }
}

const MANAGERS = ['admin', 'factory_manager', 'lc_manager'] as const;
const errors = errorResponses;

/** An LC manager always manages what it creates; others may name any manager (or none). */
function managerFor(user: AuthUser, requested: string | null | undefined): string | null {
  return seesAllLines(user) ? (requested ?? null) : user.id;
}

export const lineClearanceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  /** A line's manager signs its records: a user holding the LC manager role (a kept one stays). */
  async function assertManagerRole(managerId: string | null, kept: string | null = null) {
    if (!managerId || managerId === kept) return;
    const [row] = await db
      .select({ roles: users.roles })
      .from(users)
      .where(eq(users.id, managerId));
    if (row && !row.roles.includes('lc_manager')) {
      throw badRequest('body.managerId must name a user with the LC manager role');
    }
  }

  /**
   * Listing an operator on a line gives the line's LC manager authority over the account, so an
   * LC manager may add only operators it already manages or that work on no line yet.
   */
  async function assertMayAssign(request: FastifyRequest, old: string[], next: string[]) {
    const user = currentUser(request);
    const added = next.filter((id) => !old.includes(id));
    if (seesAllLines(user) || added.length === 0) return;
    const targets = await db.select().from(users).where(inArray(users.id, added));
    const mine = await db
      .select({ id: lineClearances.id, assignedOperators: lineClearances.assignedOperators })
      .from(lineClearances)
      .where(eq(lineClearances.managerId, user.id));
    const listing = await db
      .select({ id: lineClearances.id, assignedOperators: lineClearances.assignedOperators })
      .from(lineClearances)
      .where(arrayOverlaps(lineClearances.assignedOperators, added));
    for (const target of targets) {
      const unassigned =
        target.lineClearanceIds.length === 0 &&
        !listing.some((line) => line.assignedOperators.includes(target.id));
      const mayAssign = unassigned
        ? canManageRoles(user, target.roles)
        : canManageUser(user, target, mine);
      if (!mayAssign) await denied(request, 'may only assign operators this manager manages');
    }
  }

  app.get(
    '/line-clearances',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['line-clearances'],
        response: { 200: Type.Array(LineClearance), ...errors },
      },
    },
    async (request) => {
      const rows = await db.select().from(lineClearances).orderBy(asc(lineClearances.name));
      if (!hasRole(currentUser(request), ...MANAGERS)) return rows.map(toLineClearance);
      // Those who may delete a line see what names it, so its card says so before a 409 would.
      const namedRecords = await lineNamedRecords(db);
      return rows.map((row) => ({ ...toLineClearance(row), namedIn: namedRecords(row.id) }));
    },
  );

  for (const url of ['/line-clearances', '/areas']) {
    app.post(
      url,
      {
        config: { access: MANAGERS },
        schema: {
          tags: ['line-clearances'],
          body: LineClearanceCreate,
          response: { 201: LineClearance, ...errors },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const body = request.body;
        const managerId = managerFor(user, body.managerId);
        await assertUsersExist(db, managerId ? [managerId] : [], 'body.managerId');
        await assertManagerRole(managerId);
        await assertUsersExist(db, body.assignedOperators ?? [], 'body.assignedOperators');
        await assertMayAssign(request, [], body.assignedOperators ?? []);
        const row = await db.transaction(async (tx) => {
          await assertNameFree(tx, body.name);
          const [created] = await tx
            .insert(lineClearances)
            .values({
              id: newId(),
              name: body.name.trim(),
              description: body.description ?? '',
              location: body.location ?? '',
              status: body.status ?? 'active',
              managerId,
              assignedOperators: [...new Set(body.assignedOperators ?? [])],
            })
            .returning();
          if (!created) throw new Error('insert returned no row');
          await audit(tx, request, {
            action: 'create',
            entity: 'line-clearance',
            entityId: created.id,
            newValue: toLineClearance(created),
          });
          return created;
        });
        return reply.status(201).send(toLineClearance(row));
      },
    );
  }

  app.put(
    '/line-clearances/:id',
    {
      config: { access: MANAGERS },
      schema: {
        tags: ['line-clearances'],
        params: IdParams,
        body: LineClearanceUpdate,
        response: { 200: LineClearance, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const body = request.body;
      const reason = changeReason(body.reason, 'the line clearance is changed');
      const old = await findLine(db, request.params.id);
      if (!managesLine(user, old)) await denied(request, 'not the manager of this line clearance');
      const managerId = seesAllLines(user)
        ? body.managerId === undefined
          ? old.managerId
          : body.managerId
        : user.id;
      await assertUsersExist(db, managerId ? [managerId] : [], 'body.managerId');
      await assertManagerRole(managerId, old.managerId);
      await assertUsersExist(db, body.assignedOperators ?? [], 'body.assignedOperators');
      await assertMayAssign(request, old.assignedOperators, body.assignedOperators ?? []);
      return db.transaction(async (tx) => {
        // A line kept under its name is not refused for a look-alike saved before this rule.
        if (nameKey(body.name) !== nameKey(old.name)) await assertNameFree(tx, body.name, old.id);
        const [row] = await tx
          .update(lineClearances)
          .set({
            name: body.name.trim(),
            description: body.description ?? old.description,
            location: body.location ?? old.location,
            status: body.status ?? old.status,
            managerId,
            assignedOperators: body.assignedOperators
              ? [...new Set(body.assignedOperators)]
              : old.assignedOperators,
          })
          .where(atVersion('line-clearance', old.id, body.version))
          .returning();
        if (!row) throw await notUpdated(tx, request, 'line-clearance', old.id, 'Line clearance');
        const [before, after] = [toLineClearance(old), toLineClearance(row)];
        if (!unchanged(before, after)) {
          await audit(tx, request, {
            action: 'update',
            entity: 'line-clearance',
            entityId: row.id,
            ...withReason(reason, before, after),
          });
        }
        return after;
      });
    },
  );

  app.delete(
    '/line-clearances/:id',
    {
      config: { access: MANAGERS },
      preValidation: noBodyAsEmpty,
      schema: {
        tags: ['line-clearances'],
        params: IdParams,
        body: LineClearanceDelete,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const reason = changeReason(request.body.reason, 'the line clearance is deleted');
      const old = await findLine(db, request.params.id);
      if (!managesLine(user, old)) await denied(request, 'not the manager of this line clearance');
      // Inspections and videos are GMP evidence: a line that has them is retired, not deleted.
      const removedImages = await deleteUnlessNamed(
        request,
        'line-clearance',
        old.id,
        async (tx) => {
          const plans = await tx
            .delete(floorplans)
            .where(eq(floorplans.lineId, old.id))
            .returning();
          const configs = await tx
            .delete(floorplanConfigs)
            .where(eq(floorplanConfigs.lineClearanceId, old.id))
            .returning();
          await tx.delete(lineClearances).where(eq(lineClearances.id, old.id));
          await audit(tx, request, {
            action: 'delete',
            entity: 'line-clearance',
            entityId: old.id,
            ...withReason(reason, {
              ...toLineClearance(old),
              floorplans: plans,
              floorplanConfigs: configs,
            }),
          });
          return plans.map((plan) => plan.imageKey);
        },
      );
      // Files go only after the rows are gone for good.
      await Promise.all(removedImages.map((key) => app.ctx.storage.delete(key)));
      return { message: 'Line clearance deleted' };
    },
  );
};
