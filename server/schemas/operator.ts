// What an operator's own screens read (/operator, /inspection/{areaId}): the lines it is assigned
// to, its inspections with their upload and analysis state, and the devices it registered.
import { type Static, Type } from 'typebox';
import { ChecklistSnapshot } from './capture.ts';
import { Id } from './common.ts';
import { Inspection, InspectionStatus } from './inspections.ts';
import { LineClearance } from './line-clearances.ts';
import { VideoStatus } from './videos.ts';

/** GET /api/my/lines: a line the caller is assigned to. */
export const MyLine = Type.Object({
  line: LineClearance,
  /** A floor-plan configuration is saved for the line (its tags and hot zones make the checklist). */
  hasConfiguration: Type.Boolean(),
  tagCount: Type.Integer(),
  hotZoneCount: Type.Integer(),
  /** The caller's latest inspection of this line. */
  lastInspection: Type.Union([
    Type.Object({
      _id: Id,
      startTime: Type.String({ format: 'date-time' }),
      status: InspectionStatus,
    }),
    Type.Null(),
  ]),
});
export type MyLine = Static<typeof MyLine>;

/**
 * GET /api/my/lines/{id}: the line, the checklist an inspection started now would get, and the
 * QR codes of other lines' tags (so a scan of one warns that it belongs to another line).
 */
export const MyLineDetail = Type.Object({
  line: LineClearance,
  checklist: ChecklistSnapshot,
  otherLineTags: Type.Array(Type.Object({ qrCode: Type.String(), lineName: Type.String() })),
  /** The report's minimum video length (`reportRules`): the Review step warns below it. */
  minVideoSeconds: Type.Number(),
});
export type MyLineDetail = Static<typeof MyLineDetail>;

/** GET /api/my/inspections: the caller's inspections, newest first, with their video's state. */
export const MyInspection = Type.Object({
  inspection: Inspection,
  lineName: Type.String(),
  video: Type.Union([
    Type.Object({
      _id: Id,
      filename: Type.String(),
      /** Analysis status (spec §3): pending until the analysis takes the job. */
      status: VideoStatus,
      /** Why the analysis failed (status 'error'), else null. */
      statusReason: Type.Union([Type.String(), Type.Null()]),
      /** The file arrived and its SHA-256 matched the device's. */
      verified: Type.Boolean(),
      sha256: Type.Union([Type.String(), Type.Null()]),
      size: Type.Integer(),
    }),
    Type.Null(),
  ]),
  /** Capture data (scans, motion) is attached. */
  hasCapture: Type.Boolean(),
});
export type MyInspection = Static<typeof MyInspection>;

export const MyInspectionsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
});
export type MyInspectionsQuery = Static<typeof MyInspectionsQuery>;
