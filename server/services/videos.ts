// Reading videos as the API shape (spec §3). One prepared query (server/db/prepared.ts) selects the
// matching videos, then looks up what they refer to once per distinct line, device and video (not
// once per listed row): line location and floor-plan data, device names, prediction and inspection
// counts. It answers all of it as one JSON text, which this file reshapes: every returned field
// costs a decode in the driver's wire parser, and on PGlite every per-row lookup an executor loop
// in the WASM engine (docs/server.md, Performance).
import { and, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AuthUser } from '../context.ts';
import type { Db } from '../db/client.ts';
import { precompiled, preparedRows } from '../db/prepared.ts';
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
import type { Video } from '../schemas/videos.ts';
import { visibleTo } from './scope.ts';

export type VideoRow = typeof videos.$inferSelect;

/** One listed video as json_agg writes it: keys are the CTE's column names. */
interface ListedVideo {
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
}

/** The answer of the list query: the videos and what they refer to, each looked up once. */
interface Listed {
  videos: ListedVideo[];
  /** [line id, location, has a floor-plan configuration, has a floor plan] per distinct line. */
  lines: [string, string | null, boolean, boolean][];
  /** [device id, name] per distinct device. */
  devices: [string, string][];
  /** Counts by video id; videos without any are absent. */
  predictions: Record<string, number>;
  reports: Record<string, number>;
}

// `= any(array(...))` reads the counts in one index scan; a per-row subquery restarts a scan (and
// on PGlite asks the file system for the table size) for every listed video.
const countsByVideo = (table: typeof predictions | typeof inspections) => sql`(
  select coalesce(json_object_agg(counted.video_id, counted.n), '{}')
  from (
    select ${table.videoId} as video_id, count(*) as n from ${table}
    where ${table.videoId} = any(array(select v.id from v))
    group by ${table.videoId}
  ) counted)`;

// The list query around its WHERE clause, compiled once: `v` is the matching videos.
const listHead = precompiled(sql`
  with v as materialized (
    select ${videos.id} as id, ${videos.filename} as filename, ${videos.timestamp} as timestamp,
      ${videos.userId} as user_id, ${videos.deviceId} as device_id,
      ${videos.lineClearanceId} as line_clearance_id, ${videos.status} as status,
      ${videos.size} as size, ${videos.duration} as duration
    from ${videos}
    where `);
const listTail = precompiled(sql`)
  select json_build_object(
    'videos', (select coalesce(json_agg(v order by v.timestamp desc, v.id desc), '[]') from v),
    'lines', (
      select coalesce(json_agg(json_build_array(
        line.id,
        (select ${lineClearances.location} from ${lineClearances} where ${lineClearances.id} = line.id),
        exists(select from ${floorplanConfigs} where ${floorplanConfigs.lineClearanceId} = line.id),
        exists(select from ${floorplans} where ${floorplans.lineId} = line.id)
      )), '[]')
      from (select distinct v.line_clearance_id as id from v where v.line_clearance_id is not null) line
    ),
    'devices', (
      select coalesce(json_agg(json_build_array(${devices.id}, ${devices.name})), '[]')
      from ${devices} where ${devices.id} = any(array(select distinct v.device_id from v))
    ),
    'predictions', ${countsByVideo(predictions)},
    'reports', ${countsByVideo(inspections)}
  )::text`);

/** PostgreSQL's JSON text of a UTC timestamp: `2026-03-30T12:12:32.99+00:00` (0–6 fraction digits). */
const UTC_TIMESTAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00:00$/;

/**
 * A timestamp as PostgreSQL writes it in JSON, as `Date.prototype.toISOString` writes it. UTC text
 * (PGlite's session, and PostgreSQL's by default) only needs its milliseconds cut or padded:
 * parsing it with `new Date` costs about 2 µs, most of the reshaping of a listed page. Other
 * offsets take the `Date` path.
 */
export function isoTimestamp(text: string): string {
  const utc = UTC_TIMESTAMP.exec(text);
  if (utc) return `${utc[1]}.${`${utc[2] ?? ''}000`.slice(0, 3)}Z`;
  return new Date(text).toISOString();
}

const json = JSON.stringify;

/**
 * The videos matching `where` (which includes the caller's scope), newest first, each as the JSON
 * text of its §3 object (`Video`, keys in the schema's order). Written directly: building the
 * objects and then serializing them cost about three times as much on the server's main thread.
 */
async function selectListed(db: Db, where: SQL | undefined): Promise<string[]> {
  const query = sql`${listHead}${where ?? sql`true`}${listTail}`;
  const [row] = await preparedRows(db, query);
  // An aggregate without GROUP BY always answers one row.
  if (!row?.[0]) throw new Error('The video list query answered no row');
  const listed = JSON.parse(row[0]) as Listed;
  const lines = new Map(listed.lines.map(([id, ...data]) => [id, data]));
  const deviceNames = new Map(listed.devices);
  return listed.videos.map((v) => {
    const [location = null, configured = false, planned = false] =
      (v.line_clearance_id && lines.get(v.line_clearance_id)) || [];
    const device = v.device_id ? (deviceNames.get(v.device_id) ?? null) : null;
    const id = json(v.id);
    const user = json(v.user_id);
    const size = json(v.size);
    const duration = json(v.duration);
    // At most one floor-plan configuration and one floor plan per line (unique columns).
    return (
      `{"_id":${id},"id":${id},"filename":${json(v.filename)},` +
      `"timestamp":"${isoTimestamp(v.timestamp)}","userId":${user},"operatorId":${user},` +
      `"deviceId":${json(v.device_id)},"lineClearanceId":${json(v.line_clearance_id)},` +
      `"path":{"video":${json(`/api/videos/${v.filename}`)},` +
      `"keyframesData":${json(`/api/keyframes/${v.id}.txt`)}},` +
      `"status":${json(v.status)},"size":${size},"fileSize":${size},"duration":${duration},` +
      `"metadata":{"device":${json(device)},"location":${json(location)},"duration":${duration}},` +
      `"relatedData":{"predictions":${listed.predictions[v.id] ?? 0},` +
      `"reports":${listed.reports[v.id] ?? 0},"floorplanConfigs":${configured ? 1 : 0},` +
      `"floorplans":${planned ? 1 : 0}}}`
    );
  });
}

export interface VideoFilters {
  /** Inclusive bounds on the recording timestamp. */
  from?: Date;
  to?: Date;
  userIds?: string[];
  lineIds?: string[];
}

/** `column = any($n)`: one parameter for the whole list, so every list length shares a statement. */
const anyOf = (column: PgColumn, ids: string[]) => sql`${column} = any(${sql.param(ids)})`;

/** The videos the user may see that match the filters, newest first, as JSON text (`Video[]`). */
export async function listVideosJson(
  db: Db,
  user: AuthUser | null,
  filters: VideoFilters = {},
): Promise<string> {
  const where: (SQL | undefined)[] = [
    user ? visibleTo(user, { owner: videos.userId, line: videos.lineClearanceId }) : undefined,
  ];
  if (filters.from) where.push(gte(videos.timestamp, filters.from));
  if (filters.to) where.push(lte(videos.timestamp, filters.to));
  if (filters.userIds?.length) where.push(anyOf(videos.userId, filters.userIds));
  if (filters.lineIds?.length) where.push(anyOf(videos.lineClearanceId, filters.lineIds));
  return `[${(await selectListed(db, and(...where))).join(',')}]`;
}

export async function listVideos(
  db: Db,
  user: AuthUser | null,
  filters: VideoFilters = {},
): Promise<Video[]> {
  return JSON.parse(await listVideosJson(db, user, filters)) as Video[];
}

export async function getVideo(db: Db, user: AuthUser, id: string): Promise<Video> {
  const [video] = await selectListed(
    db,
    and(eq(videos.id, id), visibleTo(user, { owner: videos.userId, line: videos.lineClearanceId })),
  );
  if (!video) throw notFound('Video');
  return JSON.parse(video) as Video;
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
