/** The role enumeration of spec §3. */
export const roles = ['factory_manager', 'lc_manager', 'operator', 'audit', 'admin'] as const;
export type Role = (typeof roles)[number];

/** Spec §4: the first of these a user holds is the primary role. */
const precedence: readonly Role[] = roles;

export function isRole(value: string): value is Role {
  return (roles as readonly string[]).includes(value);
}

export function primaryRole(userRoles: readonly string[]): Role | null {
  return precedence.find((role) => userRoles.includes(role)) ?? null;
}

export function hasAnyRole(userRoles: readonly string[], allowed: readonly Role[]): boolean {
  return allowed.some((role) => userRoles.includes(role));
}

/** Who reads the whole audit trail, and so a record's history on /audit (docs/permissions.md). */
export const trailReaders: readonly Role[] = ['audit', 'factory_manager', 'admin'];

/** Spec §2: where a signed-in user lands, by primary role. */
export const dashboardPathByRole: Record<Role, string> = {
  operator: '/operator',
  lc_manager: '/lc-manager',
  factory_manager: '/factory-manager',
  audit: '/audit',
  admin: '/admin',
};

/** Spec §2: each dashboard's name, by the primary role it belongs to. */
export const dashboardLabelByRole: Record<Role, string> = {
  operator: 'Operator Dashboard',
  lc_manager: 'Line Clearance Manager Dashboard',
  factory_manager: 'Factory Manager Dashboard',
  audit: 'Audit Dashboard',
  admin: 'Admin Dashboard',
};

export { roleLabel } from '../../server/schemas/role-labels.ts';

export type Severity = 'danger' | 'warning' | 'success' | 'info' | 'secondary';

/** Spec §6 role tag colours. */
const roleSeverities: Record<string, Severity> = {
  admin: 'danger',
  factory_manager: 'danger',
  lc_manager: 'warning',
  manager: 'warning',
  audit: 'success',
  operator: 'info',
  user: 'secondary',
};

export function roleSeverity(role: string): Severity {
  return roleSeverities[role] ?? 'secondary';
}

/** A stored user's role may be one string or a list (spec §3). */
export function roleList(role: string | readonly string[] | undefined | null): string[] {
  if (role == null) return [];
  return typeof role === 'string' ? [role] : [...role];
}
