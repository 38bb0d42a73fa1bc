// What the sign-in page says about this server before anyone signs in: whether it holds the demo
// dataset, whose accounts share a published password (docs/demo-data.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { auditLog } from '../db/schema.ts';

const Instance = Type.Object({
  /** The demo loader ran on this database (its `demo.load` entry is in the trail for good). */
  demo: Type.Boolean(),
});

export const instanceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The trail keeps the entry for good, and nothing loads the demo once the server listens, so
  // the first answer holds for the process (an index-only read on audit_action_idx).
  let demo: Promise<boolean> | null = null;
  const readDemo = async () => {
    const [entry] = await app.ctx.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(eq(auditLog.action, 'demo.load'))
      .limit(1);
    return entry !== undefined;
  };

  app.get(
    '/instance',
    {
      config: { access: 'public' },
      schema: { tags: ['system'], security: [], response: { 200: Instance } },
    },
    async () => {
      demo ??= readDemo().catch((error: unknown) => {
        demo = null;
        throw error;
      });
      return { demo: await demo };
    },
  );
};
