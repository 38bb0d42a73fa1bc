import { type Static, Type } from 'typebox';
import { ChecklistSnapshot } from './capture.ts';
import { Id, Matching, OneLine } from './common.ts';
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
  /** Product and batch leaving the line and coming next (null for inspections before capture). */
  productLeaving: Type.Union([Type.String(), Type.Null()]),
  batchLeaving: Type.Union([Type.String(), Type.Null()]),
  productComing: Type.Union([Type.String(), Type.Null()]),
  batchComing: Type.Union([Type.String(), Type.Null()]),
  endTime: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** When the server received the submit (its clock; the two above are the device's). */
  receivedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  checklist: Type.Union([ChecklistSnapshot, Type.Null()]),
  reviewerId: Type.Union([Id, Type.Null()]),
  reviewNotes: Type.Union([Type.String(), Type.Null()]),
  reviewedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** The review's e-signature (docs/reports.md); null while pending. */
  signature: Type.Union([Signature, Type.Null()]),
});
export type Inspection = Static<typeof Inspection>;

/**
 * GET /api/inspections: an inspection and what keeps it from being approved, so a card can say so
 * before the signing dialog opens (the report's `approvalBlocker`, the same rule; docs/reports.md).
 */
export const ListedInspection = Type.Object({
  ...Inspection.properties,
  approvalBlocker: Type.Union([Type.String(), Type.Null()], {
    description:
      'Why an approval would be refused (no video, its file not arrived, its analysis not ' +
      'finished or failed); only a rejection can be signed. Null when nothing blocks it.',
  }),
  signBlocker: Type.Union([Type.String(), Type.Null()], {
    description:
      'Why the caller cannot sign this record at all (not the line’s LC manager or an admin, or ' +
      'its operator); null when the caller may sign it or it is already signed.',
  }),
});
export type ListedInspection = Static<typeof ListedInspection>;

const Entry = OneLine(200);

/**
 * POST /api/inspections: an operator submits a recorded inspection of a line it is assigned to.
 * Creates the inspection (pending) with the line's checklist as it stands, and its video
 * (pending, no file yet: the file follows by a resumable upload to /api/uploads). `clientRef` is
 * the device's id for the recording: sending it again answers the inspection already created.
 */
export const InspectionCreate = Type.Object({
  clientRef: Matching('^[A-Za-z0-9-]{8,64}$', 'must be 8 to 64 letters, digits or hyphens'),
  lineClearanceId: Id,
  productLeaving: Entry,
  batchLeaving: Entry,
  productComing: Entry,
  batchComing: Entry,
  operatorNotes: Type.Optional(Type.String({ maxLength: 2000 })),
  /** When recording started and stopped, on the device's clock (UTC). */
  startTime: Type.String({ format: 'date-time' }),
  endTime: Type.String({ format: 'date-time' }),
  /** The registered phone or camera used, if any. */
  deviceId: Type.Optional(Type.Union([Id, Type.Null()])),
  video: Type.Object({
    container: Type.Union([Type.Literal('webm'), Type.Literal('mp4')]),
    /** Seconds of recording (pauses excluded). */
    duration: Type.Number({ minimum: 0, maximum: 86_400 }),
  }),
});
export type InspectionCreate = Static<typeof InspectionCreate>;

/** The created (or, for a repeated `clientRef`, the existing) inspection and its video's ids. */
export const InspectionCreated = Type.Object({
  inspection: Inspection,
  videoId: Id,
  videoFilename: Type.String(),
});
export type InspectionCreated = Static<typeof InspectionCreated>;
