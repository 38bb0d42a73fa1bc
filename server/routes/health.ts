import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { Health } from '../schemas/health.ts';

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: { tags: ['system'], security: [], response: { 200: Health } },
    },
    async () => {
      // A round trip proves the database answers, not only the process.
      await app.ctx.db.execute(sql`select 1`);
      return { status: 'ok' as const, database: app.ctx.dbKind };
    },
  );
};
