// The database's clock, by which the audit trail dates its entries (`audit_log.at` defaults to
// now()). A record's own times taken from it agree with its trail entries whatever the clock of the
// server process says (several API processes, one database: their clocks may differ).
import { sql } from 'drizzle-orm';
import type { Db, Tx } from './client.ts';

/** The transaction's now() (its start), to the millisecond. */
export async function databaseNow(db: Db | Tx): Promise<Date> {
  const { rows } = (await db.execute(
    sql`select (extract(epoch from now()) * 1000)::float8 as ms`,
  )) as unknown as { rows: { ms: number }[] };
  const ms = Number(rows[0]?.ms);
  if (!Number.isFinite(ms)) throw new Error('the database did not answer its time');
  return new Date(ms);
}
