import type { LineClearance } from '../../types/api.ts';

/**
 * Who may upload, delete and save for a line (docs/permissions.md, mirrored from the server's
 * `managesLine`): admins and factory managers for every line, an LC manager for the lines it
 * manages. Everyone else who may open /floorplans (audit) only looks; the server answers 403.
 */
export function canChangeLine(
  roles: readonly string[],
  userId: string | null,
  line: Pick<LineClearance, 'managerId'>,
): boolean {
  if (roles.includes('admin') || roles.includes('factory_manager')) return true;
  return roles.includes('lc_manager') && userId !== null && line.managerId === userId;
}
