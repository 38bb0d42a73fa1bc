// Every /api route; each file mirrors a URL prefix and declares its access rule per route.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { analysisRoutes } from './analysis.ts';
import { auditLogRoutes } from './audit-log.ts';
import { authRoutes } from './auth.ts';
import { captureRoutes } from './capture.ts';
import { deviceRoutes } from './devices.ts';
import { floorplanConfigRoutes } from './floorplan-configs.ts';
import { floorplanRoutes } from './floorplans.ts';
import { healthRoutes } from './health.ts';
import { ingestRoutes } from './ingest.ts';
import { inspectionRoutes } from './inspections.ts';
import { instanceRoutes } from './instance.ts';
import { keyframeRoutes } from './keyframes.ts';
import { lineClearanceRoutes } from './line-clearances.ts';
import { predictionRoutes } from './predictions.ts';
import { reportRoutes } from './reports.ts';
import { reportOverviewRoutes } from './reports-overview.ts';
import { securityAlertRoutes } from './security-alerts.ts';
import { serviceAccountRoutes } from './service-accounts.ts';
import { uploadRoutes } from './uploads.ts';
import { userRoutes } from './users.ts';
import { usersCsvRoutes } from './users-csv.ts';
import { videoRoutes } from './videos.ts';

export const apiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const routes of [
    healthRoutes,
    instanceRoutes,
    authRoutes,
    auditLogRoutes,
    securityAlertRoutes,
    lineClearanceRoutes,
    userRoutes,
    usersCsvRoutes,
    deviceRoutes,
    inspectionRoutes,
    videoRoutes,
    keyframeRoutes,
    predictionRoutes,
    floorplanRoutes,
    floorplanConfigRoutes,
    analysisRoutes,
    serviceAccountRoutes,
    ingestRoutes,
    reportRoutes,
    reportOverviewRoutes,
    captureRoutes,
    uploadRoutes,
  ]) {
    await app.register(routes);
  }
};
