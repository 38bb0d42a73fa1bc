// Password history and age (21 CFR 11.300(b): passwords are periodically revised, so a revision
// must not bring an old one back). Only the scrypt hashes of former passwords are kept, each as it
// was stored (its own cost), at most PASSWORD_HISTORY - 1 a user: with the current one, the last
// PASSWORD_HISTORY passwords. A user's own new password may be none of them; a manager's reset is
// not checked (the manager does not know them) but the password it replaces is kept all the same.
import { and, desc, eq, notInArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { passwordHistory } from '../db/schema.ts';
import type { PasswordHasher } from './password.ts';

/** The refusal of a password that is one of the last `count`, in the words of the others. */
export const reusedPasswordProblem = (count: number) =>
  `The new password must differ from your last ${count} passwords`;

/** Former passwords kept beside the current one for a history of `count` passwords. */
const formerKept = (count: number) => Math.max(0, count - 1);

/**
 * Whether `password` is one of the user's former passwords within the last `count`, newest first.
 * Each comparison is a scrypt run: they take the bounded queue's turns one after another (503 when
 * it is full), as any other password work.
 */
export async function isFormerPassword(
  db: Db,
  passwords: PasswordHasher,
  userId: string,
  password: string,
  count: number,
): Promise<boolean> {
  const kept = formerKept(count);
  if (kept === 0) return false;
  const former = await db
    .select({ passwordHash: passwordHistory.passwordHash })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, userId))
    .orderBy(desc(passwordHistory.id))
    .limit(kept);
  for (const { passwordHash } of former) {
    if (await passwords.verify(password, passwordHash)) return true;
  }
  return false;
}

/**
 * Keeps the hash of the password being replaced and drops what the history no longer needs (all
 * of it with a history of 0 or 1). In the transaction that replaces the password.
 */
export async function keepFormerPassword(
  tx: Tx,
  userId: string,
  replacedHash: string,
  count: number,
): Promise<void> {
  const kept = formerKept(count);
  if (kept > 0) await tx.insert(passwordHistory).values({ userId, passwordHash: replacedHash });
  const newest = tx
    .select({ id: passwordHistory.id })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, userId))
    .orderBy(desc(passwordHistory.id))
    .limit(kept);
  await tx
    .delete(passwordHistory)
    .where(and(eq(passwordHistory.userId, userId), notInArray(passwordHistory.id, newest)));
}

/** Whether a password set at `changedAt` is older than `maxAgeDays` (0: passwords never age). */
export function passwordExpired(changedAt: Date, maxAgeDays: number, now = new Date()): boolean {
  return maxAgeDays > 0 && now.getTime() - changedAt.getTime() > maxAgeDays * 86_400_000;
}
