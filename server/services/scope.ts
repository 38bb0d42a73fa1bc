// Row visibility (docs/permissions.md): operators see their own records, LC managers the records
// of the lines they manage, admins, factory managers and auditors everything.
import { eq, inArray, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../context.ts';
import { inspections, lineClearances, type videos } from '../db/schema.ts';
import { hasRole } from './access.ts';

/**
 * A WHERE condition for the caller, or undefined when the caller sees every row. `id` stands for
 * the caller's id in the SQL: a placeholder lets one compiled query serve every user with these
 * roles.
 */
export function visibleTo(
  user: AuthUser,
  columns: { owner: PgColumn; line: PgColumn },
  id: string | Placeholder = user.id,
): SQL | undefined {
  if (hasRole(user, 'admin', 'factory_manager', 'audit')) return undefined;
  const conditions: SQL[] = [];
  if (hasRole(user, 'operator')) conditions.push(eq(columns.owner, id));
  if (hasRole(user, 'lc_manager')) {
    conditions.push(
      inArray(
        columns.line,
        sql`(select ${lineClearances.id} from ${lineClearances} where ${lineClearances.managerId} = ${id})`,
      ),
    );
  }
  return or(...conditions) ?? sql`false`;
}

/**
 * Throws `answer` (the 404 of a record that does not exist) for a record outside the caller's
 * scope, so ids cannot be probed. When such a record does exist, the request was a refused read,
 * an attempt at unauthorized use (21 CFR 11.300(d)): it is in the trail as a 403 is (repeats
 * merged), and so among the security alerts.
 */
export async function hiddenRecord(
  request: FastifyRequest,
  table: typeof inspections | typeof videos,
  match: SQL,
  answer: Error,
): Promise<never> {
  const [found] = await request.server.ctx.db
    .select({ id: table.id })
    .from(table)
    .where(match)
    .limit(1);
  if (found) await refusedRead(request, table === inspections ? 'an inspection' : 'a video');
  throw answer;
}

/** Audits the read of an existing record the caller may not see (`what`: 'an upload'). */
export function refusedRead(request: FastifyRequest, what: string): Promise<void> {
  return request.server.ctx.refusals.record(
    request,
    `${what} outside the records the caller may see`,
  );
}
