import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { dashboardLabelByRole, dashboardPathByRole, primaryRole } from '../lib/roles.ts';
import { session } from '../stores/session.ts';

export interface BackTarget {
  path: string;
  label: string;
}

/** Spec §2: the back button leads to the primary role's dashboard; anything else to /admin. */
export function backTargetFor(roles: readonly string[]): BackTarget {
  const role = primaryRole(roles) ?? 'admin';
  return { path: dashboardPathByRole[role], label: dashboardLabelByRole[role] };
}

/**
 * Spec §2 current-page labels; a sub-path (/video/{id}) counts as its section. The report, which
 * §2 does not name, reads as its h1.
 */
const pageLabels: readonly (readonly [string, string])[] = [
  ['/floorplans', 'Floorplan Manager'],
  ['/video', 'Video Library'],
  ['/reports', 'Reports'],
  ['/analysis', 'Analysis'],
  ['/user', 'User Management'],
  ['/inspection-report', 'Inspection Report'],
];

export function currentPageLabel(pathname: string): string {
  const match = pageLabels.find(
    ([section]) => pathname === section || pathname.startsWith(`${section}/`),
  );
  return match?.[1] ?? 'Current Page';
}

/** Spec §2 breadcrumb bar: 'Back to {dashboard name}' and the current page's label. */
export function BreadcrumbBar() {
  const [location, navigate] = useLocation();
  const { roles } = useSnapshot(session);
  const back = backTargetFor(roles);
  return (
    <nav className="breadcrumb-bar" aria-label="Breadcrumb">
      <button type="button" className="btn btn-secondary" onClick={() => navigate(back.path)}>
        <span aria-hidden="true">←</span> Back to {back.label}
      </button>
      <span className="breadcrumb-current" aria-current="page">
        {currentPageLabel(location)}
      </span>
    </nav>
  );
}
