// A line checkpoint's QR code (a floor-plan tag's `qrCode`): what a scan must read to tick it, and
// the one index of every line's codes that keeps them apart from each other and from device serials.
import { asc, eq, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { floorplanConfigs, lineClearances } from '../db/schema.ts';

/** What a scan must read to tick the tag: its QR code, trimmed; null for none or a blank one. */
export const tagCode = (tag: { qrCode?: string }): string | null => tag.qrCode?.trim() || null;

/**
 * Holds, until the transaction ends, the right to add a checkpoint code or a device serial: a
 * configuration save and a device registration take turns, so two of them claiming one new code
 * at once cannot both pass their check. (7243001 is the audit chain's lock.)
 */
export async function lockCheckpointCodes(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(7243002)`);
}

export interface Checkpoint {
  tag: string;
  line: string;
}

/**
 * Every line's checkpoints by code (the first by line name, where an older clash shares one),
 * but those of `exceptLine`.
 */
export async function checkpointsByCode(
  db: Db | Tx,
  exceptLine?: string,
): Promise<Map<string, Checkpoint>> {
  const configurations = await db
    .select({
      line: lineClearances.name,
      configuration: floorplanConfigs.configuration,
    })
    .from(floorplanConfigs)
    .innerJoin(lineClearances, eq(lineClearances.id, floorplanConfigs.lineClearanceId))
    .where(exceptLine === undefined ? undefined : ne(floorplanConfigs.lineClearanceId, exceptLine))
    .orderBy(asc(lineClearances.name));
  const byCode = new Map<string, Checkpoint>();
  for (const { line, configuration } of configurations) {
    for (const tag of configuration.tags) {
      const code = tagCode(tag);
      if (code && !byCode.has(code)) byCode.set(code, { tag: tag.name, line });
    }
  }
  return byCode;
}
