// What an e-signature signs (docs/signatures.md, "The record hash"): the inspection as recorded, the
// video's SHA-256 and analysis version, every detection disposition, the operator's and line's
// names, the floor-plan layout the record shows (layout.ts) and the digests of the evidence it is
// drawn from (evidence.ts), plus the signature's own fields. The hash is SHA-256 over canonical
// JSON, so re-reading the same record gives the same hash and any later change to it gives another.
import { createHash } from 'node:crypto';
import { asc, eq, max } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import {
  auditLog,
  dispositions,
  inspections,
  lineClearances,
  signatures,
  users,
  videos,
} from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { iso } from '../ids.ts';
import type { Disposition, ReplacedDetection } from '../schemas/reports.ts';
import type {
  KeptAtSigning,
  RecordingDevice,
  Signature,
  SignatureMeaning,
  SignedEvidence,
} from '../schemas/signatures.ts';
import { canonicalJson } from './canonical-json.ts';
import type { LayoutDigest } from './layout.ts';

export type InspectionRow = typeof inspections.$inferSelect;
export type VideoRow = typeof videos.$inferSelect;
type DispositionRow = typeof dispositions.$inferSelect;
type SignatureRow = typeof signatures.$inferSelect;

/** A disposition as the record holds it: on a replaced detection, with that detection as it was. */
export type RecordDisposition = Disposition & { replaced?: ReplacedDetection };

export const toDisposition = (row: DispositionRow): RecordDisposition => ({
  predictionId: row.predictionId,
  disposition: row.disposition as Disposition['disposition'],
  reason: row.reason,
  reviewerId: row.reviewerId,
  reviewerName: row.reviewerName,
  at: iso(row.at),
  ...(row.replaced && { replaced: row.replaced }),
});

export const toSignature = (row: SignatureRow): Signature => ({
  signerId: row.signerId,
  signerName: row.signerName,
  signerEmail: row.signerEmail,
  meaning: row.meaning as SignatureMeaning,
  statement: row.statement,
  notes: row.notes,
  signedAt: iso(row.signedAt),
  recordHash: row.recordHash,
});

/** The meaning of each signature in words, as the signing dialog and the PDF show it. */
export const signatureStatements: Record<SignatureMeaning, string> = {
  approved: 'Approved: the line is clear for the next batch',
  rejected: 'Rejected: the line is not clear',
};

export interface InspectionRecord {
  inspection: InspectionRow;
  video: VideoRow | null;
  dispositions: RecordDisposition[];
  signature: Signature | null;
  /** What the signature kept as it was (null: unsigned, or signed before anything was kept). */
  kept: KeptAtSigning | null;
  /**
   * The last audit entry committed before the record was read: every change it shows was
   * committed with an entry up to this one (the summary built from it keeps it, summarizeMissing).
   */
  readThrough: number;
}

/**
 * Locks the inspection's row until the transaction ends. Everything that changes the record or
 * signs it takes this lock before reading it: a signature, a disposition, a change to its evidence
 * (refuseIfSignedEvidence). Each then reads what the one before it committed.
 */
export async function lockInspection(tx: Tx, inspectionId: string): Promise<void> {
  await tx
    .select({ id: inspections.id })
    .from(inspections)
    .where(eq(inspections.id, inspectionId))
    .for('update');
}

/** Reads the parts of the record that a signature covers (in the caller's transaction if any). */
export async function readRecord(db: Db | Tx, inspectionId: string): Promise<InspectionRecord> {
  // Before the record: a change committed after this read has a later entry (ids are drawn in
  // commit order), even one committed before the record's own read.
  const [trail] = await db.select({ last: max(auditLog.id) }).from(auditLog);
  const [inspection] = await db.select().from(inspections).where(eq(inspections.id, inspectionId));
  if (!inspection) throw notFound('Inspection');
  const [video] = inspection.videoId
    ? await db.select().from(videos).where(eq(videos.id, inspection.videoId))
    : [];
  const dispositionRows = await db
    .select()
    .from(dispositions)
    .where(eq(dispositions.inspectionId, inspectionId))
    .orderBy(asc(dispositions.predictionId));
  const [signature] = await db
    .select()
    .from(signatures)
    .where(eq(signatures.inspectionId, inspectionId));
  return {
    inspection,
    video: video ?? null,
    dispositions: dispositionRows.map(toDisposition),
    signature: signature ? toSignature(signature) : null,
    kept: signature?.kept ?? null,
    readThrough: trail?.last ?? 0,
  };
}

/** The operator's and the line's names as they are now (a signature keeps them as they were). */
export async function currentNames(db: Db | Tx, inspection: InspectionRow) {
  const [operator] = await db
    .select({ name: users.name })
    .from(users)
    .where(eq(users.id, inspection.operatorId));
  const [line] = await db
    .select({ name: lineClearances.name })
    .from(lineClearances)
    .where(eq(lineClearances.id, inspection.lineClearanceId));
  return { operatorName: operator?.name ?? 'Unknown', lineName: line?.name ?? 'Unknown Line' };
}

/** The signed content: everything the operator recorded and the reviewer decided before signing. */
function signedContent(record: InspectionRecord) {
  const { inspection: i, video } = record;
  return {
    inspection: {
      id: i.id,
      lineClearanceId: i.lineClearanceId,
      operatorId: i.operatorId,
      startTime: iso(i.startTime),
      endTime: i.endTime ? iso(i.endTime) : null,
      productLeaving: i.productLeaving,
      batchLeaving: i.batchLeaving,
      productComing: i.productComing,
      batchComing: i.batchComing,
      operatorNotes: i.operatorNotes,
      checklist: i.checklist,
    },
    video: video
      ? { id: video.id, sha256: video.sha256, analysisVersion: video.analysisVersion }
      : null,
    dispositions: record.dispositions.map((d) => ({
      predictionId: d.predictionId,
      disposition: d.disposition,
      reason: d.reason,
      reviewerId: d.reviewerId,
      at: d.at,
      // Only where kept: the hashes of records without replaced detections stay as signed.
      ...(d.replaced && { replaced: d.replaced }),
    })),
  };
}

export type SignatureFields = Omit<Signature, 'recordHash'>;

/**
 * What the hash covers of what a signature keeps: the names, the layout's digest, the evidence's
 * digests and the device (none for signatures made before they were kept: their hashes stay as
 * signed).
 */
export interface KeptDigest {
  operatorName: string;
  lineName: string;
  layout: LayoutDigest;
  /** Signed: as kept; not signed: the digests read now, without the keyframe images'. */
  evidence?: SignedEvidence | Omit<SignedEvidence, 'keyframeImagesSha256'>;
  /** The video's device id now, with the name shown (recording-device.ts `deviceDigest`). */
  device?: RecordingDevice | null;
}

/**
 * What the record hash is taken of: the record with the signature's fields (or none, before
 * signing) and the names, layout and evidence it shows (none for signatures made before they were
 * kept, whose hashes stay as signed). The electronic copy carries it, to be hashed again by anyone.
 */
export function hashedContent(
  record: InspectionRecord,
  signature: SignatureFields | null,
  kept: KeptDigest | null,
) {
  const signed = signature && {
    signerId: signature.signerId,
    signerName: signature.signerName,
    meaning: signature.meaning,
    statement: signature.statement,
    notes: signature.notes,
    signedAt: signature.signedAt,
  };
  return { record: signedContent(record), signature: signed, ...(kept && { kept }) };
}

export type HashedContent = ReturnType<typeof hashedContent>;

/** The record hash: SHA-256 (hex) of `hashedContent` as canonical JSON. */
export const hashOfContent = (content: HashedContent): string =>
  createHash('sha256').update(canonicalJson(content)).digest('hex');

export const recordHash = (
  record: InspectionRecord,
  signature: SignatureFields | null,
  kept: KeptDigest | null,
): string => hashOfContent(hashedContent(record, signature, kept));
