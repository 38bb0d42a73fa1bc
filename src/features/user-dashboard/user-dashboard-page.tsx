import { useSnapshot } from 'valtio';
import { Link, useLocation } from 'wouter';
import { BreadcrumbBar } from '../../components/breadcrumb-bar.tsx';
import { paths } from '../../config/paths.ts';
import { usePageHeading } from '../../hooks/use-heading-focus.ts';
import { session } from '../../stores/session.ts';

const s = {
  title: 'User Dashboard',
  welcome: (name: string) => `Welcome, ${name}`,
  videosTitle: 'Videos',
  videosText: 'Watch recorded line clearance inspection videos with their path and detections.',
  watchVideos: 'Watch Videos',
  floorplansTitle: 'Floorplans (Admin only)',
  floorplansText: 'Set up floorplans and calibrate tags, hot zones and cameras.',
  viewFloorplans: 'View Floorplans',
  adminRequired: 'Admin access required',
} as const;

/** Spec §2 /user. */
export default function UserDashboardPage() {
  const heading = usePageHeading(s.title);
  const snap = useSnapshot(session);
  const [, navigate] = useLocation();
  const isAdmin = snap.roles.includes('admin');

  return (
    <section className="page dashboard">
      <BreadcrumbBar />
      <h1 ref={heading} tabIndex={-1}>
        {s.title}
      </h1>
      <p className="muted">{s.welcome(snap.info?.name ?? '')}</p>
      <div className="card-grid">
        <article className="card">
          <h2>{s.videosTitle}</h2>
          <p className="muted">{s.videosText}</p>
          <Link href={paths.video} className="btn btn-primary">
            {s.watchVideos}
          </Link>
        </article>
        <article className="card">
          <h2>{s.floorplansTitle}</h2>
          <p className="muted">{s.floorplansText}</p>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!isAdmin}
            onClick={() => navigate(paths.floorplans)}
          >
            {s.viewFloorplans}
          </button>
          {!isAdmin && <p className="muted">{s.adminRequired}</p>}
        </article>
      </div>
    </section>
  );
}
