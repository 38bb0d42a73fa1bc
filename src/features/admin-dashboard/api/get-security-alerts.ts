import { api } from '../../../lib/api-client.ts';
import type { SecurityAlerts } from '../../../types/api.ts';

/** Alerts since the last review and the accounts locked now (21 CFR 11.300(d)). */
export const getSecurityAlerts = () => api.get<SecurityAlerts>('/api/security-alerts');
