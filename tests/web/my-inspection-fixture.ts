// One of the operator's own inspections as GET /api/my/inspections lists it, for dashboard tests.
import type { Inspection, MyInspection } from '../../src/types/api.ts';

export const myInspection = (id: string, patch: Partial<Inspection> = {}): MyInspection => ({
  inspection: {
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
  },
  lineName: 'Blister Line 1',
  video: null,
  hasCapture: true,
});
