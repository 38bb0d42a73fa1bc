// Creating users is shared by the users routes, the first-admin seed and the demo loader; so is
// the rule that an email address stays with the user who held it.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { PasswordHasher } from '../auth/password.ts';
import type { Db, Tx } from '../db/client.ts';
import { auditLog, userEmails, users } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';
import { newId } from '../ids.ts';
import type { Role } from '../schemas/common.ts';

export interface NewUser {
  /** Preset id (the demo loader resolves references before inserting); new otherwise. */
  id?: string;
  name: string;
  email: string;
  password: string;
  roles: Role[];
  lineClearanceIds?: string[];
  assignedOperators?: string[];
  /** The manager who chose the password (not the user); seeded and demo accounts have none. */
  passwordSetBy?: string;
}

export const EMAIL_IN_USE = 'A user with this email already exists';

/**
 * How a 409 names a user (an address's holder, a record's last editor): its name, else its name
 * when deleted.
 */
export async function holderName(db: Db | Tx, userId: string): Promise<string> {
  const [user] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId));
  if (user) return user.name;
  // A deleted user's name is in the old value of its delete entry (audit_entity_idx).
  const [entry] = await db
    .select({ name: sql<string | null>`${auditLog.oldValue}->>'name'` })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, 'user'),
        eq(auditLog.entityId, userId),
        eq(auditLog.action, 'delete'),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(1);
  return entry?.name ? `${entry.name}, deleted` : 'a deleted user';
}

/**
 * Why `email` cannot be given to the user `userId` (null: a new user), or null when it can: an
 * address a user holds or held stays that user's for good (21 CFR 11.100(a): a signature, and the
 * trail's entries filed under the address, never pass to someone else). Its holder may take it
 * back. The `user_emails` trigger (migration 0015) enforces the same rule in the database.
 */
export async function emailRefusal(
  db: Db | Tx,
  email: string,
  userId: string | null,
): Promise<string | null> {
  const address = email.trim().toLowerCase();
  const [held] = await db
    .select({ userId: userEmails.userId, current: users.email })
    .from(userEmails)
    .leftJoin(users, eq(users.id, userEmails.userId))
    .where(eq(userEmails.email, address));
  if (!held || held.userId === userId) return null;
  if (held.current === address) return EMAIL_IN_USE;
  return `This email address belonged to another user (${await holderName(db, held.userId)}); an email address is never given to a second person (21 CFR 11.100)`;
}

export async function insertUser(db: Db | Tx, passwords: PasswordHasher, input: NewUser) {
  const id = input.id ?? newId();
  const refusal = await emailRefusal(db, input.email, id);
  if (refusal) throw conflict(refusal);
  const [row] = await db
    .insert(users)
    .values({
      id,
      name: input.name.trim(),
      email: input.email.trim().toLowerCase(),
      passwordHash: await passwords.hash(input.password),
      passwordSetBy: input.passwordSetBy ?? null,
      roles: [...new Set(input.roles)],
      lineClearanceIds: input.lineClearanceIds ?? [],
      assignedOperators: input.assignedOperators ?? [],
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}
