// What a report is drawn on (docs/signatures.md, "What a signature keeps"): the line's
// floor-plan configuration, with the video's own calibration when its analysis made one, and the
// floor-plan image. A signature keeps both (signatures.kept), so a signed record is redrawn on
// the plan it was signed on however the line's plan changes later, and the kept image stays in
// storage while a signature names it.
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import type { Db, Tx } from '../db/client.ts';
import { floorplanConfigs, floorplans, lineClearances, signatures } from '../db/schema.ts';
import { iso } from '../ids.ts';
import type { FloorplanConfig, FloorplanConfiguration } from '../schemas/floorplan-configs.ts';
import type { SignedLayout } from '../schemas/signatures.ts';
import { floorplanImageUrl } from '../services/floorplan-images.ts';
import { readWhole, sha256Hex } from '../storage/storage.ts';
import type { InspectionRecord, VideoRow } from './record.ts';

export interface Layout {
  config: FloorplanConfig | null;
  floorplan: { imageKey: string; contentType: string } | null;
  /** The image's bytes; null when there is no plan or its file is gone. */
  imageBytes: Buffer | null;
}

/** An analysed video's own calibration (its path's frame) replaces the line's point pairs. */
export function withVideoCalibration(
  configuration: FloorplanConfiguration,
  video: Pick<VideoRow, 'calibration'> | null,
): FloorplanConfiguration {
  return video?.calibration ? { ...configuration, ...video.calibration } : configuration;
}

/** The line's layout as it is now (for a record not yet signed, and for signing one). */
export async function currentLayout(
  ctx: Pick<AppContext, 'storage'> & { db: Db | Tx },
  lineId: string,
  video: Pick<VideoRow, 'calibration'> | null,
): Promise<Layout> {
  const [row] = await ctx.db
    .select()
    .from(floorplanConfigs)
    .where(eq(floorplanConfigs.lineClearanceId, lineId));
  const [plan] = await ctx.db.select().from(floorplans).where(eq(floorplans.lineId, lineId));
  const floorplan = plan ? { imageKey: plan.imageKey, contentType: plan.contentType } : null;
  const config: FloorplanConfig | null = row
    ? {
        _id: row.id,
        lineClearanceId: row.lineClearanceId,
        floorplanId: row.floorplanId,
        name: row.name,
        configuration: withVideoCalibration(row.configuration, video),
        createdAt: iso(row.createdAt),
        updatedAt: iso(row.updatedAt),
      }
    : null;
  return {
    config,
    floorplan,
    imageBytes: floorplan ? await readWhole(ctx.storage, floorplan.imageKey) : null,
  };
}

/** The layout a record is drawn on: the one its signature kept, else the line's as it is now. */
export async function recordLayout(
  ctx: Pick<AppContext, 'db' | 'storage'>,
  record: InspectionRecord,
): Promise<Layout> {
  const kept = record.kept?.layout;
  if (!kept) return currentLayout(ctx, record.inspection.lineClearanceId, record.video);
  const floorplan = kept.floorplan && {
    imageKey: kept.floorplan.imageKey,
    contentType: kept.floorplan.contentType,
  };
  return {
    config: kept.config,
    floorplan,
    imageBytes: floorplan ? await readWhole(ctx.storage, floorplan.imageKey) : null,
  };
}

export type LayoutDigest = ReturnType<typeof layoutDigest>;

/**
 * The layout's part of the record hash: the configuration and the SHA-256 of the image bytes as
 * read now, so a configuration edited in the database or an image replaced in storage both show as
 * a change since signing.
 */
export function layoutDigest(layout: Layout) {
  const { floorplan, imageBytes } = layout;
  return {
    config: layout.config,
    floorplanSha256: floorplan && (imageBytes ? sha256Hex(imageBytes) : 'missing'),
  };
}

/**
 * The layout a signature keeps (its image path naming the kept file, which the served
 * configuration then shows) and that layout's part of the record hash.
 */
export function keepLayout(drawn: Layout): { kept: SignedLayout; digest: LayoutDigest } {
  const { config, floorplan } = drawn;
  const asKept: Layout = {
    ...drawn,
    config: config && {
      ...config,
      configuration: {
        ...config.configuration,
        ...(floorplan && { floorplanImage: floorplanImageUrl(floorplan.imageKey) }),
      },
    },
  };
  const digest = layoutDigest(asKept);
  const sha = digest.floorplanSha256;
  return {
    kept: {
      config: asKept.config,
      floorplan: floorplan && sha ? { ...floorplan, sha256: sha } : null,
    },
    digest,
  };
}

/**
 * Orders signing against a change of the line's floor plan: signing holds the line's row in share
 * mode while it reads and keeps the plan, a replacement or deletion in update mode. So an image
 * is released (below) only after every signature that read it has committed, and is seen kept.
 */
export async function lockLayout(tx: Tx, lineId: string, mode: 'share' | 'update') {
  await tx
    .select({ id: lineClearances.id })
    .from(lineClearances)
    .where(eq(lineClearances.id, lineId))
    .for(mode);
}

/** Whether a signature keeps this floor-plan image (it is then served and never deleted). */
export async function isKeptFloorplanImage(db: Db | Tx, imageKey: string): Promise<boolean> {
  const [row] = await db
    .select({ inspectionId: signatures.inspectionId })
    .from(signatures)
    .where(sql`(${signatures.kept}->'layout'->'floorplan'->>'imageKey') = ${imageKey}`)
    .limit(1);
  return Boolean(row);
}

/** Deletes a floor-plan image that left its line, unless a signed record keeps it. */
export async function releaseFloorplanImage(ctx: Pick<AppContext, 'db' | 'storage'>, key: string) {
  if (!(await isKeptFloorplanImage(ctx.db, key))) await ctx.storage.delete(key);
}
