// /api/security-alerts: attempts at unauthorized use for those who run the system, and their
// shared review (server/audit/security-alerts.ts, docs/permissions.md "Security alerts").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { reviewSecurityAlerts, securityAlerts } from '../audit/security-alerts.ts';
import { errorResponses } from '../http/error-responses.ts';
import { SecurityAlerts, SecurityAlertsReviewBody } from '../schemas/security-alerts.ts';

/** Those who can unlock accounts see and review the alerts. */
const securityUnit = ['admin', 'factory_manager'] as const;
const errors = errorResponses;

export const securityAlertRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/security-alerts',
    {
      config: { access: securityUnit },
      schema: {
        tags: ['audit'],
        description:
          'Locked accounts, blocked addresses and refused requests since the last review, and the accounts locked now.',
        response: { 200: SecurityAlerts, ...errors },
      },
    },
    async () => securityAlerts(db),
  );

  app.post(
    '/security-alerts/review',
    {
      config: { access: securityUnit },
      schema: {
        tags: ['audit'],
        description:
          'Marks the alerts up to an audit entry as reviewed (audited); answers the alerts left.',
        body: SecurityAlertsReviewBody,
        response: { 200: SecurityAlerts, ...errors },
      },
    },
    async (request) => {
      await reviewSecurityAlerts(db, request, request.body.throughId);
      return securityAlerts(db);
    },
  );
};
