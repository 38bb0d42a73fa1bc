import { type ComponentType, type LazyExoticComponent, lazy, useEffect, useState } from 'react';
import { matchRoute, type Parser, Redirect, Route, Switch, useLocation } from 'wouter';
import { paths, routeRoles } from '../config/paths.ts';
import { hasAnyRole } from '../lib/roles.ts';
import { Guard } from './guard.tsx';
import { HomeRoute } from './home-route.tsx';
import { NotFoundPage } from './not-found-page.tsx';

// One chunk per route (React.lazy), so the start page loads none of the dashboards.
const LoginPage = lazy(() => import('../features/auth/login-page.tsx'));
const AdminDashboardPage = lazy(
  () => import('../features/admin-dashboard/admin-dashboard-page.tsx'),
);
const LcManagerDashboardPage = lazy(
  () => import('../features/lc-manager-dashboard/lc-manager-dashboard-page.tsx'),
);
const UserDashboardPage = lazy(() => import('../features/user-dashboard/user-dashboard-page.tsx'));
const OperatorDashboardPage = lazy(
  () => import('../features/operator-dashboard/operator-dashboard-page.tsx'),
);
const AuditDashboardPage = lazy(
  () => import('../features/audit-dashboard/audit-dashboard-page.tsx'),
);
const InspectionPage = lazy(() => import('../features/inspection/inspection-page.tsx'));
const InspectionReportPage = lazy(
  () => import('../features/inspection-report/inspection-report-page.tsx'),
);
const ReportsPage = lazy(() => import('../features/reports/reports-page.tsx'));
const AnalysisPage = lazy(() => import('../features/analysis/analysis-page.tsx'));

const VideoAnalysisPage = lazy(() => import('../features/video-analysis/video-analysis-page.tsx'));
const FloorplanManagerPage = lazy(
  () => import('../features/floorplans/floorplan-manager-page.tsx'),
);

type Page = LazyExoticComponent<ComponentType> | ComponentType;

/** Spec §2 route table, the routes behind the guard: each one's entry in `routeRoles`, and page. */
const guardedRoutes: readonly { path: string; access: keyof typeof routeRoles; Page: Page }[] = [
  { path: paths.admin, access: 'admin', Page: AdminDashboardPage },
  { path: paths.factoryManager, access: 'factoryManager', Page: AdminDashboardPage },
  { path: paths.lcManager, access: 'lcManager', Page: LcManagerDashboardPage },
  { path: paths.operator, access: 'operator', Page: OperatorDashboardPage },
  { path: paths.audit, access: 'audit', Page: AuditDashboardPage },
  { path: paths.inspection, access: 'inspection', Page: InspectionPage },
  { path: paths.inspectionReport, access: 'inspectionReport', Page: InspectionReportPage },
  { path: paths.user, access: 'user', Page: UserDashboardPage },
  { path: paths.video, access: 'video', Page: VideoAnalysisPage },
  { path: paths.videoWithId, access: 'video', Page: VideoAnalysisPage },
  { path: paths.floorplans, access: 'floorplans', Page: FloorplanManagerPage },
  { path: paths.reports, access: 'reports', Page: ReportsPage },
  { path: paths.analysis, access: 'analysis', Page: AnalysisPage },
];

/**
 * Whether `userRoles` open `location` (a path without its query) past the guard, as the route
 * table above matches it; false for a route needing no sign-in, or none.
 */
export function guardAdmits(parser: Parser, location: string, userRoles: readonly string[]) {
  const route = guardedRoutes.find(({ path }) => matchRoute(parser, path, location)[0]);
  return route !== undefined && hasAnyRole(userRoles, routeRoles[route.access]);
}

/** Spec §2 route table. */
export function AppRoutes() {
  // Where the app was opened, and whether the user has moved on since (see HomeRoute).
  const [location] = useLocation();
  const [openedAt] = useState(location);
  const [moved, setMoved] = useState(false);
  useEffect(() => {
    if (location !== openedAt) setMoved(true);
  }, [location, openedAt]);
  const landing = openedAt === paths.home && location === paths.home && !moved;

  return (
    <Switch>
      <Route path={paths.home}>
        <HomeRoute redirectOnLanding={landing} />
      </Route>
      <Route path={paths.login}>
        <LoginPage />
      </Route>
      <Route path={paths.videosAlias}>
        <Redirect to={paths.video} replace />
      </Route>
      {/* Keyed by access, not path: choosing a video (/video to /video/{id}) keeps its page. */}
      {guardedRoutes.map(({ path, access, Page }) => (
        <Route key={access} path={path}>
          <Guard roles={routeRoles[access]}>
            <Page />
          </Guard>
        </Route>
      ))}
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}
