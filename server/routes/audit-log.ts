import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import { auditLog } from '../db/schema.ts';
import { iso } from '../ids.ts';
import { AuditEntry, AuditQuery } from '../schemas/audit-log.ts';
import { ErrorResponse } from '../schemas/common.ts';

export const auditLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/audit-log',
    {
      config: { access: ['audit', 'admin'] },
      schema: {
        tags: ['audit'],
        querystring: AuditQuery,
        response: { 200: Type.Array(AuditEntry), 400: ErrorResponse },
      },
    },
    async (request) => {
      const { limit = 200, before, entity, entityId } = request.query;
      const filters: SQL[] = [];
      if (before !== undefined) filters.push(lt(auditLog.id, before));
      if (entity !== undefined) filters.push(eq(auditLog.entity, entity));
      if (entityId !== undefined) filters.push(eq(auditLog.entityId, entityId));
      const rows = await app.ctx.db
        .select()
        .from(auditLog)
        .where(and(...filters))
        .orderBy(desc(auditLog.id))
        .limit(limit);
      return rows.map((row) => ({ ...row, at: iso(row.at) }));
    },
  );
};
