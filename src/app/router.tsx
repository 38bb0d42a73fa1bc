import { type ComponentType, type LazyExoticComponent, lazy, useEffect, useState } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { paths, routeRoles } from '../config/paths.ts';
import type { Role } from '../lib/roles.ts';
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

function guarded(roles: readonly Role[], Page: Page) {
  return (
    <Guard roles={roles}>
      <Page />
    </Guard>
  );
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
      <Route path={paths.admin}>{guarded(routeRoles.admin, AdminDashboardPage)}</Route>
      <Route path={paths.factoryManager}>
        {guarded(routeRoles.factoryManager, AdminDashboardPage)}
      </Route>
      <Route path={paths.lcManager}>{guarded(routeRoles.lcManager, LcManagerDashboardPage)}</Route>
      <Route path={paths.operator}>{guarded(routeRoles.operator, OperatorDashboardPage)}</Route>
      <Route path={paths.audit}>{guarded(routeRoles.audit, AuditDashboardPage)}</Route>
      <Route path={paths.inspection}>{guarded(routeRoles.inspection, InspectionPage)}</Route>
      <Route path={paths.inspectionReport}>
        {guarded(routeRoles.inspectionReport, InspectionReportPage)}
      </Route>
      <Route path={paths.user}>{guarded(routeRoles.user, UserDashboardPage)}</Route>
      <Route path={paths.videosAlias}>
        <Redirect to={paths.video} replace />
      </Route>
      <Route path={paths.video}>{guarded(routeRoles.video, VideoAnalysisPage)}</Route>
      <Route path={paths.videoWithId}>{guarded(routeRoles.video, VideoAnalysisPage)}</Route>
      <Route path={paths.floorplans}>{guarded(routeRoles.floorplans, FloorplanManagerPage)}</Route>
      <Route path={paths.reports}>{guarded(routeRoles.reports, ReportsPage)}</Route>
      <Route path={paths.analysis}>{guarded(routeRoles.analysis, AnalysisPage)}</Route>
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}
