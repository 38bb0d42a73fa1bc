import { api } from '../../../lib/api-client.ts';
import type { LinesOverview } from '../../../types/api.ts';

/** How line clearance goes on every line: pending, overdue, last verdict, the 30 days' counts. */
export const getLinesOverview = () => api.get<LinesOverview>('/api/reports/overview');
