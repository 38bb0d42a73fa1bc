import { api, segment } from '../../../lib/api-client.ts';
import type { Inspection } from '../../../types/api.ts';

export type ReviewDecision = 'approve' | 'reject';

/** Spec §7: PATCH /api/inspections/{id}/approve or /reject with the reviewer's notes. */
export const reviewInspection = (id: string, decision: ReviewDecision, notes: string) =>
  api.patch<Inspection>(`/api/inspections/${segment(id)}/${decision}`, { notes });
