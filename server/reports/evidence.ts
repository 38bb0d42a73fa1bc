// The evidence a report is drawn from besides the record's own rows (docs/signatures.md, "The
// evidence" and "The evidence check"): the keyframes (path) file, the video's predictions, the
// capture's QR scans, the keyframe images and the video file. A signature keeps their digests
// (signatures.kept.evidence) in two tiers: the cheap ones are read by every report anyway, so the
// record hash is checked against them on every read; the video file and the keyframe images are
// too many bytes for that, so they are hashed at signing and compared on request.
import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import type { Db, Tx } from '../db/client.ts';
import { captures, predictions } from '../db/schema.ts';
import type { QrScan } from '../schemas/capture.ts';
import type { EvidenceCheck, VideoFileState } from '../schemas/reports.ts';
import type { SignedEvidence } from '../schemas/signatures.ts';
import { readWhole, type Storage, sha256Hex, sha256Stored } from '../storage/storage.ts';
import { canonicalJson } from './canonical-json.ts';
import { keyframeImageNames } from './path-checklist.ts';
import type { InspectionRecord, VideoRow } from './record.ts';

type Ctx = Pick<AppContext, 'storage'> & { db: Db | Tx };
export type PredictionRow = typeof predictions.$inferSelect;

/** What a report reads of the evidence, and what the record hash covers of it. */
export interface Evidence {
  /** The keyframes file's bytes; null when the video has none (or there is no video). */
  keyframes: Buffer | null;
  /** The video's predictions, by keyframe file name. */
  predictions: PredictionRow[];
  /** The capture's QR scans (none without a capture). */
  scans: QrScan[];
  /** Whether the phone's capture data arrived: without it, no scan says nothing. */
  captured: boolean;
}

/** The digests the record hash covers on every read: all but the keyframe images'. */
export type EvidenceDigest = Omit<SignedEvidence, 'keyframeImagesSha256'>;

/** A video's keyframes file, read whole (a few hundred kB at most); null when it has none. */
export const readKeyframes = (storage: Storage, video: VideoRow | null) =>
  video?.keyframesKey ? readWhole(storage, video.keyframesKey) : Promise.resolve(null);

/** A video's keyframes file as one request reads it (`keyframesReader`). */
export type KeyframesReader = (video: VideoRow | null) => Promise<Buffer | null>;

/**
 * Reads each keyframes file once for a whole request, however many of its steps use it (the report,
 * the evidence check, the signature's digests). The bytes stand for the file: its key names one
 * analysis run's or ingestion's output, which is never rewritten, and a re-run switches the video
 * to a new key, which is read afresh.
 */
export function keyframesReader(storage: Storage): KeyframesReader {
  const read = new Map<string, Promise<Buffer | null>>();
  return (video) => {
    const key = video?.keyframesKey;
    if (!key) return Promise.resolve(null);
    let bytes = read.get(key);
    if (!bytes) {
      bytes = readKeyframes(storage, video);
      read.set(key, bytes);
    }
    return bytes;
  };
}

/** Reads a record's evidence (in the caller's transaction if any): the report and signing both. */
export async function readEvidence(
  ctx: Ctx,
  record: Pick<InspectionRecord, 'inspection' | 'video'>,
  keyframes: KeyframesReader = keyframesReader(ctx.storage),
): Promise<Evidence> {
  const { video } = record;
  const [capture] = await ctx.db
    .select({ scans: captures.scans })
    .from(captures)
    .where(eq(captures.inspectionId, record.inspection.id));
  const rows = video
    ? await ctx.db
        .select()
        .from(predictions)
        .where(eq(predictions.videoId, video.id))
        .orderBy(asc(predictions.filename))
    : [];
  return {
    keyframes: await keyframes(video),
    predictions: rows,
    scans: capture?.scans ?? [],
    captured: capture !== undefined,
  };
}

/** The cheap digests: the keyframes file's bytes, and the predictions and scans the report uses. */
export function evidenceDigest(evidence: Evidence): EvidenceDigest {
  const rows = evidence.predictions
    .map((row) => ({
      id: row.id,
      filename: row.filename,
      subfolder: row.subfolder,
      labels: row.classLabels,
      confs: row.confs,
      boxes: row.boxesNormalized,
    }))
    // By id: two predictions of one keyframe may come back in either order.
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    keyframesSha256: evidence.keyframes && sha256Hex(evidence.keyframes),
    predictionsSha256: sha256Hex(canonicalJson(rows)),
    scansSha256: sha256Hex(canonicalJson(evidence.scans)),
  };
}

/** How each kept digest is named when it no longer matches ('changed since signing: …'). */
const partNames: Record<keyof SignedEvidence, string> = {
  keyframesSha256: 'the path file',
  predictionsSha256: 'the detections',
  scansSha256: 'the QR code scans',
  keyframeImagesSha256: 'the keyframe images',
};

/** The evidence parts whose digest differs from the one kept at signing (the cheap ones). */
export function changedEvidence(kept: SignedEvidence, now: EvidenceDigest): string[] {
  const parts = Object.keys(now) as (keyof EvidenceDigest)[];
  return parts.filter((part) => kept[part] !== now[part]).map((part) => partNames[part]);
}

/** Streams the video file through SHA-256 and compares it with the one recorded on arrival. */
export async function videoFileState(
  storage: Storage,
  video: Pick<VideoRow, 'storageKey' | 'sha256'>,
): Promise<VideoFileState> {
  if (!video.sha256) return 'unverified';
  if (!(await storage.stat(video.storageKey))) return 'missing';
  return (await sha256Stored(storage, video.storageKey)) === video.sha256 ? 'matches' : 'differs';
}

/** Keyframe images hashed at once: enough to keep the disk busy, few enough to share the server. */
const IMAGES_AT_ONCE = 8;

/**
 * One digest of the keyframe images the keyframes file names: SHA-256 over their sorted
 * `name sha256` lines (`name missing` for an image not in storage). Null without a keyframes file.
 */
export async function keyframeImagesDigest(
  storage: Storage,
  video: Pick<VideoRow, 'keyframeImagesPrefix'> | null,
  keyframes: Buffer | null,
): Promise<{ sha256: string; count: number } | null> {
  if (!video || !keyframes) return null;
  const names = [...new Set(await keyframeImageNames(keyframes))].sort();
  const lines: string[] = [];
  for (let i = 0; i < names.length; i += IMAGES_AT_ONCE) {
    const batch = names.slice(i, i + IMAGES_AT_ONCE).map(async (name) => {
      const bytes =
        video.keyframeImagesPrefix &&
        (await readWhole(storage, `${video.keyframeImagesPrefix}/${name}`));
      return `${name} ${bytes ? sha256Hex(bytes) : 'missing'}\n`;
    });
    lines.push(...(await Promise.all(batch)));
  }
  return { sha256: sha256Hex(lines.join('')), count: names.length };
}

/** The costly part of the evidence, hashed at signing, and what it was hashed for. */
export interface EvidenceFiles {
  /** The video and keyframes file the hashes are of: a re-run analysis changes it. */
  basis: string;
  /** The video file against its recorded SHA-256; null without a video. */
  video: VideoFileState | null;
  keyframeImagesSha256: string | null;
}

/** Identifies the files `hashEvidenceFiles` read, so that a signature keeps only what it signs. */
export function filesBasis(video: VideoRow | null, keyframesSha256: string | null): string {
  return canonicalJson(
    video && {
      id: video.id,
      storageKey: video.storageKey,
      sha256: video.sha256,
      keyframeImagesPrefix: video.keyframeImagesPrefix,
      keyframesSha256,
    },
  );
}

/** Hashes the video file and the keyframe images (seconds for a long video: outside any lock). */
export async function hashEvidenceFiles(
  storage: Storage,
  video: VideoRow | null,
  keyframes: Buffer | null,
): Promise<EvidenceFiles> {
  const images = await keyframeImagesDigest(storage, video, keyframes);
  return {
    basis: filesBasis(video, keyframes && sha256Hex(keyframes)),
    video: video && (await videoFileState(storage, video)),
    keyframeImagesSha256: images?.sha256 ?? null,
  };
}

/**
 * GET /api/reports/{id}/evidence-check: the video file against its SHA-256 and, for a signed
 * record, the keyframe images against the digest its signature kept. Which image differs is not
 * knowable from one digest.
 */
export async function checkEvidenceFiles(
  storage: Storage,
  record: InspectionRecord,
  now: Date,
  keyframes: KeyframesReader = keyframesReader(storage),
): Promise<EvidenceCheck> {
  const { video, signature } = record;
  const check = {
    inspectionId: record.inspection.id,
    signed: signature !== null,
    video: video && { sha256: video.sha256, state: await videoFileState(storage, video) },
    checkedAt: now.toISOString(),
  };
  if (!signature) return { ...check, keyframeImages: null };
  const kept = record.kept?.evidence;
  const images = await keyframeImagesDigest(storage, video, await keyframes(video));
  const count = images?.count ?? 0;
  if (!kept) return { ...check, keyframeImages: { state: 'not-kept', count } };
  const current = images?.sha256 ?? null;
  const state =
    current === null && kept.keyframeImagesSha256 === null
      ? 'none'
      : current === kept.keyframeImagesSha256
        ? 'matches'
        : 'differs';
  return { ...check, keyframeImages: { state, count } };
}
