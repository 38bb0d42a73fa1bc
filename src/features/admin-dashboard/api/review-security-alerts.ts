import { api } from '../../../lib/api-client.ts';
import type { SecurityAlerts } from '../../../types/api.ts';

/** Marks the alerts up to audit entry `throughId` as reviewed (audited); answers what is left. */
export const reviewSecurityAlerts = (throughId: number) =>
  api.post<SecurityAlerts>('/api/security-alerts/review', { throughId });
