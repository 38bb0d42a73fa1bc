// Object-level rules shared by routes (docs/permissions.md): who sees and manages what.
import type { AuthUser } from '../context.ts';
import type { Role } from '../schemas/common.ts';

export const hasRole = (user: AuthUser, ...roles: Role[]) =>
  user.roles.some((role) => roles.includes(role));

/** Admins and factory managers oversee every line; an LC manager only the lines it manages. */
export const seesAllLines = (user: AuthUser) => hasRole(user, 'admin', 'factory_manager');

export const managesLine = (user: AuthUser, line: { managerId: string | null }) =>
  seesAllLines(user) || (hasRole(user, 'lc_manager') && line.managerId === user.id);

/** Roles whose accounts a user may create, change or delete. */
export function manageableRoles(user: AuthUser): Set<Role> {
  if (hasRole(user, 'admin')) {
    return new Set<Role>(['admin', 'factory_manager', 'lc_manager', 'audit', 'operator']);
  }
  if (hasRole(user, 'factory_manager')) return new Set<Role>(['lc_manager', 'audit', 'operator']);
  if (hasRole(user, 'lc_manager')) return new Set<Role>(['operator']);
  return new Set();
}

export const canManageRoles = (user: AuthUser, roles: readonly Role[]) => {
  const allowed = manageableRoles(user);
  return roles.length > 0 && roles.every((role) => allowed.has(role));
};
