import { useId } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { paths, routeRoles } from '../config/paths.ts';
import { hasAnyRole } from '../lib/roles.ts';
import { session } from '../stores/session.ts';

export interface QuickAction {
  label: string;
  onClick: () => void;
}

/**
 * A dashboard's Quick Actions card: its own buttons, then the links every dashboard has (§2),
 * and the Audit Dashboard for the roles the route table lets in there.
 */
export function QuickActions({ actions }: { actions: readonly QuickAction[] }) {
  const headingId = useId();
  const { roles } = useSnapshot(session);
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Quick Actions</h2>
      <div className="actions">
        {actions.map((action) => (
          <button
            key={action.label}
            type="button"
            className="btn btn-primary"
            onClick={action.onClick}
          >
            {action.label}
          </button>
        ))}
        <Link href={paths.floorplans} className="btn btn-secondary">
          Manage Floorplans
        </Link>
        <Link href={paths.video} className="btn btn-secondary">
          View Videos
        </Link>
        <Link href={paths.reports} className="btn btn-secondary">
          View Reports
        </Link>
        {hasAnyRole(roles, routeRoles.audit) && (
          <Link href={paths.audit} className="btn btn-secondary">
            Audit Dashboard
          </Link>
        )}
      </div>
    </section>
  );
}
