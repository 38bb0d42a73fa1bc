import type { LineClearance } from '../../types/api.ts';

/** Roles that read every report (docs/permissions.md, "Read scope"). */
const readsAll = ['admin', 'factory_manager', 'audit'];

/**
 * The lines whose reports the caller may see, for the Line filter: every line for admins, factory
 * managers and auditors; an LC manager's lines (`managerId`); for an operator, whose own reports
 * they are, the lines it works on (its `lineClearanceIds`, or the line's `assignedOperators`).
 * Several roles: the union. `me` is the caller's id and its own lines (GET /api/users).
 */
export function linesInReportScope(
  lines: readonly LineClearance[],
  roles: readonly string[],
  me: { id: string; lineClearanceIds: readonly string[] } | null,
): LineClearance[] {
  if (roles.some((role) => readsAll.includes(role))) return [...lines];
  if (!me) return [];
  return lines.filter(
    (line) =>
      (roles.includes('lc_manager') && line.managerId === me.id) ||
      (roles.includes('operator') &&
        (me.lineClearanceIds.includes(line._id) || line.assignedOperators.includes(me.id))),
  );
}
