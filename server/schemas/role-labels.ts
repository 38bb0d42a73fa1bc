// Role labels as every screen and export shows them; import-free, so the web app bundles it as
// code (src/lib/roles.ts) and the server's user access export (routes/users-csv.ts) prints the same.

/** Spec §6 labels; the legacy labels 'manager' and 'user' still appear in stored users. */
const roleLabels: Record<string, string> = {
  admin: 'Admin',
  factory_manager: 'Factory Manager',
  lc_manager: 'Line Clearance Manager',
  audit: 'Audit',
  operator: 'Operator',
  manager: 'Manager',
  user: 'User',
};

export function roleLabel(role: string): string {
  return roleLabels[role] ?? role;
}
