// How many records name each user, line clearance or device (server/schemas/named-records.ts),
// counted in one grouped query: a deletion's refusal (409) and the list's `namedIn` read the same
// counts, so the card never says otherwise than the server then does.
import { and, count, eq, inArray, isNotNull, ne, type SQL, sql } from 'drizzle-orm';
import { type PgColumn, type PgTable, unionAll } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import {
  deviceHolders,
  devices,
  dispositions,
  inspections,
  lineClearances,
  signatures,
  users,
  videos,
} from '../db/schema.ts';
import { evidenceProtected } from '../http/auth-hook.ts';
import { conflict } from '../http/errors.ts';
import {
  type DeviceNamedIn,
  isNamed,
  kindsInWords,
  type LineNamedIn,
  type RecordCounts,
  type RecordKind,
  type UserNamedIn,
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

/** An object records may name: its row, by id. */
type NamedTable = typeof users | typeof lineClearances | typeof devices;

/**
 * Holds the object's row until the transaction ends, as a record naming it is written (FOR KEY
 * SHARE); false when it is gone. Its deletion holds the row FOR UPDATE while it counts
 * (`deleteUnlessNamed`), so one waits for the other: either the deletion counts the new record and
 * refuses, or the writer finds the object gone. A record never names a deleted object.
 */
export async function holdNamed(tx: Tx, table: NamedTable, id: string): Promise<boolean> {
  const held = await tx
    .select({ id: table.id })
    .from(table)
    .where(eq(table.id, id))
    .for('key share');
  return held.length > 0;
}

/** What a deletion holds, counts and answers, for each kind of object records may name. */
const DELETIONS = {
  device: {
    table: devices,
    count: deviceNamedRecords,
    refusal: () =>
      'This device recorded inspections or videos and cannot be deleted; set its status to inactive instead',
  },
  'line-clearance': {
    table: lineClearances,
    count: lineNamedRecords,
    refusal: () =>
      'This line clearance has inspections or videos and cannot be deleted; set its status to inactive instead',
  },
  user: {
    table: users,
    count: userNamedRecords,
    refusal: (counts: RecordCounts) =>
      `This user is named in ${kindsInWords(counts)} and cannot be deleted; deactivate the account instead`,
  },
} as const;

/**
 * Deletes an object unless records name it, in one transaction that first holds its row FOR
 * UPDATE (see `holdNamed`), then counts what names it and runs `remove`. A named object answers
 * 409, audited as `evidence.protected` once the transaction has rolled back (inside it, the entry
 * would go too).
 */
export async function deleteUnlessNamed<T>(
  request: FastifyRequest,
  entity: keyof typeof DELETIONS,
  id: string,
  remove: (tx: Tx) => Promise<T>,
): Promise<T> {
  const { table, count, refusal } = DELETIONS[entity];
  let refused: string | null = null;
  return request.server.ctx.db
    .transaction(async (tx) => {
      await tx.select({ id: table.id }).from(table).where(eq(table.id, id)).for('update');
      const counts = (await count(tx, [id]))(id);
      if (isNamed(counts)) {
        refused = refusal(counts);
        throw conflict(refused);
      }
      return remove(tx);
    })
    .catch(async (error: unknown) => {
      if (refused) await evidenceProtected(request, { entity, entityId: id }, refused);
      throw error;
    });
}
