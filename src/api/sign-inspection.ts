import { api, segment } from '../lib/api-client.ts';
import type { Inspection } from '../types/api.ts';

export type ReviewDecision = 'approve' | 'reject';

/**
 * Spec §7 PATCH /api/inspections/{id}/approve or /reject: the reviewer's notes, plus the password
 * that makes the call an electronic signature (docs/signatures.md).
 */
export const signInspection = (
  id: string,
  decision: ReviewDecision,
  notes: string,
  password: string,
) => api.patch<Inspection>(`/api/inspections/${segment(id)}/${decision}`, { notes, password });
