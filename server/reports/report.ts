// Builds the inspection report (docs/reports.md): header, checklist, detections with their
// dispositions, flags, the coverage picture and the signature, from the stored records. It also
// writes the report's summary row that /reports filters on.

import { formatDuration } from 'date-fns';
import { eq, isNull, ne, or, sql } from 'drizzle-orm';
import { imageSizeFromHeader } from '../../workers/image-header.ts';
import type { AppContext, AuthUser } from '../context.ts';
import type { Db, Tx } from '../db/client.ts';
import { auditLog, inspections, lineClearances, reportSummaries, users } from '../db/schema.ts';
import { iso } from '../ids.ts';
import type { FloorplanConfiguration, Importance } from '../schemas/floorplan-configs.ts';
import type { InspectionStatus } from '../schemas/inspections.ts';
import type {
  ChecklistTag,
  ChecklistZone,
  Flag,
  InspectionReport,
  KeyframeRef,
  ReplacedDecision,
  ReportDetection,
  ReportRules,
} from '../schemas/reports.ts';
import { hasRole, seesAllLines } from '../services/access.ts';
import { floorplanImageUrl } from '../services/floorplan-images.ts';
import { changedEvidence, evidenceDigest, type KeyframesReader, readEvidence } from './evidence.ts';
import { layoutDigest, recordLayout } from './layout.ts';
import {
  keyframeImageNames,
  missingPath,
  type PathChecklist,
  pathChecklist,
  pathMessages,
} from './path-checklist.ts';
import {
  currentNames,
  type HashedContent,
  hashedContent,
  hashOfContent,
  type InspectionRecord,
  readRecord,
  type VideoRow,
} from './record.ts';
import { changedDevice, deviceDigest, shownDevice } from './recording-device.ts';
import { decisionsOnReplaced, replacedFindingFlags } from './replaced-decisions.ts';

/** The review-by-exception thresholds (docs/reports.md): one set for every line for now. */
export const reportRules: ReportRules = {
  /** A detection at or above this confidence is a flag. */
  confidenceThreshold: 0.7,
  /** Keyframes further apart than this leave a gap in the path. */
  gapSeconds: 5,
  /** A video shorter than this cannot have covered a line. */
  minVideoSeconds: 30,
  /** A submit received later than this after the recording ended is a flag. */
  lateSubmitMinutes: 60,
};

const importanceRank: Record<Importance, number> = { critical: 0, high: 1, medium: 2, low: 3 };

/** What the signing rules read besides the record and the signer. */
export interface SignContext {
  /** The line's LC manager: with the admins, the one who signs its records. */
  managerId: string | null;
  /** Who chose the current password of the inspection's operator, when not the operator. */
  operatorPasswordSetBy: string | null;
}

export async function signContext(
  db: Db | Tx,
  user: AuthUser,
  inspection: Pick<InspectionRecord['inspection'], 'lineClearanceId' | 'operatorId'>,
): Promise<SignContext> {
  // Someone who signs nothing (an auditor, the report summarizer) is refused before either is read.
  if (!hasRole(user, 'admin', 'lc_manager'))
    return { managerId: null, operatorPasswordSetBy: null };
  const [[line], [operator]] = await Promise.all([
    db
      .select({ managerId: lineClearances.managerId })
      .from(lineClearances)
      .where(eq(lineClearances.id, inspection.lineClearanceId)),
    db
      .select({ passwordSetBy: users.passwordSetBy })
      .from(users)
      .where(eq(users.id, inspection.operatorId)),
  ]);
  return {
    managerId: line?.managerId ?? null,
    operatorPasswordSetBy: operator?.passwordSetBy ?? null,
  };
}

/** The checklist items: the inspection's snapshot, else the line's configuration as it is now. */
function checklistItems(record: InspectionRecord, configuration: FloorplanConfiguration | null) {
  const snapshot = record.inspection.checklist;
  if (snapshot) return { tags: snapshot.tags, zones: snapshot.hotZones };
  return {
    tags: (configuration?.tags ?? []).map((tag, index) => ({ ...tag, index })),
    zones: (configuration?.hotZones ?? []).map((zone, index) => ({ ...zone, index })),
  };
}

const keyframeTime = (name: string) => Number.parseFloat(name);

function nearestKeyframe(names: readonly string[], time: number): string | null {
  let best: string | null = null;
  let distance = Number.POSITIVE_INFINITY;
  for (const name of names) {
    const d = Math.abs(keyframeTime(name) - time);
    if (d < distance) {
      distance = d;
      best = name;
    }
  }
  return best;
}

/** A video time as the report's flags say it: '8.00 s'. */
export const seconds = (time: number) => `${time.toFixed(2)} s`;

/**
 * May the caller sign, and if not, which rule refused (another LC manager's line, outside the
 * caller's scope; a role that does not sign; the second person; an already signed record) and why.
 */
export type SignRules =
  | { canSign: true; reason: null; refusal: null }
  | {
      canSign: false;
      reason: string;
      refusal: 'scope' | 'signer' | 'operator' | 'signed' | 'password';
    };

/** What the signing rules read of a record: GET /api/inspections has no more for each row. */
export interface SignableRecord {
  inspection: Pick<InspectionRecord['inspection'], 'operatorId' | 'status'>;
  signature: { meaning: string } | null;
}

const SET_OWN_PASSWORD =
  'Your password was set by another user: set your own (Profile, Change password) before you sign';
const OPERATOR_PASSWORD_SET_BY_SIGNER =
  'You set the password of this inspection’s operator: they must set their own (Profile, Change password) before you can sign their inspections';

/**
 * The signing rules of docs/signatures.md, in the order the server checks them. Issue 18: only the
 * line's LC manager or an admin signs; a factory manager sees every record but does not sign.
 */
export function signRules(user: AuthUser, record: SignableRecord, context: SignContext): SignRules {
  const linesManager = hasRole(user, 'lc_manager') && context.managerId === user.id;
  if (!hasRole(user, 'admin') && !linesManager) {
    return {
      canSign: false,
      reason: 'Only the line’s LC manager or an admin signs this record',
      refusal: hasRole(user, 'lc_manager') && !seesAllLines(user) ? 'scope' : 'signer',
    };
  }
  if (record.inspection.operatorId === user.id) {
    return {
      canSign: false,
      reason: 'The operator of an inspection cannot sign it',
      refusal: 'operator',
    };
  }
  if (record.signature || record.inspection.status !== 'pending') {
    return {
      canSign: false,
      reason: `The inspection is already ${decisionOf(record)}`,
      refusal: 'signed',
    };
  }
  // A signature needs a password only its signer knows (21 CFR 11.200, 11.300): one a manager
  // chose lets that manager sign as the signer, or record as the operator and then sign.
  if (user.ownPassword === false) {
    return { canSign: false, reason: SET_OWN_PASSWORD, refusal: 'password' };
  }
  if (context.operatorPasswordSetBy === user.id) {
    return { canSign: false, reason: OPERATOR_PASSWORD_SET_BY_SIGNER, refusal: 'password' };
  }
  return { canSign: true, reason: null, refusal: null };
}

/**
 * What the record was decided as: its signature's meaning when it has one. The record's parts are
 * read one statement after another, so a signature committed in between shows beside an
 * inspection still read as pending (a refused racer read 'already pending: signed by …').
 */
const decisionOf = (record: SignableRecord) =>
  record.signature?.meaning ?? record.inspection.status;

/** 'The inspection is already approved: signed by Ana Lee on 2026-11-26 14:03 UTC'. */
export function alreadySigned(record: Pick<InspectionRecord, 'inspection' | 'signature'>): string {
  const { signature } = record;
  const already = `The inspection is already ${decisionOf(record)}`;
  if (!signature) return already;
  const at = signature.signedAt.slice(0, 16).replace('T', ' ');
  return `${already}: signed by ${signature.signerName} on ${at} UTC`;
}

/**
 * Approving signs that the line is clear: without a verified video whose analysis finished there
 * is nothing complete to review, so only a rejection can be signed (docs/signatures.md). It reads
 * only the video's file hash, status and reason, so GET /api/inspections can ask it too.
 */
export function approvalBlocker(record: {
  video: Pick<VideoRow, 'sha256' | 'status' | 'statusReason'> | null;
}): string | null {
  const { video } = record;
  if (!video)
    return 'No video: none is linked to this inspection (none was submitted, or it was deleted)';
  if (!video.sha256) {
    // A recording given up (discarded on the device, refused at ingest) never arrives.
    if (video.status === 'error') {
      return `No verified video: the file will not arrive (${video.statusReason ?? 'no reason recorded'})`;
    }
    return 'No verified video: the file has not arrived from the operator’s device yet';
  }
  if (video.status === 'pending' || video.status === 'processing') {
    return 'Analysis not finished: the path and the detections are not ready yet';
  }
  if (video.status === 'error') {
    return `Analysis failed (${video.statusReason ?? 'no reason recorded'}): re-run it from /analysis`;
  }
  return null;
}

/**
 * Why a finished analysis's detections (or their absence) say nothing of leftover items: no
 * detector ran, or the results name none; null when a detector looked (found something or not)
 * or there are no results yet (the blocker says why).
 */
export function noDetectionNote(
  video: Pick<VideoRow, 'sha256' | 'status' | 'detector' | 'analysisVersion'> | null,
  detections: number,
): string | null {
  if (!video?.sha256 || video.status !== 'completed' || detections > 0) return null;
  if (video.detector?.name === 'none') {
    return 'Object detection was not run (no detector configured): the keyframe images were not checked for leftover items';
  }
  if (video.detector) return null;
  return `Object detection not reported: the analysis (${video.analysisVersion ?? 'unnamed'}) names no detector, so the keyframe images may not have been checked for leftover items`;
}

/** What an approval signs over: the critical and high flags not dismissed; null when none. */
export function approvalExceptions(flags: readonly Flag[]): string | null {
  const open = flags.filter((f) => importanceRank[f.severity] <= 1 && f.decision !== 'dismissed');
  if (!open.length) return null;
  const confirmed = open.filter((f) => f.decision === 'confirmed').length;
  const findings =
    confirmed === 0
      ? ''
      : ` (${confirmed === 1 ? '1 detection confirmed as a finding' : `${confirmed} detections confirmed as findings`})`;
  return `${open.length} critical or high ${open.length === 1 ? 'flag is' : 'flags are'} open${findings}`;
}

export async function buildReport(
  ctx: Pick<AppContext, 'db' | 'storage'>,
  user: AuthUser,
  record: InspectionRecord,
  /** The request's reader, when another of its steps reads the keyframes file too. */
  keyframesOf?: KeyframesReader,
): Promise<InspectionReport> {
  return (await buildReportWithContent(ctx, user, record, keyframesOf)).report;
}

/** The report and what its record hash was taken of (`hashedContent`), for the electronic copy. */
export async function buildReportWithContent(
  ctx: Pick<AppContext, 'db' | 'storage'>,
  user: AuthUser,
  record: InspectionRecord,
  keyframesOf?: KeyframesReader,
): Promise<{ report: InspectionReport; hashed: HashedContent }> {
  const { db } = ctx;
  const { inspection, video } = record;
  // A signed record shows the names it was signed with; a later rename does not change it.
  const names = record.kept ?? (await currentNames(db, inspection));
  const device = await shownDevice(db, record);
  const evidence = await readEvidence(ctx, record, keyframesOf);
  const { keyframes, predictions: predictionRows, scans, captured } = evidence;
  const layout = await recordLayout(ctx, record);
  const configuration = layout.config?.configuration ?? null;
  const items = checklistItems(record, configuration);

  const imageSize = layout.imageBytes ? imageSizeFromHeader(layout.imageBytes) : null;
  let path: PathChecklist | null = null;
  let pathMessage: string | null = null;
  let pathMissingReason: string | null = null;
  if (!video) pathMessage = pathMessages.noVideo;
  else if (!keyframes) ({ message: pathMessage, reason: pathMissingReason } = missingPath(video));
  else if (!configuration) pathMessage = pathMessages.missingConfiguration;
  else {
    const answer = await pathChecklist({
      keyframes,
      configuration,
      imageSize,
      tags: items.tags,
      zones: items.zones,
      gapSeconds: reportRules.gapSeconds,
    });
    if (answer.ok) path = answer.value;
    else pathMessage = answer.message;
  }
  const keyframeNames = keyframes ? await keyframeImageNames(keyframes) : [];
  const keyframeAt = (time: number | null): KeyframeRef | null => {
    const filename = time === null || !video ? null : nearestKeyframe(keyframeNames, time);
    return filename && video ? { subfolder: video.subfolder, filename } : null;
  };

  const tags: ChecklistTag[] = items.tags.map((tag, i) => {
    const qr = scans
      .filter((scan) => scan.tagIndex === tag.index)
      .sort((a, b) => a.videoTime - b.videoTime)[0];
    const onPath = path?.tags[i];
    const source = qr ? 'qr' : onPath?.scanned ? 'path' : null;
    const time = qr ? qr.videoTime : onPath?.scanned ? onPath.closestTime : null;
    return {
      index: tag.index,
      name: tag.name,
      qrCode: tag.qrCode ?? null,
      // Without the phone's scans and without a path, a miss can be neither shown nor ruled out.
      scanned: source !== null ? true : captured || path ? false : null,
      source,
      time,
      keyframe: keyframeAt(time),
    };
  });
  const zones: ChecklistZone[] = items.zones.map((zone, i) => ({
    index: zone.index,
    name: zone.name,
    importance: zone.importance ?? 'medium',
    // Without a path a visit can be neither shown nor ruled out: not assessable, not 'not visited'.
    visited: path ? (path.zones[i]?.visited ?? false) : null,
    secondsInside: Math.round((path?.zones[i]?.secondsInside ?? 0) * 100) / 100,
    time: path?.zones[i]?.time ?? null,
  }));

  const byPrediction = new Map(record.dispositions.map((d) => [d.predictionId, d]));
  const detections: ReportDetection[] = predictionRows
    .map((row) => {
      const confidence = Math.max(0, ...row.confs.filter(Number.isFinite));
      return {
        predictionId: row.id,
        time: keyframeTime(row.filename),
        filename: row.filename,
        subfolder: row.subfolder,
        labels: row.classLabels,
        confs: row.confs,
        boxes: row.boxesNormalized,
        confidence,
        flagged: confidence >= reportRules.confidenceThreshold,
        disposition: byPrediction.get(row.id) ?? null,
      };
    })
    .filter((d) => Number.isFinite(d.time))
    .sort((a, b) => a.time - b.time);
  const replacedDecisions = decisionsOnReplaced(record, predictionRows);

  const blocker = approvalBlocker(record);
  const detectionNote = noDetectionNote(video, predictionRows.length);
  const flags = reportFlags({
    tags,
    zones,
    detections,
    replacedDecisions,
    path,
    pathMessage,
    detectionNote,
    record,
    blocker,
  });
  const drawnOn = layoutDigest(layout);
  const coverage = path && {
    imageUrl: layout.floorplan ? floorplanImageUrl(layout.floorplan.imageKey) : null,
    floorplanSha256: drawnOn.floorplanSha256,
    asSigned: record.kept !== null,
    width: path.image.width,
    height: path.image.height,
    path: path.coveragePath,
    zones: items.zones.map((zone, i) => ({
      name: zone.name,
      importance: zone.importance ?? 'medium',
      visited: zones[i]?.visited ?? false,
      x: zone.x * path.layoutScale.x,
      y: zone.y * path.layoutScale.y,
      width: zone.width * path.layoutScale.x,
      height: zone.height * path.layoutScale.y,
    })),
    tags: items.tags.map((tag, i) => ({
      name: tag.name,
      scanned: tags[i]?.scanned ?? false,
      x: tag.x * path.layoutScale.x,
      y: tag.y * path.layoutScale.y,
    })),
  };

  const signature = record.signature;
  // A signature made before names and layouts were kept signed neither: checked without them.
  const legacySignature = signature !== null && record.kept === null;
  // One made before the evidence's digests were kept is checked without them (`evidence` absent).
  const keptEvidence = record.kept?.evidence;
  const evidenceNow = evidenceDigest(evidence);
  const hashed = hashedContent(
    record,
    signature,
    legacySignature
      ? null
      : {
          operatorName: names.operatorName,
          lineName: names.lineName,
          layout: drawnOn,
          device: deviceDigest(record, device),
          // The images are too costly to hash on every read: their digest counts as kept
          // (GET /api/reports/{id}/evidence-check compares them). Not signed, the hash covers
          // the digests as read now, so the one a signer sends back names the detections and
          // path it reviewed (review-changes.ts).
          evidence: signature
            ? keptEvidence && {
                ...evidenceNow,
                keyframeImagesSha256: keptEvidence.keyframeImagesSha256,
              }
            : evidenceNow,
        },
  );
  const currentHash = hashOfContent(hashed);
  const rules = signRules(user, record, await signContext(db, user, inspection));
  const unchangedSinceSigning = signature ? currentHash === signature.recordHash : null;
  const changedParts =
    unchangedSinceSigning === false && record.kept
      ? [
          ...(keptEvidence ? changedEvidence(keptEvidence, evidenceNow) : []),
          ...((record.kept.layout.floorplan?.sha256 ?? null) !== drawnOn.floorplanSha256
            ? ['the floor-plan image']
            : []),
          ...changedDevice(record),
        ]
      : [];
  await saveSummary(db, inspection.id, record.readThrough, {
    flags,
    tags,
    zones,
    detections,
    changedAfterSigning: unchangedSinceSigning === false,
  });
  const report: InspectionReport = {
    inspectionId: inspection.id,
    lineClearanceId: inspection.lineClearanceId,
    lineName: names.lineName,
    operatorId: inspection.operatorId,
    operatorName: names.operatorName,
    status: inspection.status as InspectionStatus,
    startTime: iso(inspection.startTime),
    endTime: inspection.endTime ? iso(inspection.endTime) : null,
    receivedAt: inspection.receivedAt ? iso(inspection.receivedAt) : null,
    productLeaving: inspection.productLeaving,
    batchLeaving: inspection.batchLeaving,
    productComing: inspection.productComing,
    batchComing: inspection.batchComing,
    operatorNotes: inspection.operatorNotes,
    video: video && {
      id: video.id,
      filename: video.filename,
      duration: video.duration,
      sha256: video.sha256,
      analysisVersion: video.analysisVersion,
    },
    device,
    checklist: { tags, zones },
    pathMessage,
    pathMissingReason,
    coverage,
    detections,
    detectionNote,
    replacedDecisions,
    flags,
    rules: reportRules,
    signature,
    recordHash: currentHash,
    unchangedSinceSigning,
    changedParts,
    notCoveredBySignature: signature ? notCoveredBy(record.kept) : null,
    flagsSinceSigning: signature ? flagsSince(record.kept?.rules ?? 1) : null,
    canSign: rules.canSign,
    cannotSignReason: rules.reason,
    approvalBlocker: blocker,
    approvalExceptions: approvalExceptions(flags),
  };
  return { report, hashed };
}

/**
 * What a signature's hash leaves out because an earlier release kept less with it (before
 * migration 0010 nothing; before the evidence's digests, the analysis's files; before the
 * recording device, the device), in words.
 */
function notCoveredBy(kept: InspectionRecord['kept']): string | null {
  const files = 'the analysis’s files (path, detections, QR code scans)';
  const device = 'the recording device’s name and id';
  const parts = !kept
    ? ['the operator’s and line’s names', 'the floor plan', files, device]
    : [...(kept.evidence ? [] : [files]), ...(kept.device === undefined ? [device] : [])];
  if (parts.length === 0) return null;
  const named = `${parts.slice(0, -1).join(', ')}${parts.length > 1 ? ' and ' : ''}${parts.at(-1)}`;
  return `Signed by an earlier release, before ${named} were kept with signatures: they are shown as they are now, and a change to them since signing is not detected.`;
}

/**
 * The flags each raise of REPORT_RULES_VERSION added, in words: a record signed before shows them,
 * and says its signer did not see them.
 */
const flagsAddedByRules: Record<number, string> = {
  2: '‘Submitted late’ (received over 60 minutes after the recording ended)',
  3: '‘Confirmed finding on a replaced detection’ (a finding a reviewer confirmed, no longer in the analysis)',
  4: '‘Object detection was not run’ (a finished analysis whose keyframe images no detector checked)',
};

function flagsSince(signedUnder: number): string | null {
  const added = Object.entries(flagsAddedByRules)
    .filter(([version]) => Number(version) > signedUnder)
    .map(([, flag]) => flag);
  return added.length
    ? `Signed under earlier report rules (version ${signedUnder}): its signer did not see the flags added since, which this report raises: ${added.join('; ')}.`
    : null;
}

interface FlagInput {
  tags: ChecklistTag[];
  zones: ChecklistZone[];
  detections: ReportDetection[];
  replacedDecisions: ReplacedDecision[];
  path: PathChecklist | null;
  pathMessage: string | null;
  /** Why the detections cannot be taken as a look for leftover items (`noDetectionNote`). */
  detectionNote: string | null;
  record: InspectionRecord;
  /** Why it cannot be approved (approvalBlocker), raised as a critical flag. */
  blocker: string | null;
}

/** A flag as raised; only a flagged detection's carries the reviewer's decision. */
type RaisedFlag = Omit<Flag, 'decision'> & Partial<Pick<Flag, 'decision'>>;

/** Review by exception: the most serious first (critical and high zones), then by time. */
function reportFlags({
  tags,
  zones,
  detections,
  replacedDecisions,
  path,
  pathMessage,
  detectionNote,
  record,
  blocker,
}: FlagInput): Flag[] {
  const flags: RaisedFlag[] = [];
  for (const zone of zones) {
    if (zone.visited !== false) continue;
    flags.push({
      kind: 'zone',
      severity: zone.importance,
      text: `Hot zone not visited: ${zone.name} (${zone.importance})`,
      time: zone.time,
      ref: String(zone.index),
    });
  }
  for (const tag of tags) {
    if (tag.scanned !== false) continue;
    flags.push({
      kind: 'tag',
      severity: 'high',
      text: `Tag not scanned: ${tag.name}`,
      time: path?.tags[tags.indexOf(tag)]?.closestTime ?? null,
      ref: String(tag.index),
    });
  }
  if (blocker) {
    flags.push({
      kind: 'no-video',
      severity: 'critical',
      text: blocker,
      time: null,
      ref: null,
    });
  }
  // A file that has not arrived (or never will) has no path: its critical flag (the blocker) says
  // so already.
  if (pathMessage && record.video?.sha256) {
    // It stands for the zones it leaves unchecked, so it is as serious as the most important one.
    const unchecked = zones.filter((zone) => zone.visited === null);
    const severity = unchecked.some((zone) => zone.importance === 'critical') ? 'critical' : 'high';
    flags.push({
      kind: 'no-path',
      severity,
      text: unchecked.length
        ? `${pathMessage} ${unchecked.length === 1 ? '1 hot zone is' : `${unchecked.length} hot zones are`} not assessable: ${unchecked.map((zone) => zone.name).join(', ')}`
        : pathMessage,
      time: null,
      ref: null,
    });
  }
  if (detectionNote) {
    flags.push({
      kind: 'no-detection',
      severity: 'high',
      text: detectionNote,
      time: null,
      ref: null,
    });
  }
  const video = record.video;
  if (video && video.duration > 0 && video.duration < reportRules.minVideoSeconds) {
    flags.push({
      kind: 'short-video',
      severity: 'high',
      text: `Video shorter than the minimum: ${seconds(video.duration)} (minimum ${seconds(reportRules.minVideoSeconds)})`,
      // Its start, where there is a file to play.
      time: video.sha256 ? 0 : null,
      ref: null,
    });
  }
  const late = lateSubmit(record.inspection);
  if (late) {
    flags.push({
      kind: 'late',
      severity: 'medium',
      text: `Submitted late: received ${late} after the recording ended (a delayed upload, or the device’s clock)`,
      time: null,
      ref: null,
    });
  }
  for (const detection of detections) {
    if (!detection.flagged) continue;
    // Every object above the threshold, strongest first: a leftover label beside a product unit
    // in the same keyframe is a finding of its own.
    const objects = detection.labels
      .map((label, i) => ({ label, confidence: detection.confs[i] ?? 0 }))
      .filter((object) => object.confidence >= reportRules.confidenceThreshold)
      .sort((a, b) => b.confidence - a.confidence)
      .map((object) => `${object.label} ${(object.confidence * 100).toFixed(0)}%`);
    flags.push({
      kind: 'detection',
      severity: 'high',
      text: `Detection: ${objects.join(', ')} at ${seconds(detection.time)}`,
      time: detection.time,
      ref: detection.predictionId,
      decision: detection.disposition?.disposition ?? null,
    });
  }
  flags.push(...replacedFindingFlags(replacedDecisions));
  for (const [from, to] of path?.gaps ?? []) {
    flags.push({
      kind: 'gap',
      severity: 'medium',
      text: `Gap in the path: no position for ${seconds(to - from)} from ${seconds(from)}`,
      time: from,
      ref: null,
    });
  }
  return flags
    .map((flag) => ({ decision: null, ...flag }))
    .sort(
      (a, b) =>
        // What blocks an approval comes first: it explains the flags after it (no path, no scans).
        Number(b.kind === 'no-video') - Number(a.kind === 'no-video') ||
        // Then a confirmed finding the analysis lost: the signing dialog names the first flags.
        Number(b.kind === 'replaced-finding') - Number(a.kind === 'replaced-finding') ||
        importanceRank[a.severity] - importanceRank[b.severity] ||
        (a.time ?? Number.POSITIVE_INFINITY) - (b.time ?? Number.POSITIVE_INFINITY),
    );
}

/**
 * How long after the recording's end (the device's clock) the server received its submit, in
 * words, when that is longer than the rule allows; null otherwise or when either is not known.
 * From the milliseconds, not the calendar (a DST change must not print 48 h as a day and 23
 * hours), in whole units never rounded up; under two hours to the second, so a submit just past
 * the hour never reads as the rule's own hour.
 */
function lateSubmit({
  endTime,
  receivedAt,
}: Pick<InspectionRecord['inspection'], 'endTime' | 'receivedAt'>): string | null {
  if (!endTime || !receivedAt) return null;
  const ms = receivedAt.getTime() - endTime.getTime();
  if (ms <= reportRules.lateSubmitMinutes * 60_000) return null;
  const seconds = Math.floor(ms / 1000);
  const late = {
    days: Math.floor(seconds / 86_400),
    hours: Math.floor((seconds % 86_400) / 3600),
    minutes: Math.floor((seconds % 3600) / 60),
    seconds: seconds % 60,
  };
  const units: (keyof typeof late)[] = late.days
    ? ['days', 'hours']
    : late.hours >= 2
      ? ['hours', 'minutes']
      : ['hours', 'minutes', 'seconds'];
  return formatDuration(late, { format: units, delimiter: ', ' });
}

async function saveSummary(
  db: Db,
  inspectionId: string,
  builtThrough: number,
  report: Pick<InspectionReport, 'flags' | 'detections'> & {
    tags: ChecklistTag[];
    zones: ChecklistZone[];
    changedAfterSigning: boolean;
  },
): Promise<void> {
  // A detection dismissed as a false positive is no longer an exception.
  const open = report.flags.filter((f) => f.decision !== 'dismissed');
  const values = {
    flags: open.length,
    criticalFlags: open.filter((f) => importanceRank[f.severity] <= 1).length,
    tagsScanned: report.tags.filter((t) => t.scanned).length,
    tagsTotal: report.tags.length,
    zonesVisited: report.zones.filter((z) => z.visited).length,
    zonesTotal: report.zones.length,
    detections: report.detections.length,
    changedAfterSigning: report.changedAfterSigning,
    builtThrough,
    rules: REPORT_RULES_VERSION,
  };
  // A build from an older read never replaces one from a newer (two builds of one record racing:
  // the start's rebuild and a disposition's).
  await db
    .insert(reportSummaries)
    .values({ inspectionId, ...values })
    .onConflictDoUpdate({
      target: reportSummaries.inspectionId,
      set: values,
      setWhere: sql`${reportSummaries.builtThrough} <= excluded.built_through`,
    });
}

/**
 * The version of what a report's summary counts (its flags, their severities, the checklist's
 * scans and visits). Raise it with any change to those rules: the next start builds every summary
 * built before, so /reports never filters an upgraded plant's records by the old rules (QA: a
 * pending record listed 3 flags, 1 critical, against 4 and 2 in its report). Say what a raise adds
 * to the flags in `flagsAddedByRules`.
 */
export const REPORT_RULES_VERSION = 4;

/** Who builds reports for their summaries: a reader of every record who signs nothing. */
const summarizer: AuthUser = { id: 'system', name: 'System', email: '', roles: ['audit'] };

/** Rebuilds one inspection's report so its /reports summary (flags, counts) is current. */
export async function summarizeInspection(
  ctx: Pick<AppContext, 'db' | 'storage'>,
  inspectionId: string,
): Promise<void> {
  await buildReport(ctx, summarizer, await readRecord(ctx.db, inspectionId));
}

/**
 * After a change its report shows but no analysis follows (a new inspection, its capture data, a
 * discarded or deleted video): the summary follows at once. A failure is logged, never the
 * change's answer; the summary row is dropped so that /reports shows no stale count and the next
 * start (`summarizeMissing`) builds it again.
 */
export async function refreshSummaries(
  ctx: Pick<AppContext, 'db' | 'storage'>,
  inspectionIds: readonly string[],
  log: { error: (object: object, message: string) => void },
): Promise<void> {
  for (const id of inspectionIds) {
    try {
      await summarizeInspection(ctx, id);
    } catch (error) {
      log.error({ err: error, inspectionId: id }, 'report summary not rebuilt');
      await ctx.db
        .delete(reportSummaries)
        .where(eq(reportSummaries.inspectionId, id))
        .catch(() => undefined);
    }
  }
}

/**
 * Rebuilds the reports of the inspections recorded on this video, whose analysis results (path,
 * detections) or verified file have just changed, so /reports filters them by their current flags.
 */
export async function summarizeVideo(
  ctx: Pick<AppContext, 'db' | 'storage'>,
  videoId: string,
): Promise<void> {
  for (const id of await inspectionsOfVideo(ctx.db, videoId)) await summarizeInspection(ctx, id);
}

/** The inspections recorded on a video (one, but the schema does not say so). */
export async function inspectionsOfVideo(db: Db, videoId: string): Promise<string[]> {
  const recorded = await db
    .select({ id: inspections.id })
    .from(inspections)
    .where(eq(inspections.videoId, videoId));
  return recorded.map((row) => row.id);
}

/**
 * Builds every report whose summary row is missing (a failed rebuild dropped it, or the demo just
 * loaded), built by older report rules (an upgrade), or older than a change of its record: every
 * change of an inspection or its video writes an audit entry, and one after the summary's
 * `builtThrough` was not read by its build (a server stopped between a change's commit and its
 * summary's rebuild, or a build that read the record just before the change). Run at start.
 */
export async function summarizeMissing(ctx: Pick<AppContext, 'db' | 'storage'>): Promise<number> {
  const changedSince = sql`exists (
    select 1 from ${auditLog}
    where ${auditLog.id} > ${reportSummaries.builtThrough}
      and ((${auditLog.entity} = 'inspection' and ${auditLog.entityId} = ${inspections.id})
        or (${auditLog.entity} = 'video' and ${auditLog.entityId} = ${inspections.videoId})))`;
  const missing = await ctx.db
    .select({ id: inspections.id })
    .from(inspections)
    .leftJoin(reportSummaries, eq(reportSummaries.inspectionId, inspections.id))
    .where(
      or(
        isNull(reportSummaries.inspectionId),
        ne(reportSummaries.rules, REPORT_RULES_VERSION),
        changedSince,
      ),
    );
  for (const { id } of missing) await summarizeInspection(ctx, id);
  return missing.length;
}
