import { api, segment } from '../lib/api-client.ts';
import { queryString } from '../lib/query-string.ts';
import type {
  InspectionReport,
  ReportFilters,
  ReportPage,
  ReportsQuery,
  SignatureCheck,
} from '../types/api.ts';

/** GET /api/reports: one keyset page of inspection reports in the caller's scope. */
export const getReports = (query: ReportsQuery) =>
  api.get<ReportPage>(`/api/reports?${queryString(query)}`);

/** GET /api/reports/filters: the lines and operators of the caller's reports, for the filters. */
export const getReportFilters = () => api.get<ReportFilters>('/api/reports/filters');

/**
 * POST /api/reports/check-signatures: starts building every signed record again against its
 * signature in the background (or joins the run going); answers the run's state at once.
 */
export const checkSignatures = () => api.post<SignatureCheck>('/api/reports/check-signatures');

/** GET /api/reports/check-signatures: the signature check going (its progress) or the last one. */
export const getSignatureCheck = () => api.get<SignatureCheck>('/api/reports/check-signatures');

/** The CSV export of the same listing: a plain link (the media cookie authorises it). */
export const reportsCsvUrl = (query: ReportsQuery) => {
  const { after: _after, limit: _limit, ...filters } = query;
  return `/api/reports.csv?${queryString(filters)}`;
};

/** An inspection report's PDF, as a plain download link. */
export const reportPdfUrl = (inspectionId: string) =>
  `/api/reports/${encodeURIComponent(inspectionId)}/pdf`;

/** An inspection record's electronic copy (JSON: what its hash is taken of, report, history). */
export const reportCopyUrl = (inspectionId: string) =>
  `/api/reports/${encodeURIComponent(inspectionId)}/record.json`;

/** The inspection report (docs/reports.md): header, checklist, flags, detections, signature. */
export const getReport = (id: string) => api.get<InspectionReport>(`/api/reports/${segment(id)}`);

/** Whether `id` has the form of a record id (24 hex digits, the server's `Id` schema). */
export const isInspectionId = (id: string) => /^[0-9a-f]{24}$/.test(id);
