// Floor plans (spec §7): list, multipart upload (one per line clearance; a new upload replaces the
// old one), the image by file name, delete.
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { audit } from '../audit/audit.ts';
import { changeReason, noBodyAsEmpty, withReason } from '../audit/change-reason.ts';
import { floorplanConfigs, floorplans } from '../db/schema.ts';
import { currentUser, denied } from '../http/auth-hook.ts';
import { errorResponses } from '../http/error-responses.ts';
import { badRequest, HttpError, notFound } from '../http/errors.ts';
import { sendStored } from '../http/send-file.ts';
import { BODY_RULES, refusedText } from '../http/text-guard.ts';
import { iso, newId } from '../ids.ts';
import { isKeptFloorplanImage, lockLayout, releaseFloorplanImage } from '../reports/layout.ts';
import { DeleteReasonBody } from '../schemas/change-reason.ts';
import { ErrorResponse, IdParams, Matching, MessageResponse } from '../schemas/common.ts';
import { Floorplan } from '../schemas/floorplans.ts';
import { managesLine } from '../services/access.ts';
import {
  floorplanImageKey,
  floorplanImageUrl,
  newFloorplanImageKey,
} from '../services/floorplan-images.ts';
import { floorplanImageProblem, sniffImage } from '../services/image-type.ts';
import { sha256Hex } from '../storage/storage.ts';
import { findLine } from './line-clearances.ts';

type Row = typeof floorplans.$inferSelect;

export const toFloorplan = (row: Row): Floorplan => ({
  _id: row.id,
  name: row.name,
  imagePath: floorplanImageUrl(row.imageKey),
  lineID: row.lineId,
  createdAt: iso(row.createdAt),
});

const errors = { ...errorResponses, 413: ErrorResponse };
const MANAGERS = ['admin', 'factory_manager', 'lc_manager'] as const;
const ID = /^[0-9a-f]{24}$/;

interface Upload {
  name: string;
  lineId: string;
  image: Buffer;
}

/** Reads the form: fields name and lineID, file image. Any order; the file is size-limited. */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  const fields: Record<string, string> = {};
  let image: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'image') {
          throw badRequest(`Unexpected file field '${part.fieldname}'`);
        }
        image = await part.toBuffer();
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    throw formLimitError(error, request.server.ctx.config.maxUploadBytes);
  }
  const refused = refusedText(fields, 'body', BODY_RULES);
  if (refused) throw badRequest(refused);
  const lineId = fields.lineID?.trim() ?? '';
  if (!lineId) throw badRequest('lineID is required');
  if (!ID.test(lineId)) throw badRequest('lineID must be a line clearance id');
  if (!image || image.length === 0) throw badRequest('image is required');
  const name = (fields.name ?? 'Floorplan').trim() || 'Floorplan';
  if (name.length > 200) throw badRequest('name must be at most 200 characters');
  return { name, lineId, image };
}

/** The multipart plugin's limit errors in words: which part, and the limit it passed. */
function formLimitError(error: unknown, maxBytes: number): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    const mib = maxBytes / 1024 / 1024;
    const limit = Number.isInteger(mib) ? `${mib} MiB` : `${maxBytes} bytes`;
    return new HttpError(413, `image is larger than the ${limit} a floor plan may have`);
  }
  if (code === 'FST_FILES_LIMIT') return badRequest('image: send one image file, not several');
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return badRequest('The form has more fields than name, lineID and image');
  }
  return error;
}

export const floorplanRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Only the upload takes multipart bodies: registered here, the plugin's per-request hooks (an
  // async onRequest that adds a 'close' listener, an async onResponse) run for these routes only,
  // not for every request of the API.
  await app.register(multipart, {
    limits: { fileSize: app.ctx.config.maxUploadBytes, files: 1, fields: 10, fieldSize: 10_000 },
  });
  const { db, storage } = app.ctx;

  app.get(
    '/floorplans',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['floorplans'], response: { 200: Type.Array(Floorplan), ...errors } },
    },
    async () =>
      (await db.select().from(floorplans).orderBy(asc(floorplans.createdAt))).map(toFloorplan),
  );

  app.get(
    '/floorplans/:file',
    {
      config: { access: 'authenticated', media: true },
      schema: {
        tags: ['floorplans'],
        params: Type.Object({
          file: Matching('^[0-9a-f]{24}\\.(png|jpg|gif)$', 'must be {id}.png, .jpg or .gif'),
        }),
        response: { 416: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const key = floorplanImageKey(request.params.file);
      const [row] = await db.select().from(floorplans).where(eq(floorplans.imageKey, key));
      // A plan since replaced is still served while a signed record was drawn on it.
      if (!row && !(await isKeptFloorplanImage(db, key))) throw notFound('Floor plan image');
      return sendStored(request, reply, storage, key, 'Floor plan image');
    },
  );

  app.post(
    '/floorplans',
    {
      config: { access: MANAGERS },
      schema: {
        tags: ['floorplans'],
        consumes: ['multipart/form-data'],
        description: 'Multipart form: name, image (PNG, JPEG or GIF), lineID.',
        response: { 201: Floorplan, 415: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      if (!request.isMultipart()) throw badRequest('The upload must be multipart/form-data');
      const upload = await readUpload(request);
      const line = await findLine(db, upload.lineId).catch(() => {
        throw badRequest('lineID names an unknown line clearance');
      });
      if (!managesLine(user, line)) await denied(request, 'not the manager of this line clearance');
      const type = sniffImage(upload.image);
      if (!type) throw badRequest('image must be a PNG, JPEG or GIF file');
      const problem = floorplanImageProblem(upload.image, type);
      if (problem) throw badRequest(problem);
      const id = newId();
      const imageKey = newFloorplanImageKey(type);
      await storage.put(imageKey, upload.image);
      let replaced: Row | undefined;
      let created: Row | undefined;
      try {
        await db.transaction(async (tx) => {
          await lockLayout(tx, line.id, 'update');
          [replaced] = await tx
            .delete(floorplans)
            .where(eq(floorplans.lineId, line.id))
            .returning();
          [created] = await tx
            .insert(floorplans)
            .values({
              id,
              name: upload.name,
              imageKey,
              lineId: line.id,
              contentType: type.contentType,
            })
            .returning();
          // The line's saved configuration now refers to the new image.
          await tx
            .update(floorplanConfigs)
            .set({ floorplanId: id })
            .where(eq(floorplanConfigs.lineClearanceId, line.id));
          await audit(tx, request, {
            action: replaced ? 'replace' : 'create',
            entity: 'floorplan',
            entityId: id,
            oldValue: replaced ? toFloorplan(replaced) : null,
            // The image's SHA-256, as a signed report cites it (server/reports/layout.ts).
            newValue: created
              ? {
                  ...toFloorplan(created),
                  sha256: sha256Hex(upload.image),
                }
              : null,
          });
        });
      } catch (error) {
        await storage.delete(imageKey);
        throw error;
      }
      if (replaced) await releaseFloorplanImage(app.ctx, replaced.imageKey);
      if (!created) throw new Error('insert returned no row');
      return reply.status(201).send(toFloorplan(created));
    },
  );

  app.delete(
    '/floorplans/:id',
    {
      config: { access: MANAGERS },
      preValidation: noBodyAsEmpty,
      schema: {
        tags: ['floorplans'],
        params: IdParams,
        body: DeleteReasonBody('floor plan'),
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      const reason = changeReason(request.body.reason, 'the floor plan is deleted');
      const user = currentUser(request);
      const [row] = await db.select().from(floorplans).where(eq(floorplans.id, request.params.id));
      if (!row) throw notFound('Floor plan');
      if (!managesLine(user, await findLine(db, row.lineId))) {
        await denied(request, 'not the manager of this line clearance');
      }
      await db.transaction(async (tx) => {
        await lockLayout(tx, row.lineId, 'update');
        await tx.delete(floorplans).where(eq(floorplans.id, row.id));
        await tx
          .update(floorplanConfigs)
          .set({ floorplanId: null })
          .where(eq(floorplanConfigs.floorplanId, row.id));
        await audit(tx, request, {
          action: 'delete',
          entity: 'floorplan',
          entityId: row.id,
          ...withReason(reason, toFloorplan(row)),
        });
      });
      await releaseFloorplanImage(app.ctx, row.imageKey);
      return { message: 'Floor plan deleted' };
    },
  );
};
