// GET /api/reports/overview with no line yet, for screen tests of the admin and factory-manager
// dashboard that are about something else.
import type { LinesOverview } from '../../src/types/api.ts';

export const noLinesOverview: LinesOverview = {
  asOf: '2026-11-20T12:00:00.000Z',
  windowDays: 30,
  overdueAfterHours: 24,
  totals: { pending: 0, overdue: 0, recentRejections: 0 },
  lines: [],
};
