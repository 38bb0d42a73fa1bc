// Whose accounts the signed-in user may manage, by the server's own rules
// (server/schemas/manageable-roles.ts, as `canManageUser` in server/services/access.ts applies
// them), so the Users tab offers only what the server would allow instead of a 403 after a click.
import {
  manageableRolesOf,
  seesAllLinesOf,
  sharedAccountRefusal,
  worksOn,
} from '../../server/schemas/manageable-roles.ts';
import { namedBlocker, type RecordCounts } from '../../server/schemas/named-records.ts';
import { roleLabel, roleList } from './roles.ts';

/** Roles whose accounts a user holding `userRoles` may create, change or delete, and may grant. */
export { manageableRolesOf as manageableRoles };

export interface ManagedAccount {
  _id: string;
  role?: string | readonly string[] | null;
  lineClearanceIds?: readonly string[] | null;
  /** The records naming the account (GET /api/users, to those who may delete users). */
  namedIn?: RecordCounts;
}

export interface LineAssignment {
  _id: string;
  name?: string;
  managerId?: string | null;
  assignedOperators?: readonly string[] | null;
}

export interface Manager {
  id: string | null;
  roles: readonly string[];
}

export const userManagementStrings = {
  /** Beside Edit or Delete on an account whose roles lie outside the caller's manageable set. */
  notManageable: (labels: readonly string[]) =>
    `You may not manage an account with the role${labels.length === 1 ? '' : 's'} ${labels.join(', ')}`,
  noRole: 'You may not manage an account without a role',
  /**
   * An LC manager manages only the operators of its own lines; 'Assign Operators' is spec §2's
   * 'coming soon', so it is told who assigns them (QA: a new plant's dead end).
   */
  notOnYourLines:
    'This operator works on no line you manage: an admin or factory manager assigns operators to lines (Users tab, Edit, Line clearances)',
  /** The server's own words (409): nobody deletes their own account. */
  ownAccount: 'You cannot delete your own account',
  /** The server's own words (409) for a status change on one's own account. */
  ownStatus: 'You cannot deactivate your own account',
  /** The server refuses (409) to delete an account records name: '3 inspections and 1 video'. */
  namedInRecords: (records: string) => `Named in ${records}: deactivate instead`,
} as const;

/**
 * Why `caller` may not change, deactivate or delete `target`, or null when it may: every role of
 * the target lies in the caller's manageable set and, for an LC manager, the target works on a
 * line it manages (the operator's `lineClearanceIds` name the line, or the line's
 * `assignedOperators` name the operator).
 */
export function manageBlocker(
  caller: Manager,
  target: ManagedAccount,
  lines: readonly LineAssignment[],
): string | null {
  const allowed: readonly string[] = manageableRolesOf(caller.roles);
  const targetRoles = roleList(target.role);
  const refused = targetRoles.filter((role) => !allowed.includes(role));
  if (targetRoles.length === 0) return userManagementStrings.noRole;
  if (refused.length > 0) return userManagementStrings.notManageable(refused.map(roleLabel));
  if (seesAllLinesOf(caller.roles)) return null;
  const account = { id: target._id, lineClearanceIds: target.lineClearanceIds ?? [] };
  const worksOnMine = lines.some(
    (line) =>
      caller.id !== null &&
      line.managerId === caller.id &&
      worksOn(account, { id: line._id, assignedOperators: line.assignedOperators ?? [] }),
  );
  return worksOnMine ? null : userManagementStrings.notOnYourLines;
}

/**
 * Why an LC manager may not change the account itself (name, status) nor delete it: it also works
 * on another LC manager's line. Null for those who see every line, or when all its lines are the
 * caller's.
 */
export function sharedBlocker(
  caller: Manager,
  target: ManagedAccount,
  lines: readonly LineAssignment[],
): string | null {
  if (seesAllLinesOf(caller.roles)) return null;
  const account = { id: target._id, lineClearanceIds: target.lineClearanceIds ?? [] };
  const others = lines.filter(
    (line) =>
      line.managerId !== caller.id &&
      worksOn(account, { id: line._id, assignedOperators: line.assignedOperators ?? [] }),
  );
  return others.length ? sharedAccountRefusal(others.map((line) => line.name ?? line._id)) : null;
}

/**
 * Why Delete would be refused, in the server's order: one's own account (409), else what
 * `manageBlocker` says, else an account shared with another LC manager's line, else the records
 * that name it (409; the list's `namedIn`).
 */
export function deleteBlocker(
  caller: Manager,
  target: ManagedAccount,
  lines: readonly LineAssignment[],
): string | null {
  if (caller.id !== null && target._id === caller.id) return userManagementStrings.ownAccount;
  return (
    manageBlocker(caller, target, lines) ??
    sharedBlocker(caller, target, lines) ??
    namedBlocker(target.namedIn, userManagementStrings.namedInRecords)
  );
}
