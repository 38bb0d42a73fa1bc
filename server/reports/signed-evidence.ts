// The guard that keeps a signed inspection's evidence as it was signed (docs/signatures.md, "Signed
// evidence stays as it was signed"): analysis runs, ingestion, uploads and deletion all call it.
import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { inspections, signatures } from '../db/schema.ts';
import { HttpError } from '../http/errors.ts';
import { iso } from '../ids.ts';

/**
 * A change refused because the video is the evidence of a signed inspection (409): the signature's
 * record hash covers the video and its analysis, and dispositions name its predictions.
 */
export class SignedEvidenceError extends HttpError {
  constructor(
    message: string,
    /** The video whose evidence was protected: the refusal goes on its record's history. */
    readonly videoId: string,
  ) {
    super(409, message);
    this.name = 'SignedEvidenceError';
  }
}

/**
 * The rule, over `inspections` left-joined with `signatures`: an inspection is signed when it has
 * a signature or is no longer pending. The guard below and the admin's video list
 * (`signedEvidence`, server/services/videos.ts) both read it from here.
 */
export const inspectionIsSigned = sql<boolean>`(${signatures.meaning} is not null or ${inspections.status} <> 'pending')`;

/**
 * Throws SignedEvidenceError, ending in `consequence`, when an approved or rejected inspection was
 * recorded on the video. It locks the video's inspections, so in a transaction a signature already
 * being written (its row updated or its signature inserted) is waited for, then seen. Answers how
 * many inspections name the video.
 */
export async function refuseIfSignedEvidence(
  db: Db | Tx,
  videoId: string,
  consequence: string,
): Promise<number> {
  // Filtered after the lock: a WHERE on the status would skip a row whose signing is in flight.
  const rows = await db
    .select({
      status: inspections.status,
      reviewedAt: inspections.reviewedAt,
      meaning: signatures.meaning,
      signedAt: signatures.signedAt,
      signed: inspectionIsSigned,
    })
    .from(inspections)
    .leftJoin(signatures, eq(signatures.inspectionId, inspections.id))
    .where(eq(inspections.videoId, videoId))
    .for('update', { of: inspections });
  const signed = rows.find((row) => row.signed);
  if (!signed) return rows.length;
  const how = signedAs(signed.meaning ?? signed.status, signed.signedAt ?? signed.reviewedAt);
  throw new SignedEvidenceError(
    `The video is evidence of a signed inspection (${how}); ${consequence}`,
    videoId,
  );
}

/** 'approved 2026-11-26 14:03 UTC': a signature's meaning and time in a refusal's words. */
export function signedAs(meaning: string, at: Date | null): string {
  return at ? `${meaning} ${iso(at).slice(0, 16).replace('T', ' ')} UTC` : meaning;
}

/** Runs `work`; a signed-evidence refusal from it is audited as a refusal, then answered (409). */
export async function auditSignedEvidence<T>(
  request: FastifyRequest,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // Outside `work`'s transaction: the refusal's entry commits although the change rolled back.
    if (error instanceof SignedEvidenceError) {
      await request.server.ctx.refusals.record(request, error.message, 'evidence.protected', {
        entity: 'video',
        entityId: error.videoId,
      });
    }
    throw error;
  }
}
