// Checks that ids in a request body name existing records, answering 400 naming the field.
import { inArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { lineClearances, users } from '../db/schema.ts';
import { badRequest } from '../http/errors.ts';

async function assertExist(
  db: Db | Tx,
  table: typeof users | typeof lineClearances,
  ids: readonly string[],
  field: string,
): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const found = await db.select({ id: table.id }).from(table).where(inArray(table.id, unique));
  const known = new Set(found.map((row) => row.id));
  const missing = unique.find((id) => !known.has(id));
  if (missing !== undefined) throw badRequest(`${field} names an unknown record: ${missing}`);
}

export const assertUsersExist = (db: Db | Tx, ids: readonly string[], field: string) =>
  assertExist(db, users, ids, field);

export const assertLinesExist = (db: Db | Tx, ids: readonly string[], field: string) =>
  assertExist(db, lineClearances, ids, field);
