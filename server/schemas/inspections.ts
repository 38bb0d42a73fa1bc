import { type Static, Type } from 'typebox';
import { Id } from './common.ts';
import { Signature } from './signatures.ts';

export const InspectionStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('approved'),
  Type.Literal('rejected'),
]);
export type InspectionStatus = Static<typeof InspectionStatus>;

export const Inspection = Type.Object({
  _id: Id,
  lineClearanceId: Id,
  operatorId: Id,
  videoId: Type.Union([Id, Type.Null()]),
  startTime: Type.String({ format: 'date-time' }),
  status: InspectionStatus,
  operatorNotes: Type.String(),
  reviewerId: Type.Union([Id, Type.Null()]),
  reviewNotes: Type.Union([Type.String(), Type.Null()]),
  reviewedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** The review's e-signature (docs/reports.md); null while pending. */
  signature: Type.Union([Signature, Type.Null()]),
});
export type Inspection = Static<typeof Inspection>;
