// What an e-signature signs (docs/reports.md, "The record hash"): the inspection as recorded, the
// video's SHA-256 and analysis version, and every detection disposition, plus the signature's own
// fields. The hash is SHA-256 over canonical JSON, so re-reading the same record gives the same
// hash and any later change to it gives another.
import { createHash } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { dispositions, inspections, signatures, videos } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { iso } from '../ids.ts';
import type { Disposition } from '../schemas/reports.ts';
import type { Signature, SignatureMeaning } from '../schemas/signatures.ts';
import { canonicalJson } from './canonical-json.ts';

export type InspectionRow = typeof inspections.$inferSelect;
export type VideoRow = typeof videos.$inferSelect;
type DispositionRow = typeof dispositions.$inferSelect;
type SignatureRow = typeof signatures.$inferSelect;

export const toDisposition = (row: DispositionRow): Disposition => ({
  predictionId: row.predictionId,
  disposition: row.disposition as Disposition['disposition'],
  reason: row.reason,
  reviewerId: row.reviewerId,
  reviewerName: row.reviewerName,
  at: iso(row.at),
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
  dispositions: Disposition[];
  signature: Signature | null;
}

/** Reads the parts of the record that a signature covers (in the caller's transaction if any). */
export async function readRecord(db: Db | Tx, inspectionId: string): Promise<InspectionRecord> {
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
  };
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
    })),
  };
}

export type SignatureFields = Omit<Signature, 'recordHash'>;

/** SHA-256 (hex) of the record with the signature's fields (or none, before signing). */
export function recordHash(record: InspectionRecord, signature: SignatureFields | null): string {
  const signed = signature && {
    signerId: signature.signerId,
    signerName: signature.signerName,
    meaning: signature.meaning,
    statement: signature.statement,
    notes: signature.notes,
    signedAt: signature.signedAt,
  };
  return createHash('sha256')
    .update(canonicalJson({ record: signedContent(record), signature: signed }))
    .digest('hex');
}
