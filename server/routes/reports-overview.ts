// GET /api/reports/overview: the line clearance overview of the factory manager's and the admin's
// dashboard (server/reports/overview.ts, docs/reports.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser } from '../http/auth-hook.ts';
import { errorResponses } from '../http/error-responses.ts';
import { linesOverview, OVERVIEW_WINDOW_DAYS } from '../reports/overview.ts';
import { LinesOverview, OVERDUE_AFTER_HOURS } from '../schemas/reports-overview.ts';

/** Those who run the plant: spec §2 gives them 'Factory Overview' and the admin dashboard. */
const plantManagers = ['factory_manager', 'admin'] as const;

export const reportOverviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/reports/overview',
    {
      config: { access: plantManagers },
      schema: {
        tags: ['reports'],
        description:
          'Every line clearance, active ones first: its LC manager, its last signed result, the ' +
          `inspections pending (and those pending over ${OVERDUE_AFTER_HOURS} h: overdue), and ` +
          `the inspections and rejections of those started in the last ${OVERVIEW_WINDOW_DAYS} days.`,
        response: { 200: LinesOverview, ...errorResponses },
      },
    },
    async (request) => linesOverview(app.ctx.db, currentUser(request)),
  );
};
