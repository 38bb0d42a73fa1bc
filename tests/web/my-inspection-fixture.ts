// Inspections as the API answers them (one of the operator's own as GET /api/my/inspections lists
// it), for dashboard tests.
import type { Inspection, MyInspection } from '../../src/types/api.ts';

/** An inspection as the API answers it, pending and unreviewed unless `patch` says otherwise. */
export const inspectionFixture = (id: string, patch: Partial<Inspection> = {}): Inspection => ({
  _id: id,
  lineClearanceId: 'a'.repeat(24),
  operatorId: 'b'.repeat(24),
  videoId: null,
  startTime: '2026-11-20T10:10:00.000Z',
  status: 'pending',
  operatorNotes: '',
  productLeaving: null,
  batchLeaving: null,
  productComing: null,
  batchComing: null,
  endTime: null,
  receivedAt: null,
  checklist: null,
  reviewerId: null,
  reviewNotes: null,
  reviewedAt: null,
  signature: null,
  ...patch,
});

export const myInspection = (id: string, patch: Partial<Inspection> = {}): MyInspection => ({
  inspection: inspectionFixture(id, patch),
  lineName: 'Blister Line 1',
  video: null,
  hasCapture: true,
});
