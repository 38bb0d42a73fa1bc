// Reading videos as the API shape (spec §3): one query with the device and line joined and the
// related-data counts as subqueries, so a list of thousands stays one round trip.
import { and, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
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

const columns = {
  video: videos,
  deviceName: devices.name,
  location: lineClearances.location,
  predictions: sql<number>`(select count(*)::int from ${predictions} where ${predictions.videoId} = ${videos.id})`,
  reports: sql<number>`(select count(*)::int from ${inspections} where ${inspections.videoId} = ${videos.id})`,
  // At most one of each per line (unique columns), so a left join is the count.
  floorplanConfigs: sql<number>`(${floorplanConfigs.id} is not null)::int`,
  floorplans: sql<number>`(${floorplans.id} is not null)::int`,
};

const selectVideos = (db: Db) =>
  db
    .select(columns)
    .from(videos)
    .leftJoin(devices, eq(devices.id, videos.deviceId))
    .leftJoin(lineClearances, eq(lineClearances.id, videos.lineClearanceId))
    .leftJoin(floorplanConfigs, eq(floorplanConfigs.lineClearanceId, videos.lineClearanceId))
    .leftJoin(floorplans, eq(floorplans.lineId, videos.lineClearanceId));

type Joined = {
  video: VideoRow;
  deviceName: string | null;
  location: string | null;
  predictions: number;
  reports: number;
  floorplanConfigs: number;
  floorplans: number;
};

function toVideo(row: Joined): Video {
  const v = row.video;
  return {
    _id: v.id,
    id: v.id,
    filename: v.filename,
    timestamp: v.timestamp.toISOString(),
    userId: v.userId,
    operatorId: v.userId,
    deviceId: v.deviceId,
    lineClearanceId: v.lineClearanceId,
    path: { video: `/api/videos/${v.filename}`, keyframesData: `/api/keyframes/${v.id}.txt` },
    status: v.status as VideoStatus,
    size: v.size,
    fileSize: v.size,
    duration: v.duration,
    metadata: { device: row.deviceName, location: row.location, duration: v.duration },
    relatedData: {
      predictions: row.predictions,
      reports: row.reports,
      floorplanConfigs: row.floorplanConfigs,
      floorplans: row.floorplans,
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
  const rows = await selectVideos(db)
    .where(and(...where))
    .orderBy(desc(videos.timestamp));
  return rows.map(toVideo);
}

export async function getVideo(db: Db, user: AuthUser, id: string): Promise<Video> {
  const [row] = await selectVideos(db).where(
    and(eq(videos.id, id), visibleTo(user, { owner: videos.userId, line: videos.lineClearanceId })),
  );
  if (!row) throw notFound('Video');
  return toVideo(row);
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
