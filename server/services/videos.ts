// Reading videos as the API shape (spec §3). One query selects the matching videos with their
// device, line and floor-plan data joined and their prediction and inspection counts, and hands
// them back as a single JSON text (json_agg). On PGlite every field of every returned row costs a
// buffer copy and a text decode in its JavaScript wire parser, plus Drizzle's per-field mapping:
// for a list that was most of the request (docs/server.md, Performance).
import { and, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { AuthUser } from '../context.ts';
import type { Db } from '../db/client.ts';
import {
  devices,
  floorplanConfigs,
  floorplans,
  inspections,
  lineClearances,
  predictions,
  videos,
} from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import type { Video, VideoStatus } from '../schemas/videos.ts';
import { visibleTo } from './scope.ts';

export type VideoRow = typeof videos.$inferSelect;

/** One listed video as json_agg writes it: keys are the column names and aliases below. */
interface ListedJson {
  id: string;
  filename: string;
  /** ISO 8601 with the session's UTC offset. */
  timestamp: string;
  user_id: string | null;
  device_id: string | null;
  line_clearance_id: string | null;
  status: string;
  size: number;
  duration: number;
  predictions: number;
  reports: number;
  device: string | null;
  location: string | null;
  floorplan_configs: number;
  floorplans: number;
}

/** The videos matching `where` (which includes the caller's scope), newest first. */
async function selectListed(db: Db, where: SQL | undefined): Promise<ListedJson[]> {
  const count = (table: typeof predictions | typeof inspections) =>
    sql<number>`(select count(*)::int from ${table} where ${table.videoId} = ${videos.id})`;
  const listed = db
    .select({
      id: videos.id,
      filename: videos.filename,
      timestamp: videos.timestamp,
      userId: videos.userId,
      deviceId: videos.deviceId,
      lineClearanceId: videos.lineClearanceId,
      status: videos.status,
      size: videos.size,
      duration: videos.duration,
      predictions: count(predictions).as('predictions'),
      reports: count(inspections).as('reports'),
      device: sql<string | null>`${devices.name}`.as('device'),
      location: sql<string | null>`${lineClearances.location}`.as('location'),
      // At most one of each per line (unique columns), so a left join is the count.
      floorplanConfigs: sql<number>`(${floorplanConfigs.id} is not null)::int`.as(
        'floorplan_configs',
      ),
      floorplans: sql<number>`(${floorplans.id} is not null)::int`.as('floorplans'),
    })
    .from(videos)
    .leftJoin(devices, eq(devices.id, videos.deviceId))
    .leftJoin(lineClearances, eq(lineClearances.id, videos.lineClearanceId))
    .leftJoin(floorplanConfigs, eq(floorplanConfigs.lineClearanceId, videos.lineClearanceId))
    .leftJoin(floorplans, eq(floorplans.lineId, videos.lineClearanceId))
    .where(where)
    .as('listed');
  const [result] = await db
    .select({
      json: sql<string>`coalesce(json_agg(listed order by ${listed.timestamp} desc), '[]')::text`,
    })
    .from(listed);
  return JSON.parse(result?.json ?? '[]') as ListedJson[];
}

function toVideo(v: ListedJson): Video {
  return {
    _id: v.id,
    id: v.id,
    filename: v.filename,
    timestamp: new Date(v.timestamp).toISOString(),
    userId: v.user_id,
    operatorId: v.user_id,
    deviceId: v.device_id,
    lineClearanceId: v.line_clearance_id,
    path: { video: `/api/videos/${v.filename}`, keyframesData: `/api/keyframes/${v.id}.txt` },
    status: v.status as VideoStatus,
    size: v.size,
    fileSize: v.size,
    duration: v.duration,
    metadata: { device: v.device, location: v.location, duration: v.duration },
    relatedData: {
      predictions: v.predictions,
      reports: v.reports,
      floorplanConfigs: v.floorplan_configs,
      floorplans: v.floorplans,
    },
  };
}

export interface VideoFilters {
  /** Inclusive bounds on the recording timestamp. */
  from?: Date;
  to?: Date;
  userIds?: string[];
  lineIds?: string[];
}

export async function listVideos(db: Db, user: AuthUser | null, filters: VideoFilters = {}) {
  const where: (SQL | undefined)[] = [
    user ? visibleTo(user, { owner: videos.userId, line: videos.lineClearanceId }) : undefined,
  ];
  if (filters.from) where.push(gte(videos.timestamp, filters.from));
  if (filters.to) where.push(lte(videos.timestamp, filters.to));
  if (filters.userIds?.length) where.push(inArray(videos.userId, filters.userIds));
  if (filters.lineIds?.length) where.push(inArray(videos.lineClearanceId, filters.lineIds));
  return (await selectListed(db, and(...where))).map(toVideo);
}

export async function getVideo(db: Db, user: AuthUser, id: string): Promise<Video> {
  const rows = await selectListed(
    db,
    and(eq(videos.id, id), visibleTo(user, { owner: videos.userId, line: videos.lineClearanceId })),
  );
  const [video] = rows.map(toVideo);
  if (!video) throw notFound('Video');
  return video;
}

/**
 * The stored row of a video the user may see. A video outside the caller's scope answers 404
 * like a missing one, so ids of other people's videos cannot be probed.
 */
export async function findVisibleVideo(db: Db, user: AuthUser, match: SQL): Promise<VideoRow> {
  const [row] = await db
    .select()
    .from(videos)
    .where(and(match, visibleTo(user, { owner: videos.userId, line: videos.lineClearanceId })));
  if (!row) throw notFound('Video');
  return row;
}
