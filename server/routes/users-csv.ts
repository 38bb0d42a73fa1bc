// The user access review export (EU GMP Annex 11 §12, 21 CFR 11.10(d)): every account, deactivated
// ones too, with its roles, lines (worked on and managed), password and lock state and last
// sign-in, as a CSV to sign off.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, eq, gt, max, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { auditExport } from '../audit/exports.ts';
import type { Db } from '../db/client.ts';
import { accountLockouts, auditLog, lineClearances, users } from '../db/schema.ts';
import { type CsvCell, csvChunks } from '../http/csv.ts';
import { sendCsvInTurn } from '../http/download.ts';
import { errorResponses } from '../http/error-responses.ts';
import { iso } from '../ids.ts';
import { roleLabel } from '../schemas/role-labels.ts';

/** The Users tab's audience (the admin dashboard, routeRoles.factoryManager in the web app). */
const reviewers = ['admin', 'factory_manager'] as const;

const CSV_HEADER = [
  'Name',
  'Email',
  'Roles',
  'Status',
  'Line clearances',
  'Manages',
  'Created (UTC)',
  'Password set by',
  'Password changed (UTC)',
  'Locked until (UTC)',
  'Last sign-in (UTC)',
];

const setter = alias(users, 'setter');

/** The account's lines by name, either side as the capture loop counts them (`assignedLines`). */
const assignedLineNames = sql<string | null>`(
  select string_agg(${lineClearances.name}, '; ' order by ${lineClearances.name})
  from ${lineClearances}
  where ${lineClearances.id} = any(${users.lineClearanceIds})
    or ${users.id} = any(${lineClearances.assignedOperators}))`;

/** The lines that name the account as their LC manager (`managerId`), by name. */
const managedLineNames = sql<string | null>`(
  select string_agg(${lineClearances.name}, '; ' order by ${lineClearances.name})
  from ${lineClearances}
  where ${lineClearances.managerId} = ${users.id})`;

/**
 * One row per account. The last sign-in is one grouped pass over the `login` entries
 * (`audit_action_idx`), not a probe of the trail per account; a plant's accounts (hundreds) are
 * read at once.
 */
async function* accessRows(db: Db, now: Date): AsyncGenerator<CsvCell[][]> {
  const lastSignIn = db
    .select({ userId: auditLog.entityId, at: max(auditLog.at).as('at') })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'login'), eq(auditLog.entity, 'user')))
    .groupBy(auditLog.entityId)
    .as('last_sign_in');
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      roles: users.roles,
      status: users.status,
      lines: assignedLineNames,
      manages: managedLineNames,
      createdAt: users.createdAt,
      passwordSetBy: users.passwordSetBy,
      setterName: setter.name,
      setterEmail: setter.email,
      passwordChangedAt: users.passwordChangedAt,
      lockedUntil: accountLockouts.lockedUntil,
      lastSignIn: lastSignIn.at,
    })
    .from(users)
    .leftJoin(setter, eq(setter.id, users.passwordSetBy))
    .leftJoin(
      accountLockouts,
      and(eq(accountLockouts.userId, users.id), gt(accountLockouts.lockedUntil, now)),
    )
    .leftJoin(lastSignIn, eq(lastSignIn.userId, users.id))
    .orderBy(asc(users.name), asc(users.id));
  yield rows.map((row) => [
    row.name,
    row.email,
    row.roles.map(roleLabel).join('; '),
    row.status,
    row.lines,
    row.manages,
    iso(row.createdAt),
    passwordSetBy(row),
    iso(row.passwordChangedAt),
    row.lockedUntil && iso(row.lockedUntil),
    row.lastSignIn && iso(row.lastSignIn),
  ]);
}

/**
 * `users.password_set_by`: null once the user chose it; the user's own id for a password that
 * must be replaced (the first admin's from the deployment, or an expired one); else who reset it.
 */
function passwordSetBy(row: {
  id: string;
  passwordSetBy: string | null;
  setterName: string | null;
  setterEmail: string | null;
}): string {
  if (row.passwordSetBy === null) return 'the user';
  if (row.passwordSetBy === row.id) return 'the deployment or expired (to be replaced)';
  // A deleted setter is still known by its id, as the trail names it.
  return row.setterName === null ? row.passwordSetBy : `${row.setterName} (${row.setterEmail})`;
}

export const usersCsvRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  // A plain download link: the media cookie authorises it, as for the other CSV exports.
  app.get(
    '/users.csv',
    {
      config: { access: reviewers, media: true },
      schema: {
        tags: ['users'],
        description:
          'Every account (deactivated ones too) for the periodic user access review: roles, ' +
          'lines worked on and managed, status, password and lock state, last sign-in (UTC). ' +
          'Each download is an `export` entry of the audit trail.',
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const now = new Date();
      const file = `user-access-review-${iso(now).slice(0, 10)}.csv`;
      const csv = csvChunks(CSV_HEADER, accessRows(db, now));
      return sendCsvInTurn(app, reply, file, csv, () =>
        auditExport(db, request, { entity: 'user', file }),
      );
    },
  );
};
