// How many records name each user, line clearance or device (server/schemas/named-records.ts),
// counted in one grouped query: a deletion's refusal (409) and the list's `namedIn` read the same
// counts, so the card never says otherwise than the server then does.
import { and, count, inArray, isNotNull, ne, type SQL, sql } from 'drizzle-orm';
import { type PgColumn, type PgTable, unionAll } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client.ts';
import { deviceHolders, dispositions, inspections, signatures, videos } from '../db/schema.ts';
import type {
  DeviceNamedIn,
  LineNamedIn,
  RecordKind,
  UserNamedIn,
} from '../schemas/named-records.ts';

/** Rows of `table` whose `column` names the object count as one record of `kind`. */
interface Naming<Kind extends RecordKind> {
  kind: Kind;
  table: PgTable;
  column: PgColumn;
  where?: SQL;
}
type Namings<Kind extends RecordKind> = readonly [Naming<Kind>, ...Naming<Kind>[]];

const USER_NAMINGS: Namings<keyof UserNamedIn> = [
  { kind: 'inspections', table: inspections, column: inspections.operatorId },
  // An inspection its own operator reviewed counts once.
  {
    kind: 'inspections',
    table: inspections,
    column: inspections.reviewerId,
    where: ne(inspections.reviewerId, inspections.operatorId),
  },
  { kind: 'videos', table: videos, column: videos.userId },
  { kind: 'signatures', table: signatures, column: signatures.signerId },
  { kind: 'dispositions', table: dispositions, column: dispositions.reviewerId },
  { kind: 'deviceRegistrations', table: deviceHolders, column: deviceHolders.userId },
];

const LINE_NAMINGS: Namings<keyof LineNamedIn> = [
  { kind: 'inspections', table: inspections, column: inspections.lineClearanceId },
  { kind: 'videos', table: videos, column: videos.lineClearanceId },
];

const DEVICE_NAMINGS: Namings<keyof DeviceNamedIn> = [
  { kind: 'videos', table: videos, column: videos.deviceId },
];

/**
 * Each object's counts (every kind, 0 when none) by its id, from one query (grouped counts, one
 * branch a naming); `ids` narrows it to those objects (a deletion's check).
 */
async function countNamings<Kind extends RecordKind>(
  db: Db | Tx,
  [head, ...tail]: Namings<Kind>,
  ids?: readonly string[],
): Promise<(id: string) => Record<Kind, number>> {
  const select = ({ kind, table, column, where }: Naming<Kind>) =>
    db
      .select({
        id: sql<string>`${column}`.as('id'),
        kind: sql<Kind>`${kind}::text`.as('kind'),
        n: count().as('n'),
      })
      .from(table)
      .where(and(ids ? inArray(column, [...ids]) : isNotNull(column), where))
      .groupBy(column);
  const first = select(head);
  const [second, ...others] = tail.map(select);
  const rows = await (second ? unionAll(first, second, ...others) : first);
  const zero = Object.fromEntries([head, ...tail].map(({ kind }) => [kind, 0])) as Record<
    Kind,
    number
  >;
  const counts = new Map<string, Record<Kind, number>>();
  for (const { id, kind, n } of rows) {
    const found = counts.get(id) ?? { ...zero };
    found[kind] += n;
    counts.set(id, found);
  }
  return (id) => counts.get(id) ?? { ...zero };
}

/** The records naming each user (all users, or `ids`). */
export const userNamedRecords = (db: Db | Tx, ids?: readonly string[]) =>
  countNamings(db, USER_NAMINGS, ids);

/** The inspections and videos naming each line clearance (all, or `ids`). */
export const lineNamedRecords = (db: Db | Tx, ids?: readonly string[]) =>
  countNamings(db, LINE_NAMINGS, ids);

/** The videos each device recorded (all devices, or `ids`). */
export const deviceNamedRecords = (db: Db | Tx, ids?: readonly string[]) =>
  countNamings(db, DEVICE_NAMINGS, ids);
