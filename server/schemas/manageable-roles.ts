// Whose accounts a user may create, change or delete (docs/permissions.md): one set of rules for
// the server's checks (services/access.ts) and the web app, which offers only what the server
// allows (a pure module without server imports, so the web app can bundle it).
import type { Role } from './common.ts';

/**
 * The roles whose accounts a holder of `roles` manages (and may grant), in the order offered; never
 * 'service' (API keys are not user accounts).
 */
export function manageableRolesOf(roles: readonly string[]): Exclude<Role, 'service'>[] {
  if (roles.includes('admin'))
    return ['factory_manager', 'lc_manager', 'operator', 'audit', 'admin'];
  if (roles.includes('factory_manager')) return ['lc_manager', 'operator', 'audit'];
  if (roles.includes('lc_manager')) return ['operator'];
  return [];
}

/** Admins and factory managers oversee every line; an LC manager only the lines it manages. */
export const seesAllLinesOf = (roles: readonly string[]) =>
  roles.includes('admin') || roles.includes('factory_manager');

/** An account works on a line when its own list names the line or the line lists the account. */
export const worksOn = (
  account: { id: string; lineClearanceIds: readonly string[] },
  line: { id: string; assignedOperators: readonly string[] },
): boolean =>
  account.lineClearanceIds.includes(line.id) || line.assignedOperators.includes(account.id);

/**
 * Why an LC manager may not change an account itself (its name, its status) nor delete it: it
 * also works on these lines, which it does not manage (another manager's, or none's), so the
 * account is not its alone (server/routes/users.ts).
 */
export function sharedAccountRefusal(lineNames: readonly string[]): string {
  const names =
    lineNames.length === 1
      ? `${lineNames[0]}, a line`
      : `${lineNames.slice(0, -1).join(', ')} and ${lineNames.at(-1)}, lines`;
  return `The user also works on ${names} you do not manage: only an admin or a factory manager changes or deletes the account itself`;
}
