// Object-level rules shared by routes (docs/permissions.md): who sees and manages what.
import type { AuthUser } from '../context.ts';
import type { Role } from '../schemas/common.ts';
import { manageableRolesOf, seesAllLinesOf, worksOn } from '../schemas/manageable-roles.ts';

export const hasRole = (user: AuthUser, ...roles: Role[]) =>
  user.roles.some((role) => roles.includes(role));

/** Admins and factory managers oversee every line; an LC manager only the lines it manages. */
export const seesAllLines = (user: AuthUser) => seesAllLinesOf(user.roles);

export const managesLine = (user: AuthUser, line: { managerId: string | null }) =>
  seesAllLines(user) || (hasRole(user, 'lc_manager') && line.managerId === user.id);

/** Admins and factory managers may set another user's password or email; LC managers never. */
export const setsCredentials = (user: AuthUser) => hasRole(user, 'admin', 'factory_manager');

/** A line and the operators it lists: what an LC manager's authority over accounts rests on. */
export interface LineAssignment {
  id: string;
  assignedOperators: string[];
}

/** Roles whose accounts a user may create, change or delete. */
export const manageableRoles = (user: AuthUser): Set<Role> =>
  new Set(manageableRolesOf(user.roles));

export const canManageRoles = (user: AuthUser, roles: readonly Role[]) => {
  const allowed = manageableRoles(user);
  return roles.length > 0 && roles.every((role) => allowed.has(role));
};

/**
 * Whether `user` may change, deactivate or delete the account `target`: every role of the target
 * lies in the user's manageable set and, for an LC manager, the target works on one of the lines
 * it manages (`managedLines`: the lines whose managerId is the user).
 */
export function canManageUser(
  user: AuthUser,
  target: { id: string; roles: readonly Role[]; lineClearanceIds: string[] },
  managedLines: readonly LineAssignment[],
): boolean {
  if (!canManageRoles(user, target.roles)) return false;
  return seesAllLines(user) || managedLines.some((line) => worksOn(target, line));
}
