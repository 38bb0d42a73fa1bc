import { api } from '../lib/api-client.ts';
import { queryString } from '../lib/query-string.ts';
import type { ReportPage, ReportsQuery } from '../types/api.ts';

/** GET /api/reports: one keyset page of inspection reports in the caller's scope. */
export const getReports = (query: ReportsQuery) =>
  api.get<ReportPage>(`/api/reports?${queryString(query)}`);

/** The CSV export of the same listing: a plain link (the media cookie authorises it). */
export const reportsCsvUrl = (query: ReportsQuery) => {
  const { after: _after, limit: _limit, ...filters } = query;
  return `/api/reports.csv?${queryString(filters)}`;
};

/** An inspection report's PDF, as a plain download link. */
export const reportPdfUrl = (inspectionId: string) =>
  `/api/reports/${encodeURIComponent(inspectionId)}/pdf`;
