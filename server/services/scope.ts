// Row visibility (docs/permissions.md): operators see their own records, LC managers the records
// of the lines they manage, admins, factory managers and auditors everything.
import { eq, inArray, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AuthUser } from '../context.ts';
import { lineClearances } from '../db/schema.ts';
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
