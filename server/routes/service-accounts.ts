// /api/service-accounts: API keys with the 'service' role for an external SLAM or detector
// (docs/analysis.md). Created and revoked by admins; the key is shown once, on creation.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { desc, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { audit } from '../audit/audit.ts';
import { apiKeys } from '../db/schema.ts';
import { currentUser } from '../http/auth-hook.ts';
import { errorResponses } from '../http/error-responses.ts';
import { conflict, notFound } from '../http/errors.ts';
import { iso } from '../ids.ts';
import { ApiKey, ApiKeyCreate, ApiKeyCreated } from '../schemas/analysis.ts';
import { IdParams } from '../schemas/common.ts';
import { newApiKey } from '../services/api-keys.ts';

const errors = errorResponses;
type Row = typeof apiKeys.$inferSelect;

const toApiKey = (row: Row): ApiKey => ({
  _id: row.id,
  name: row.name,
  createdBy: row.createdBy,
  createdAt: iso(row.createdAt),
  revokedAt: row.revokedAt ? iso(row.revokedAt) : null,
  lastUsedAt: row.lastUsedAt ? iso(row.lastUsedAt) : null,
});

export const serviceAccountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/service-accounts',
    {
      config: { access: ['admin'] },
      schema: { tags: ['analysis'], response: { 200: Type.Array(ApiKey), ...errors } },
    },
    async () => (await db.select().from(apiKeys).orderBy(desc(apiKeys.createdAt))).map(toApiKey),
  );

  app.post(
    '/service-accounts',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['analysis'],
        description: 'Creates a service account; the answer holds its API key, shown only once.',
        body: ApiKeyCreate,
        response: { 201: ApiKeyCreated, ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const key = newApiKey();
      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(apiKeys)
          .values({
            id: key.id,
            name: request.body.name.trim(),
            secretHash: key.secretHash,
            createdBy: user.id,
          })
          .returning();
        if (!created) throw new Error('insert returned no row');
        // The secret never enters the audit log.
        await audit(tx, request, {
          action: 'create',
          entity: 'service-account',
          entityId: created.id,
          newValue: toApiKey(created),
        });
        return created;
      });
      return reply.status(201).send({ ...toApiKey(row), key: key.key });
    },
  );

  app.delete(
    '/service-accounts/:id',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['analysis'],
        description: 'Revokes the key for good.',
        params: IdParams,
        response: { 200: ApiKey, ...errors },
      },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const [old] = await tx.select().from(apiKeys).where(eq(apiKeys.id, request.params.id));
        if (!old) throw notFound('Service account');
        if (old.revokedAt) throw conflict('The service account is already revoked');
        const [revoked] = await tx
          .update(apiKeys)
          .set({ revokedAt: new Date() })
          .where(eq(apiKeys.id, old.id))
          .returning();
        if (!revoked) throw notFound('Service account');
        await audit(tx, request, {
          action: 'revoke',
          entity: 'service-account',
          entityId: old.id,
          oldValue: toApiKey(old),
          newValue: toApiKey(revoked),
        });
        return toApiKey(revoked);
      }),
  );
};
