import { api, segment } from '../../../lib/api-client.ts';
import type { InspectionReport } from '../../../types/api.ts';

/** The inspection report (docs/reports.md): header, checklist, flags, detections, signature. */
export const getReport = (id: string) => api.get<InspectionReport>(`/api/reports/${segment(id)}`);
