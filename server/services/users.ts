// Creating users is shared by the users routes, the first-admin seed and the demo loader.
import type { PasswordHasher } from '../auth/password.ts';
import type { Db, Tx } from '../db/client.ts';
import { users } from '../db/schema.ts';
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

export async function insertUser(db: Db | Tx, passwords: PasswordHasher, input: NewUser) {
  const [row] = await db
    .insert(users)
    .values({
      id: input.id ?? newId(),
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
