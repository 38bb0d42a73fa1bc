// The inspection report (docs/reports.md): the signed GMP record of one inspection, its checklist,
// flags and detection dispositions, the /reports list and the review calls' bodies.
import { type Static, Type } from 'typebox';
import { Id, Matching } from './common.ts';
import { Importance } from './floorplan-configs.ts';
import { InspectionStatus } from './inspections.ts';
import { Signature } from './signatures.ts';

const DateTime = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const DispositionKind = Type.Union([Type.Literal('confirmed'), Type.Literal('dismissed')]);
export type DispositionKind = Static<typeof DispositionKind>;

export const Disposition = Type.Object({
  predictionId: Id,
  disposition: DispositionKind,
  reason: Type.String(),
  reviewerId: Id,
  reviewerName: Type.String(),
  at: DateTime,
});
export type Disposition = Static<typeof Disposition>;

/**
 * A decided detection as it was when a new analysis replaced it without it (docs/reports.md,
 * "Decisions on replaced detections"): kept with its decision so the decision can still be shown.
 */
export const ReplacedDetection = Type.Object({
  filename: Type.String(),
  subfolder: Type.String(),
  labels: Type.Array(Type.String()),
  confs: Type.Array(Type.Number()),
  /** [x1, y1, x2, y2] image fractions per object. */
  boxes: Type.Array(Type.Array(Type.Number())),
  /** Its keyframe's video time; null when the file name gives none. */
  time: Nullable(Type.Number()),
  /** The analysis version of the results it came from. */
  analysisVersion: Nullable(Type.String()),
  replacedAt: DateTime,
});
export type ReplacedDetection = Static<typeof ReplacedDetection>;

/**
 * A decision whose detection is no longer in the video's analysis, with that detection as it was
 * (null: replaced before detections were kept with their decisions, migration 0022).
 */
export const ReplacedDecision = Type.Object({
  ...Disposition.properties,
  detection: Nullable(ReplacedDetection),
});
export type ReplacedDecision = Static<typeof ReplacedDecision>;

/** The disposition a reviewer's page showed: its decision and time (`Disposition.at`). */
export const SeenDisposition = Type.Object({ disposition: DispositionKind, at: DateTime });
export type SeenDisposition = Static<typeof SeenDisposition>;

/** PUT /api/inspections/{id}/dispositions/{predictionId}: a reason is required for a dismissal. */
export const DispositionBody = Type.Object({
  disposition: DispositionKind,
  reason: Type.Optional(Type.String({ maxLength: 2000 })),
  /**
   * The disposition the page showed (null: none): another one stored meanwhile is not overwritten
   * (409 naming who decided and when). Optional for scripts; the web app sends it.
   */
  seen: Type.Optional(Nullable(SeenDisposition)),
});
export type DispositionBody = Static<typeof DispositionBody>;

export const KeyframeRef = Type.Object({ subfolder: Type.String(), filename: Type.String() });
export type KeyframeRef = Static<typeof KeyframeRef>;

export const ChecklistTag = Type.Object({
  index: Type.Integer(),
  name: Type.String(),
  qrCode: Nullable(Type.String()),
  /** Null: not assessable (no capture data from the phone and no path). */
  scanned: Nullable(Type.Boolean()),
  /** How the scan is known: the phone decoded its QR code, or the path passed within 0.1. */
  source: Nullable(Type.Union([Type.Literal('qr'), Type.Literal('path')])),
  /** Video time of the scan (the QR decode, else the path's closest point); null when missed. */
  time: Nullable(Type.Number()),
  keyframe: Nullable(KeyframeRef),
});
export type ChecklistTag = Static<typeof ChecklistTag>;

export const ChecklistZone = Type.Object({
  index: Type.Integer(),
  name: Type.String(),
  importance: Importance,
  /** Null when there is no path to tell (not assessable): the no-path flag names the zone. */
  visited: Nullable(Type.Boolean()),
  /** Seconds between consecutive path points that are both inside the rectangle. */
  secondsInside: Type.Number(),
  /** The time the path came closest to (or first entered) the zone; null without a path. */
  time: Nullable(Type.Number()),
});
export type ChecklistZone = Static<typeof ChecklistZone>;

export const FlagKind = Type.Union([
  Type.Literal('zone'),
  Type.Literal('tag'),
  Type.Literal('detection'),
  Type.Literal('gap'),
  Type.Literal('short-video'),
  Type.Literal('no-path'),
  Type.Literal('no-video'),
  Type.Literal('late'),
  /** A finding a reviewer confirmed on a detection that a later analysis replaced. */
  Type.Literal('replaced-finding'),
  /** A finished analysis whose keyframe images no detector checked (or that names none). */
  Type.Literal('no-detection'),
]);
export type FlagKind = Static<typeof FlagKind>;

/** Review by exception: what the reviewer must look at, most serious first. */
export const Flag = Type.Object({
  kind: FlagKind,
  severity: Importance,
  text: Type.String(),
  /** The clock moves here on 'next flag'; null when the flag has no moment (no path). */
  time: Nullable(Type.Number()),
  /** The detection's prediction id (a replaced one's too), the zone's or tag's index; else null. */
  ref: Nullable(Type.String()),
  /** A flagged detection's disposition by the reviewer (a dismissed one is closed); else null. */
  decision: Nullable(DispositionKind),
});
export type Flag = Static<typeof Flag>;

export const ReportDetection = Type.Object({
  predictionId: Id,
  time: Type.Number(),
  filename: Type.String(),
  subfolder: Type.String(),
  labels: Type.Array(Type.String()),
  confs: Type.Array(Type.Number()),
  /** [x1, y1, x2, y2] image fractions per object. */
  boxes: Type.Array(Type.Array(Type.Number())),
  /** The highest confidence of the keyframe's objects. */
  confidence: Type.Number(),
  flagged: Type.Boolean(),
  disposition: Nullable(Disposition),
});
export type ReportDetection = Static<typeof ReportDetection>;

/** The coverage picture in floor-plan image pixels. */
export const Coverage = Type.Object({
  /** The floor-plan image as the API serves it; null when the line has none. */
  imageUrl: Nullable(Type.String()),
  /** SHA-256 of that image's bytes as read now ('missing' when its file is gone). */
  floorplanSha256: Nullable(Type.String()),
  /** Drawn on the layout the signature kept (docs/signatures.md), not the line's plan as it is now. */
  asSigned: Type.Boolean(),
  width: Type.Number(),
  height: Type.Number(),
  /** The path, thinned for drawing, as [x, y] pairs. */
  path: Type.Array(Type.Array(Type.Number())),
  zones: Type.Array(
    Type.Object({
      name: Type.String(),
      importance: Importance,
      visited: Type.Boolean(),
      x: Type.Number(),
      y: Type.Number(),
      width: Type.Number(),
      height: Type.Number(),
    }),
  ),
  tags: Type.Array(
    Type.Object({
      name: Type.String(),
      scanned: Type.Boolean(),
      x: Type.Number(),
      y: Type.Number(),
    }),
  ),
});
export type Coverage = Static<typeof Coverage>;

export const ReportRules = Type.Object({
  confidenceThreshold: Type.Number(),
  gapSeconds: Type.Number(),
  minVideoSeconds: Type.Number(),
  lateSubmitMinutes: Type.Number(),
});
export type ReportRules = Static<typeof ReportRules>;

export const InspectionReport = Type.Object({
  inspectionId: Id,
  lineClearanceId: Id,
  lineName: Type.String(),
  operatorId: Id,
  operatorName: Type.String(),
  status: InspectionStatus,
  startTime: DateTime,
  endTime: Nullable(DateTime),
  /** When the server received the submit (its clock); null for older records it never kept. */
  receivedAt: Nullable(DateTime),
  productLeaving: Nullable(Type.String()),
  batchLeaving: Nullable(Type.String()),
  productComing: Nullable(Type.String()),
  batchComing: Nullable(Type.String()),
  operatorNotes: Type.String(),
  video: Nullable(
    Type.Object({
      id: Id,
      filename: Type.String(),
      duration: Type.Number(),
      sha256: Nullable(Type.String()),
      analysisVersion: Nullable(Type.String()),
    }),
  ),
  /**
   * The device the operator recorded on (registered by its QR label; the video's `deviceId`): as
   * the signature kept it, else with its name as the device list has it now (null: the device was
   * deleted); null when the video names none (docs/signatures.md, "What a signature keeps").
   */
  device: Nullable(Type.Object({ id: Id, name: Nullable(Type.String()) })),
  checklist: Type.Object({ tags: Type.Array(ChecklistTag), zones: Type.Array(ChecklistZone) }),
  /** Why there is no path, in a reviewer's words (spec §8 wording for a file that loaded); null
   *  when the path loaded. */
  pathMessage: Nullable(Type.String()),
  /**
   * The analysis's own reason when it made no path, as /analysis shows it (the video's status
   * reason: 'fewer than two scans of tags with a known floor-plan position (0): no path', or why
   * it failed); null when there is a path, no analysis has finished, or none was recorded.
   */
  pathMissingReason: Nullable(Type.String()),
  coverage: Nullable(Coverage),
  detections: Type.Array(ReportDetection),
  /**
   * Why the detections say nothing of leftover items (no detector ran on a finished analysis, or
   * its results name none), raised as a high flag too; null when a detector looked.
   */
  detectionNote: Nullable(Type.String()),
  /** Decisions on detections a later analysis replaced, by time (shown, printed and signed). */
  replacedDecisions: Type.Array(ReplacedDecision),
  flags: Type.Array(Flag),
  rules: ReportRules,
  signature: Nullable(Signature),
  /**
   * SHA-256 of the record as it is now (with the signature's fields when signed). Not signed, it
   * covers the evidence's digests too: a signature sends it back as what its signer reviewed.
   */
  recordHash: Type.String(),
  /** Signed and unchanged since: true; changed after signing: false; not signed: null. */
  unchangedSinceSigning: Nullable(Type.Boolean()),
  /**
   * When changed after signing, the parts known to differ from what the signature kept ('the path
   * file', 'the detections', 'the QR code scans', 'the floor-plan image'); empty otherwise, and
   * when the change is elsewhere in the record (its fields, the video's hash, the dispositions).
   */
  changedParts: Type.Array(Type.String()),
  /**
   * For a signature made by an earlier release, before some parts were kept with signatures: what
   * its hash does not cover, in a sentence the page and the PDF show; null otherwise.
   */
  notCoveredBySignature: Nullable(Type.String()),
  /** For a signature made under older report rules: the flags added since, which its signer did not see. */
  flagsSinceSigning: Nullable(Type.String()),
  /** Whether the caller may sign it, and why not when not (the signing rules, for the UI). */
  canSign: Type.Boolean(),
  cannotSignReason: Nullable(Type.String()),
  /** Why the record cannot be approved as clear whoever signs (no verified video); else null. */
  approvalBlocker: Nullable(Type.String()),
  /**
   * What an approval would sign over (critical and high flags not dismissed, confirmed findings
   * among them): the notes must then say why the line is clear. Null when nothing is open.
   */
  approvalExceptions: Nullable(Type.String()),
});
export type InspectionReport = Static<typeof InspectionReport>;

/** Newest or oldest first; pages by keyset (`after`: the last row's cursor), so a page costs the
 *  same however many inspections there are. */
export const ReportSort = Type.Union([Type.Literal('-startTime'), Type.Literal('startTime')]);
export type ReportSort = Static<typeof ReportSort>;

/** GET /api/reports and /api/reports.csv: filters, sort and page. */
export const ReportsQuery = Type.Object({
  from: Type.Optional(DateTime),
  to: Type.Optional(DateTime),
  lineClearanceId: Type.Optional(Id),
  operatorId: Type.Optional(Id),
  status: Type.Optional(InspectionStatus),
  flagged: Type.Optional(Type.Boolean()),
  /** Only signed records found changed after signing (true) or not (false). */
  changedAfterSigning: Type.Optional(Type.Boolean()),
  sort: Type.Optional(ReportSort),
  after: Type.Optional(
    // Fifteen digits at most: every such millisecond count is a date (16 can pass the last one).
    Matching('^[0-9]{1,15}_[0-9a-f]{24}$', 'must be the `next` cursor of the previous page'),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
});
export type ReportsQuery = Static<typeof ReportsQuery>;

export const ReportRow = Type.Object({
  inspectionId: Id,
  startTime: DateTime,
  lineClearanceId: Id,
  lineName: Type.String(),
  operatorId: Id,
  operatorName: Type.String(),
  status: InspectionStatus,
  /** Null until the report was first built. */
  flags: Nullable(Type.Integer()),
  criticalFlags: Nullable(Type.Integer()),
  signerName: Nullable(Type.String()),
  signedAt: Nullable(DateTime),
  /**
   * A signed record whose hash no longer matched its signature when its report was last built
   * (opened, printed, or checked by POST /api/reports/check-signatures).
   */
  changedAfterSigning: Type.Boolean(),
});
export type ReportRow = Static<typeof ReportRow>;

export const ReportPage = Type.Object({
  rows: Type.Array(ReportRow),
  /** The cursor of the next page; null on the last page. */
  next: Nullable(Type.String()),
  /**
   * How many reports match the filters on every page: `count` exactly, or, with `more`, more than
   * `count` (the count stops at a cap, so that it costs the same at any table size).
   */
  total: Type.Object({ count: Type.Integer(), more: Type.Boolean() }),
});
export type ReportPage = Static<typeof ReportPage>;

/** Who started a signature check and when; what it has checked of how many. */
const SignatureCheckRun = {
  /** Records checked so far; every one of `total` once finished. */
  checked: Type.Integer(),
  /** The signed records the run checks (those signed when it started). */
  total: Type.Integer(),
  startedAt: DateTime,
  startedBy: Type.Object({ id: Id, name: Type.String() }),
};

/**
 * POST and GET /api/reports/check-signatures: the current or last run that builds every signed
 * record again against its signature, one run at a time per server, in the background. Finished,
 * it holds what the POST answered when it ran in the request (`checked`, `changed`,
 * `inspectionIds`), so those callers keep working.
 */
export const SignatureCheck = Type.Union([
  /** No check has run since the server started. */
  Type.Object({ state: Type.Literal('none') }),
  Type.Object({ state: Type.Literal('running'), ...SignatureCheckRun }),
  Type.Object({
    state: Type.Literal('finished'),
    ...SignatureCheckRun,
    finishedAt: DateTime,
    /** The signed records that no longer match their signature. */
    changed: Type.Integer(),
    /** The changed records, by id, at most 100. */
    inspectionIds: Type.Array(Id),
  }),
  Type.Object({
    state: Type.Literal('failed'),
    ...SignatureCheckRun,
    finishedAt: DateTime,
    /** Why the run stopped (the server log holds the details). */
    error: Type.String(),
  }),
]);
export type SignatureCheck = Static<typeof SignatureCheck>;

/**
 * The video file against the SHA-256 recorded on its arrival: it matches, differs, is gone from
 * storage, or has no SHA-256 to check against (its file has not arrived).
 */
export const VideoFileState = Type.Union([
  Type.Literal('matches'),
  Type.Literal('differs'),
  Type.Literal('missing'),
  Type.Literal('unverified'),
]);
export type VideoFileState = Static<typeof VideoFileState>;

/**
 * GET /api/reports/{id}/evidence-check: the evidence files hashed again, on request (too costly
 * for every read of the report; docs/signatures.md, "The evidence check").
 */
export const EvidenceCheck = Type.Object({
  inspectionId: Id,
  signed: Type.Boolean(),
  /** The video file, streamed through SHA-256; null when no video is linked. */
  video: Nullable(Type.Object({ sha256: Nullable(Type.String()), state: VideoFileState })),
  /**
   * A signed record's keyframe images against the one digest its signature kept (which image
   * differs is not knowable from it): `none` when the signed record had no keyframes file,
   * `not-kept` when the signature predates the digest. `count`: the images the keyframes file
   * names now. Null for a record not signed.
   */
  keyframeImages: Nullable(
    Type.Object({
      state: Type.Union([
        Type.Literal('matches'),
        Type.Literal('differs'),
        Type.Literal('none'),
        Type.Literal('not-kept'),
      ]),
      count: Type.Integer(),
    }),
  ),
  checkedAt: DateTime,
});
export type EvidenceCheck = Static<typeof EvidenceCheck>;

const Choice = Type.Object({ id: Id, name: Type.String() });

/** GET /api/reports/filters: the lines and operators that the caller's reports hold, by name. */
export const ReportFilters = Type.Object({
  lines: Type.Array(Choice),
  operators: Type.Array(Choice),
});
export type ReportFilters = Static<typeof ReportFilters>;
