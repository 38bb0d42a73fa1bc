// A reviewer's disposition of one detection: a confirmed finding, or dismissed as a false positive
// with a reason (docs/reports.md). Stored per inspection and prediction, changeable until the
// inspection is signed, every change audit-logged with its old and new value; a change over
// another decision than the reviewer's page showed is refused (review-changes.ts).
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { audit } from '../audit/audit.ts';
import type { AuthUser } from '../context.ts';
import { databaseNow } from '../db/database-now.ts';
import { dispositions, predictions } from '../db/schema.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { isBlank } from '../schemas/blank.ts';
import type { Disposition, DispositionBody } from '../schemas/reports.ts';
import { givesReason, MIN_REASON_WORDS } from '../schemas/review-notes.ts';
import { lockInspection, readRecord, toDisposition } from './record.ts';
import { summarizeInspection } from './report.ts';
import { decidedMeanwhile, isSeen } from './review-changes.ts';
import { checkSigner, SignedRecordRefusal, withSignedRefusalAudited } from './signing.ts';

export async function setDisposition(
  request: FastifyRequest,
  user: AuthUser,
  params: { id: string; predictionId: string },
  body: DispositionBody,
): Promise<Disposition> {
  const { db } = request.server.ctx;
  const reason = (body.reason ?? '').trim();
  // The reviewer who may sign is the one who may decide on its detections. A refusal is
  // audit-logged outside the transaction (which would otherwise wait for itself on PGlite).
  await checkSigner(request, user, await readRecord(db, params.id));
  const decision = db.transaction(async (tx) => {
    // After a signature in flight commits: a decision never lands on a signed record.
    await lockInspection(tx, params.id);
    const record = await readRecord(tx, params.id);
    if (record.signature || record.inspection.status !== 'pending') {
      throw new SignedRecordRefusal(record);
    }
    const [prediction] = record.video
      ? await tx
          .select({
            id: predictions.id,
            filename: predictions.filename,
            classLabels: predictions.classLabels,
            confs: predictions.confs,
          })
          .from(predictions)
          .where(
            and(eq(predictions.id, params.predictionId), eq(predictions.videoId, record.video.id)),
          )
      : [];
    if (!prediction) throw notFound('Detection');
    const old = record.dispositions.find((d) => d.predictionId === params.predictionId) ?? null;
    // Which detection, in the words a reader of the trail knows it by (the id alone says nothing).
    const detection = {
      keyframe: prediction.filename,
      label: prediction.classLabels[0] ?? null,
      confidence: prediction.confs[0] ?? null,
    };
    // Another reviewer's decision since the page showed this one is not silently overwritten.
    if (body.seen !== undefined && !isSeen(body.seen, old)) {
      throw decidedMeanwhile(detection, old, user);
    }
    // A reason of invisible characters only is no reason (server/schemas/blank.ts).
    if (body.disposition === 'dismissed' && isBlank(reason)) {
      throw badRequest('body.reason is required for a dismissal');
    }
    // The rule of every other reason (a rejection's, a deletion's): 'x' tells an auditor nothing.
    if (body.disposition === 'dismissed' && !givesReason(reason)) {
      throw badRequest(
        `body.reason must say why the detection is a false positive (at least ${MIN_REASON_WORDS} different words)`,
      );
    }
    const values = {
      disposition: body.disposition,
      reason,
      reviewerId: user.id,
      reviewerName: user.name,
      // The trail's clock, as the entry written with it.
      at: await databaseNow(tx),
    };
    const [row] = await tx
      .insert(dispositions)
      .values({ inspectionId: params.id, predictionId: params.predictionId, ...values })
      .onConflictDoUpdate({
        target: [dispositions.inspectionId, dispositions.predictionId],
        set: values,
      })
      .returning();
    if (!row) throw new Error('The disposition was not stored');
    const stored = toDisposition(row);
    await audit(tx, request, {
      action: 'disposition',
      entity: 'inspection',
      entityId: params.id,
      oldValue: old,
      newValue: { ...stored, detection },
    });
    return stored;
  });
  const stored = await withSignedRefusalAudited(request, decision);
  // A dismissed detection is no longer an exception: /reports counts its flags anew.
  await summarizeInspection(request.server.ctx, params.id);
  return stored;
}
