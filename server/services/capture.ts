// Rules of the capture loop shared by its routes: which lines an operator may inspect, the
// checklist an inspection is checked against, and how scanned codes map onto its tags.
import { and, arrayContains, asc, eq, inArray, ne, or } from 'drizzle-orm';
import type { AuthUser } from '../context.ts';
import type { Db, Tx } from '../db/client.ts';
import { floorplanConfigs, lineClearances, users, videos } from '../db/schema.ts';
import { badRequest } from '../http/errors.ts';
import type { CaptureData, ChecklistSnapshot, QrScan } from '../schemas/capture.ts';
import { tagCode } from './tag-codes.ts';

/**
 * The lines the user is assigned to: listed in the line's operators or in the user's own line
 * list (the admin forms edit either side).
 */
export async function assignedLines(db: Db | Tx, user: AuthUser) {
  const [own] = await db
    .select({ ids: users.lineClearanceIds })
    .from(users)
    .where(eq(users.id, user.id));
  return db
    .select()
    .from(lineClearances)
    .where(
      or(
        arrayContains(lineClearances.assignedOperators, [user.id]),
        inArray(lineClearances.id, own?.ids ?? []),
      ),
    )
    .orderBy(asc(lineClearances.name));
}

/** Whether the user is assigned to the line (see `assignedLines`). */
export async function isAssigned(db: Db | Tx, user: AuthUser, lineId: string) {
  return (await assignedLines(db, user)).some((line) => line.id === lineId);
}

/** The line's saved floor-plan items, numbered by their position in the configuration. */
export async function checklistFor(db: Db | Tx, lineId: string): Promise<ChecklistSnapshot> {
  const [config] = await db
    .select({ id: floorplanConfigs.id, configuration: floorplanConfigs.configuration })
    .from(floorplanConfigs)
    .where(eq(floorplanConfigs.lineClearanceId, lineId));
  if (!config) return { floorplanConfigId: null, tags: [], hotZones: [] };
  return {
    floorplanConfigId: config.id,
    tags: config.configuration.tags.map((tag, index) => ({ ...tag, index })),
    hotZones: config.configuration.hotZones.map((zone, index) => ({ ...zone, index })),
  };
}

/** What a submit declares about its recording (POST /api/inspections). */
export interface SubmittedRecording {
  userId: string;
  deviceId: string | null;
  lineClearanceId: string;
  /** When recording started: the video's timestamp and the inspection's start. */
  startTime: Date;
  container: 'webm' | 'mp4';
  /** Seconds of recording, pauses excluded. */
  duration: number;
}

/** The note on a submitted video's `create` audit entry. */
export const NOT_UPLOADED_NOTE = 'file not uploaded yet';

/**
 * The video row a submit creates beside its inspection: pending, with no file (size 0, no SHA-256
 * until the verified upload finishes), named after its id in the declared container.
 */
export function submittedVideo(id: string, recording: SubmittedRecording) {
  const filename = `${id}.${recording.container}`;
  return {
    id,
    filename,
    storageKey: `videos/${filename}`,
    subfolder: id,
    userId: recording.userId,
    deviceId: recording.deviceId,
    lineClearanceId: recording.lineClearanceId,
    timestamp: recording.startTime,
    status: 'pending',
    size: 0,
    duration: recording.duration,
  } satisfies typeof videos.$inferInsert;
}

/**
 * Where a file that arrived for a submitted video is kept: a key of its own per arrival (a
 * verified upload, or a file posted through the ingestion API), so two arriving at once never
 * overwrite each other; the one committed first is recorded as the video's storage key.
 */
export function arrivedFileKey(videoId: string, fileId: string, ext: string): string {
  return `videos/${videoId}/${fileId}${ext}`;
}

/** Told to the uploader; the audit entry names the other video. */
export const SAME_FILE =
  'This file is identical (the same SHA-256) to a video already stored: a recording is the evidence of one inspection only, so record this inspection again';

/** The received file is already another video's (`sameFileAs`). */
export class SameFile extends Error {
  constructor(readonly otherVideoId: string) {
    super(SAME_FILE);
  }

  /** For the trail: the refusal with the other video named. */
  get reason(): string {
    return `${SAME_FILE} (video ${this.otherVideoId})`;
  }
}

/**
 * The other video whose file has this SHA-256, or null. A file stored again as new evidence (an
 * approved recording uploaded for a new inspection) would let one walk clear two line clearances.
 */
export async function sameFileAs(db: Db | Tx, sha256: string, videoId: string) {
  const [other] = await db
    .select({ id: videos.id })
    .from(videos)
    .where(and(eq(videos.sha256, sha256), ne(videos.id, videoId)))
    .limit(1);
  return other?.id ?? null;
}

/** The checklist tag whose QR code is `code` (the first, if two share it), or null. */
export function tagIndexOf(checklist: ChecklistSnapshot, code: string): number | null {
  const wanted = code.trim();
  const tag = checklist.tags.find((t) => tagCode(t) === wanted);
  return tag ? tag.index : null;
}

/** Seconds a scan or sample may lie past the recorded duration (clock granularity, last frame). */
const END_SLACK = 5;

/**
 * Checks capture data beyond its schema (equal column lengths, time order, within the recording)
 * and answers it with every scan's tag decided by the server from the inspection's checklist.
 */
export function checkCapture(
  data: CaptureData,
  checklist: ChecklistSnapshot,
  duration: number,
): CaptureData {
  const end = duration + END_SLACK;
  const scans: QrScan[] = data.scans.map((scan, i) => {
    if (scan.videoTime > end) {
      throw badRequest(`body.scans[${i}].videoTime is past the end of the recording`);
    }
    return { ...scan, tagIndex: tagIndexOf(checklist, scan.code) };
  });
  const motion = data.motion;
  if (motion) {
    const n = motion.t.length;
    for (const column of ['ax', 'ay', 'az', 'alpha', 'beta', 'gamma'] as const) {
      if (motion[column].length !== n) {
        throw badRequest(`body.motion.${column} must have as many samples as body.motion.t (${n})`);
      }
    }
    for (let i = 0; i < n; i++) {
      const t = motion.t[i] as number;
      if (t < 0 || t > end) throw badRequest(`body.motion.t[${i}] is outside the recording`);
      if (i > 0 && t < (motion.t[i - 1] as number)) {
        throw badRequest(`body.motion.t must not decrease (at ${i})`);
      }
    }
  }
  return { scans, motion };
}
