// Inspections: list (scoped) and approve/reject of pending ones (spec §4, §7).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, desc, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { audit } from '../audit/audit.ts';
import { inspections } from '../db/schema.ts';
import { currentUser, denied } from '../http/auth-hook.ts';
import { errorResponses } from '../http/error-responses.ts';
import { conflict, notFound } from '../http/errors.ts';
import { iso } from '../ids.ts';
import { IdParams } from '../schemas/common.ts';
import { Inspection, type InspectionStatus, ReviewBody } from '../schemas/inspections.ts';
import { managesLine } from '../services/access.ts';
import { visibleTo } from '../services/scope.ts';
import { findLine } from './line-clearances.ts';

type Row = typeof inspections.$inferSelect;

export const toInspection = (row: Row): Inspection => ({
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
  checklist: row.checklist,
  reviewerId: row.reviewerId,
  reviewNotes: row.reviewNotes,
  reviewedAt: row.reviewedAt ? iso(row.reviewedAt) : null,
});

const errors = errorResponses;

export const inspectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/inspections',
    {
      config: { access: ['operator', 'lc_manager', 'factory_manager', 'admin', 'audit'] },
      schema: { tags: ['inspections'], response: { 200: Type.Array(Inspection), ...errors } },
    },
    async (request) => {
      const user = currentUser(request);
      const rows = await db
        .select()
        .from(inspections)
        .where(
          visibleTo(user, { owner: inspections.operatorId, line: inspections.lineClearanceId }),
        )
        .orderBy(desc(inspections.startTime));
      return rows.map(toInspection);
    },
  );

  for (const [verb, status] of [
    ['approve', 'approved'],
    ['reject', 'rejected'],
  ] as const) {
    app.patch(
      `/inspections/:id/${verb}`,
      {
        config: { access: ['lc_manager', 'factory_manager', 'admin'] },
        schema: {
          tags: ['inspections'],
          params: IdParams,
          body: Type.Optional(ReviewBody),
          response: { 200: Inspection, ...errors },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const [old] = await db
          .select()
          .from(inspections)
          .where(eq(inspections.id, request.params.id));
        if (!old) throw notFound('Inspection');
        if (!managesLine(user, await findLine(db, old.lineClearanceId))) {
          await denied(request, 'not the manager of this inspection’s line');
        }
        // Four-eyes rule: nobody verifies their own inspection.
        if (old.operatorId === user.id) await denied(request, 'cannot review own inspection');
        if (old.status !== 'pending') throw conflict(`The inspection is already ${old.status}`);
        return db.transaction(async (tx) => {
          const [row] = await tx
            .update(inspections)
            .set({
              status,
              reviewerId: user.id,
              reviewNotes: request.body?.notes ?? '',
              reviewedAt: new Date(),
            })
            // The status guard makes two concurrent reviews impossible: one of them updates nothing.
            .where(and(eq(inspections.id, old.id), eq(inspections.status, 'pending')))
            .returning();
          if (!row) throw conflict('The inspection was reviewed meanwhile');
          await audit(tx, request, {
            action: verb,
            entity: 'inspection',
            entityId: row.id,
            oldValue: toInspection(old),
            newValue: toInspection(row),
          });
          return toInspection(row);
        });
      },
    );
  }
};
