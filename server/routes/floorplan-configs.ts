// Floor-plan configurations (spec §7): one per line clearance, read by video, by floor plan or by
// line clearance; saving replaces the line's configuration (the audit log keeps the old one).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { Type } from 'typebox';
import { audit } from '../audit/audit.ts';
import { changeReason, withReason } from '../audit/change-reason.ts';
import type { Tx } from '../db/client.ts';
import {
  devices,
  floorplanConfigs,
  floorplans,
  inspections,
  signatures,
  videos,
} from '../db/schema.ts';
import { currentUser, denied } from '../http/auth-hook.ts';
import { errorResponses } from '../http/error-responses.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { iso, newId } from '../ids.ts';
import { withVideoCalibration } from '../reports/layout.ts';
import type { ChecklistSnapshot } from '../schemas/capture.ts';
import { Id } from '../schemas/common.ts';
import {
  FloorplanConfig,
  FloorplanConfigSave,
  type FloorplanConfiguration,
} from '../schemas/floorplan-configs.ts';
import { managesLine } from '../services/access.ts';
import { floorplanImageUrl } from '../services/floorplan-images.ts';
import { notUpdated } from '../services/record-version.ts';
import { checkpointsByCode, lockCheckpointCodes, tagCode } from '../services/tag-codes.ts';
import { findVisibleVideo } from '../services/videos.ts';
import { findLine } from './line-clearances.ts';

type Row = typeof floorplanConfigs.$inferSelect;

const toConfig = (row: Row): FloorplanConfig => ({
  _id: row.id,
  lineClearanceId: row.lineClearanceId,
  floorplanId: row.floorplanId,
  name: row.name,
  configuration: row.configuration,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  version: row.version,
});

const errors = errorResponses;
const read = { 200: FloorplanConfig, ...errors };

/**
 * What the wizard's user does when refused a save of an older configuration: its work stays on
 * screen beside the two choices these words name (docs/floorplans.md, "Saved meanwhile").
 */
const SAVE_AGAIN = 'Save yours over that change, or load the saved configuration to start from it.';

/**
 * Two tags of one line with the same QR code: a scan (matched on the trimmed code, like
 * services/capture.ts) would tick only the first, and the other would be flagged as not scanned.
 */
function sharedTagCode(configuration: FloorplanConfiguration): string | null {
  const byCode = new Map<string, string>();
  for (const [i, tag] of configuration.tags.entries()) {
    const code = tagCode(tag);
    if (!code) continue;
    const first = byCode.get(code);
    if (first !== undefined) {
      return `body.configuration.tags.${i}.qrCode '${code}' is also the code of tag '${first}': each tag needs its own code, or a scan ticks only one of them`;
    }
    byCode.set(code, tag.name);
  }
  return null;
}

/**
 * The first tag code new to this line that is another line's checkpoint or a registered device's
 * serial (which POST /api/devices keeps apart from checkpoints the other way round), as a 400's
 * message. A scan is matched by its trimmed code alone, so that other label would tick this tag:
 * a false record that it was visited. Codes of the line's saved configuration are not checked
 * again, so a clash stored before this rule still saves unchanged. Every user reads every line
 * and its codes (docs/permissions.md), so the other line is named to any caller.
 */
async function claimedTagCode(
  tx: Tx,
  lineId: string,
  configuration: FloorplanConfiguration,
  saved: FloorplanConfiguration | undefined,
): Promise<string | null> {
  const kept = new Set(saved?.tags.map(tagCode));
  const added = configuration.tags.flatMap((tag, i) => {
    const code = tagCode(tag);
    return code && !kept.has(code) ? [{ i, code }] : [];
  });
  if (added.length === 0) return null;
  const checkpoints = await checkpointsByCode(tx, lineId);
  const serials = await tx
    .select({ serial: devices.qrCode, name: devices.name })
    .from(devices)
    .where(
      inArray(
        devices.qrCode,
        added.map((tag) => tag.code),
      ),
    );
  for (const { i, code } of added) {
    const checkpoint = checkpoints.get(code);
    const device = serials.find((row) => row.serial === code);
    const owner = checkpoint
      ? `already a checkpoint of another line (tag '${checkpoint.tag}' of ${checkpoint.line})`
      : device && `the serial of the registered device '${device.name}'`;
    if (owner) {
      const tag = configuration.tags[i]?.name;
      return `body.configuration.tags.${i}.qrCode '${code}' of tag '${tag}' is ${owner}: scanning that label would tick this tag, so give this tag its own code`;
    }
  }
  return null;
}

/**
 * The tags and hot zones the inspection was recorded against (its checklist snapshot), on the
 * layout's plan and mapping: what its report's checklist counts (report.ts), so the report's path
 * player counts the same tags (QA: 'Tags: 7 of 9' beside a checklist of 8 after a tag was added).
 */
function withChecklist(
  configuration: FloorplanConfiguration,
  checklist: ChecklistSnapshot | null,
): FloorplanConfiguration {
  if (!checklist) return configuration;
  return {
    ...configuration,
    tags: checklist.tags.map(({ index: _index, ...tag }) => tag),
    hotZones: checklist.hotZones.map(({ index: _index, ...zone }) => zone),
  };
}

export const floorplanConfigRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  /**
   * The line's configuration, naming the image of its floor plan as it is now: a replaced plan's
   * image is deleted, and the configuration saved before the replace still named it (QA: the path
   * player said 'The floor-plan image could not be loaded' until the wizard saved again).
   */
  async function byLine(lineId: string | null): Promise<FloorplanConfig> {
    const [found] = lineId
      ? await db
          .select({ row: floorplanConfigs, imageKey: floorplans.imageKey })
          .from(floorplanConfigs)
          .leftJoin(floorplans, eq(floorplans.id, floorplanConfigs.floorplanId))
          .where(eq(floorplanConfigs.lineClearanceId, lineId))
      : [];
    if (!found) throw notFound('Floor plan configuration');
    const config = toConfig(found.row);
    if (!found.imageKey) return config;
    const floorplanImage = floorplanImageUrl(found.imageKey);
    return { ...config, configuration: { ...config.configuration, floorplanImage } };
  }

  app.get(
    '/floorplan-configs/:videoId',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['floorplans'],
        params: Type.Object({ videoId: Id }),
        querystring: Type.Object({
          tags: Type.Optional(
            Type.Literal('recorded', {
              description:
                "'recorded': the tags and hot zones of the inspection's checklist snapshot (the report's), not the line's as they are now",
            }),
          ),
        }),
        response: read,
      },
    },
    async (request) => {
      const video = await findVisibleVideo(request, eq(videos.id, request.params.videoId));
      // A signed inspection's video is drawn on the layout its signature kept (docs/signatures.md).
      const [kept] = await db
        .select({ kept: signatures.kept })
        .from(signatures)
        .innerJoin(inspections, eq(inspections.id, signatures.inspectionId))
        .where(and(eq(inspections.videoId, video.id), isNotNull(signatures.kept)))
        .limit(1);
      if (kept?.kept && !kept.kept.layout.config) throw notFound('Floor plan configuration');
      const config = kept?.kept?.layout.config ?? (await byLine(video.lineClearanceId));
      const configuration = kept?.kept
        ? config.configuration
        : withVideoCalibration(config.configuration, video);
      if (request.query.tags !== 'recorded') return { ...config, configuration };
      const [recorded] = await db
        .select({ checklist: inspections.checklist })
        .from(inspections)
        .where(eq(inspections.videoId, video.id))
        .limit(1);
      return {
        ...config,
        configuration: withChecklist(configuration, recorded?.checklist ?? null),
      };
    },
  );

  app.get(
    '/floorplan-configs/floorplan/:floorplanId',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['floorplans'], params: Type.Object({ floorplanId: Id }), response: read },
    },
    async (request) => {
      const [plan] = await db
        .select()
        .from(floorplans)
        .where(eq(floorplans.id, request.params.floorplanId));
      if (!plan) throw notFound('Floor plan');
      return byLine(plan.lineId);
    },
  );

  app.get(
    '/floorplan-configs/line-clearance/:lineClearanceId',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['floorplans'],
        params: Type.Object({ lineClearanceId: Id }),
        response: read,
      },
    },
    async (request) => byLine(request.params.lineClearanceId),
  );

  app.post(
    '/floorplan-configs',
    {
      config: { access: ['admin', 'factory_manager', 'lc_manager'] },
      schema: {
        tags: ['floorplans'],
        body: FloorplanConfigSave,
        response: { 200: FloorplanConfig, 201: FloorplanConfig, ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const body = request.body;
      const line = await findLine(db, body.lineClearanceId).catch(() => {
        throw badRequest('body.lineClearanceId names an unknown line clearance');
      });
      if (!managesLine(user, line)) await denied(request, 'not the manager of this line clearance');
      const [plan] = await db.select().from(floorplans).where(eq(floorplans.lineId, line.id));
      if (body.floorplanId !== undefined && body.floorplanId !== plan?.id) {
        throw badRequest('body.floorplanId is not the floor plan of this line clearance');
      }
      // Only the fields of the schema arrive (http/undeclared-fields.ts): no client-side state.
      const configuration = body.configuration;
      const shared = sharedTagCode(configuration);
      if (shared) throw badRequest(shared);
      const reason = changeReason(body.reason, 'the floor-plan configuration is changed');
      const values = {
        name: body.name.trim(),
        floorplanId: plan?.id ?? null,
        configuration,
        updatedAt: new Date(),
      };
      const { row, old } = await db.transaction(async (tx) => {
        await lockCheckpointCodes(tx);
        const [previous] = await tx
          .select()
          .from(floorplanConfigs)
          .where(eq(floorplanConfigs.lineClearanceId, line.id));
        const claimed = await claimedTagCode(tx, line.id, configuration, previous?.configuration);
        if (claimed) throw badRequest(claimed);
        const [saved] = await tx
          .insert(floorplanConfigs)
          .values({ id: newId(), lineClearanceId: line.id, ...values })
          .onConflictDoUpdate({
            target: floorplanConfigs.lineClearanceId,
            set: values,
            // A saved configuration is replaced only at the version the wizard opened (0: none),
            // also one saved since the read above.
            setWhere:
              body.version === undefined ? undefined : eq(floorplanConfigs.version, body.version),
          })
          .returning();
        if (!saved) {
          const [current] = await tx
            .select({ id: floorplanConfigs.id })
            .from(floorplanConfigs)
            .where(eq(floorplanConfigs.lineClearanceId, line.id));
          if (!current) throw new Error('upsert returned no row');
          throw await notUpdated(
            tx,
            request,
            'floorplan-config',
            current.id,
            'Floor plan configuration',
            SAVE_AGAIN,
          );
        }
        await audit(tx, request, {
          action: previous ? 'update' : 'create',
          entity: 'floorplan-config',
          entityId: saved.id,
          ...(previous
            ? withReason(reason, toConfig(previous), toConfig(saved))
            : { oldValue: null, newValue: { ...toConfig(saved), ...(reason && { reason }) } }),
        });
        return { row: saved, old: previous };
      });
      return reply.status(old ? 200 : 201).send(toConfig(row));
    },
  );
};
