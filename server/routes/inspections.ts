// Inspections: list (scoped), approve/reject of pending ones as e-signatures (spec §4, §7;
// docs/reports.md) and the reviewer's detection dispositions.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { Type } from 'typebox';
import type { AuthUser } from '../context.ts';
import { inspections, lineClearances, signatures, users, videos } from '../db/schema.ts';
import { currentUser } from '../http/auth-hook.ts';
import { errorResponses } from '../http/error-responses.ts';
import { iso } from '../ids.ts';
import { setDisposition } from '../reports/dispositions.ts';
import { toSignature } from '../reports/record.ts';
import {
  approvalBlocker,
  type SignableRecord,
  type SignContext,
  signRules,
} from '../reports/report.ts';
import { signInspection } from '../reports/signing.ts';
import { Id, IdParams } from '../schemas/common.ts';
import { Inspection, type InspectionStatus, ListedInspection } from '../schemas/inspections.ts';
import { Disposition, DispositionBody } from '../schemas/reports.ts';
import { type Signature, SignBody } from '../schemas/signatures.ts';
import { visibleTo } from '../services/scope.ts';

type Row = typeof inspections.$inferSelect;

export const toInspection = (row: Row, signature: Signature | null): Inspection => ({
  _id: row.id,
  lineClearanceId: row.lineClearanceId,
  operatorId: row.operatorId,
  videoId: row.videoId,
  startTime: iso(row.startTime),
  status: row.status as InspectionStatus,
  operatorNotes: row.operatorNotes,
  productLeaving: row.productLeaving,
  batchLeaving: row.batchLeaving,
  productComing: row.productComing,
  batchComing: row.batchComing,
  endTime: row.endTime ? iso(row.endTime) : null,
  receivedAt: row.receivedAt ? iso(row.receivedAt) : null,
  checklist: row.checklist,
  reviewerId: row.reviewerId,
  reviewNotes: row.reviewNotes,
  reviewedAt: row.reviewedAt ? iso(row.reviewedAt) : null,
  signature,
});

const errors = errorResponses;

/** Why this caller cannot sign a pending record at all (role, line, second person); else null. */
function signBlocker(user: AuthUser, row: SignableRecord, context: SignContext) {
  const rules = signRules(user, row, context);
  return rules.refusal === 'signed' ? null : rules.reason;
}

const operators = alias(users, 'operators');

export const inspectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/inspections',
    {
      config: { access: ['operator', 'lc_manager', 'factory_manager', 'admin', 'audit'] },
      schema: {
        tags: ['inspections'],
        response: { 200: Type.Array(ListedInspection), ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      // The video's fields that decide an approval come in the same query (one join, no lookups).
      const rows = await db
        .select({
          inspection: inspections,
          signature: signatures,
          video: {
            id: videos.id,
            sha256: videos.sha256,
            status: videos.status,
            statusReason: videos.statusReason,
          },
          managerId: lineClearances.managerId,
          operatorPasswordSetBy: operators.passwordSetBy,
        })
        .from(inspections)
        .leftJoin(signatures, eq(signatures.inspectionId, inspections.id))
        .leftJoin(videos, eq(videos.id, inspections.videoId))
        .leftJoin(lineClearances, eq(lineClearances.id, inspections.lineClearanceId))
        .leftJoin(operators, eq(operators.id, inspections.operatorId))
        .where(
          visibleTo(user, { owner: inspections.operatorId, line: inspections.lineClearanceId }),
        )
        .orderBy(desc(inspections.startTime));
      return rows.map((row) => ({
        ...toInspection(row.inspection, row.signature && toSignature(row.signature)),
        approvalBlocker: approvalBlocker(row),
        signBlocker: signBlocker(user, row, {
          managerId: row.managerId,
          operatorPasswordSetBy: row.operatorPasswordSetBy,
        }),
      }));
    },
  );

  for (const [verb, meaning] of [
    ['approve', 'approved'],
    ['reject', 'rejected'],
  ] as const) {
    app.patch(
      `/inspections/:id/${verb}`,
      {
        config: { access: ['lc_manager', 'factory_manager', 'admin'] },
        // A call without a body is refused for its missing password, like one without the field.
        preValidation: async (request) => {
          request.body ??= {} as SignBody;
        },
        schema: {
          tags: ['inspections'],
          params: IdParams,
          body: SignBody,
          response: { 200: Inspection, ...errors },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const signed = await signInspection(
          request,
          reply,
          user,
          request.params.id,
          meaning,
          request.body,
        );
        return toInspection(signed.inspection, signed.signature);
      },
    );
  }

  app.put(
    '/inspections/:id/dispositions/:predictionId',
    {
      config: { access: ['lc_manager', 'factory_manager', 'admin'] },
      schema: {
        tags: ['inspections'],
        params: Type.Object({ id: Id, predictionId: Id }),
        body: DispositionBody,
        response: { 200: Disposition, ...errors },
      },
    },
    async (request) => setDisposition(request, currentUser(request), request.params, request.body),
  );
};
