import type { ReportRow } from '../../src/types/api.ts';

/** One signed row of the reports list (/reports, /audit). */
export const reportRow: ReportRow = {
  inspectionId: '0123456789abcdef01234567',
  lineClearanceId: '0123456789abcdef01234568',
  lineName: 'Bottling Line 2',
  operatorId: '0123456789abcdef01234569',
  operatorName: 'Priya Nair',
  startTime: '2026-11-21T07:00:00.000Z',
  status: 'approved',
  flags: 3,
  criticalFlags: 1,
  signerName: 'Sofia Lindqvist',
  signedAt: '2026-11-21T09:00:00.000Z',
  changedAfterSigning: false,
};
