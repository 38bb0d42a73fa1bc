import { useSnapshot } from 'valtio';
import { getReports } from '../../api/get-reports.ts';
import { ReportTable } from '../../components/report-table.tsx';
import { usePageHeading } from '../../hooks/use-heading-focus.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { hasAnyRole, roleList, trailReaders } from '../../lib/roles.ts';
import { session } from '../../stores/session.ts';
import type { InspectionStatus } from '../../types/api.ts';
import { AuditTrailSection } from './audit-trail-section.tsx';
import './audit-dashboard.css';

const GLANCE = 10;

function StatusGlance({ status, roles }: { status: InspectionStatus; roles: string[] }) {
  const { data } = useLoad(
    () => getReports({ status, limit: GLANCE }),
    'Failed to load inspections',
  );
  const title = { pending: 'Pending', approved: 'Approved', rejected: 'Rejected' }[status];
  return (
    <section className="audit-panel" aria-labelledby={`glance-${status}`}>
      <h2 id={`glance-${status}`}>
        {title} inspections <span className="muted">(latest {GLANCE})</span>
      </h2>
      {data && data.rows.length === 0 && <p className="muted">None.</p>}
      {data && data.rows.length > 0 && (
        <ReportTable rows={data.rows} roles={roles} caption={`${title} inspections`} />
      )}
    </section>
  );
}

/** /audit (spec §2 'Audit Dashboard'): inspections at a glance and the audit trail. */
export default function AuditDashboardPage() {
  const heading = usePageHeading('Audit Dashboard');
  const { roles } = useSnapshot(session);
  const mine = roleList(roles);
  const readsTrail = hasAnyRole(mine, trailReaders);
  return (
    <section className="audit-page">
      <header>
        <h1 ref={heading} tabIndex={-1}>
          Audit Dashboard
        </h1>
        <p className="muted">
          {readsTrail
            ? 'Inspections by review status, and the hash-chained audit trail of every change.'
            : 'Inspections on the lines you manage, by review status.'}
        </p>
      </header>
      <StatusGlance status="pending" roles={mine} />
      <StatusGlance status="approved" roles={mine} />
      <StatusGlance status="rejected" roles={mine} />
      {readsTrail && <AuditTrailSection />}
    </section>
  );
}
