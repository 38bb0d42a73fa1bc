import type { EvidenceCheck } from '../../../../server/schemas/reports.ts';
import { api, segment } from '../../../lib/api-client.ts';

/**
 * GET /api/reports/{id}/evidence-check: the video file hashed again against its SHA-256 and, for a
 * signed record, the keyframe images against the digest its signature kept.
 */
export const checkEvidence = (inspectionId: string) =>
  api.get<EvidenceCheck>(`/api/reports/${segment(inspectionId)}/evidence-check`);
