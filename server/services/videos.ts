// Reading videos as the API shape (spec §3). One prepared query (server/db/prepared.ts) selects the
// matching videos, then looks up what they refer to once per distinct line, device and video (not
// once per listed row): line location and floor-plan data, device names, prediction and inspection
// counts. It answers all of it as one JSON text, which this file reshapes: every returned field
// costs a decode in the driver's wire parser, and on PGlite every per-row lookup an executor loop
// in the WASM engine (docs/server.md, Performance).
import { and, eq, gte, lte, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../context.ts';
import type { Db } from '../db/client.ts';
import {
  type CompiledQuery,
  compile,
  precompiled,
  preparedCompiled,
  preparedRows,
  type TextRow,
} from '../db/prepared.ts';
import {
  devices,
  floorplanConfigs,
  floorplans,
  inspections,
  lineClearances,
  predictions,
  signatures,
  videos,
} from '../db/schema.ts';
import { currentUser } from '../http/auth-hook.ts';
import { notFound } from '../http/errors.ts';
import { inspectionIsSigned } from '../reports/signed-evidence.ts';
import type { AdminVideo, Video, VideoStatus } from '../schemas/videos.ts';
import { hiddenRecord, visibleTo } from './scope.ts';

export type VideoRow = typeof videos.$inferSelect;

// The listed videos column by column, each column one json_agg with the same order (ties broken
// by the unique id, so the columns line up). One JSON object per row would repeat every key per
// video: about a fifth more of the engine's time per list.
const listedColumns = [
  'id',
  'filename',
  'timestamp',
  'user_id',
  'device_id',
  'line_clearance_id',
  'status',
  'size',
  'duration',
] as const;
type ListedColumns = [
  ids: string[],
  filenames: string[],
  /** ISO 8601 with the session's UTC offset. */
  timestamps: string[],
  userIds: (string | null)[],
  deviceIds: (string | null)[],
  lineIds: (string | null)[],
  statuses: string[],
  sizes: number[],
  durations: number[],
];

/** The answer of the list query: the videos and what they refer to, each looked up once. */
interface Listed {
  videos: ListedColumns;
  /** [line id, location, has a floor-plan configuration, has a floor plan] per distinct line. */
  lines: [string, string | null, boolean, boolean][];
  /** [device id, name] per distinct device. */
  devices: [string, string][];
  /** Counts by video id; videos without any are absent. */
  predictions: Record<string, number>;
  reports: Record<string, number>;
  /** With `signedEvidence`: the listed videos that are evidence of a signed inspection. */
  signed?: string[];
}

/** What a list answers beside the spec's fields. */
export interface ListOptions {
  /** Adds `signedEvidence` to every video (the admin's list, schemas/videos.ts `AdminVideo`). */
  signedEvidence?: boolean;
}

// `= any(ids)` reads the counts in one index scan; a per-row subquery restarts a scan (and on
// PGlite asks the file system for the table size) for every listed video.
const countsByVideo = (table: typeof predictions | typeof inspections) => sql`(
  select coalesce(json_object_agg(counted.video_id, counted.n), '{}')
  from (
    select ${table.videoId} as video_id, count(*) as n from ${table}
    where ${table.videoId} = any(a.ids)
    group by ${table.videoId}
  ) counted)`;

// The list query around its WHERE clause, compiled once. One pass over the matching videos (`v`,
// read once, so not materialized) aggregates their columns and the ids the lookups need (`a`);
// reading a materialized `v` once per lookup instead cost about a tenth more.
const listHead = precompiled(sql`
  with v as (
    select ${videos.id} as id, ${videos.filename} as filename, ${videos.timestamp} as timestamp,
      ${videos.userId} as user_id, ${videos.deviceId} as device_id,
      ${videos.lineClearanceId} as line_clearance_id, ${videos.status} as status,
      ${videos.size} as size, ${videos.duration} as duration
    from ${videos}
    where `);
const listTail = (extra: SQL) =>
  precompiled(sql`),
  a as materialized (
    select
      json_build_array(${sql.join(
        listedColumns.map(
          (c) =>
            sql`coalesce(json_agg(v.${sql.identifier(c)} order by v.timestamp desc, v.id desc), '[]')`,
        ),
        sql`, `,
      )}) as videos,
      array_agg(v.id) as ids,
      array_agg(distinct v.line_clearance_id) filter (where v.line_clearance_id is not null) as line_ids,
      array_agg(distinct v.device_id) filter (where v.device_id is not null) as device_ids
    from v)
  select json_build_object(
    'videos', a.videos,
    'lines', (
      select coalesce(json_agg(json_build_array(
        line.id,
        (select ${lineClearances.location} from ${lineClearances} where ${lineClearances.id} = line.id),
        exists(select from ${floorplanConfigs} where ${floorplanConfigs.lineClearanceId} = line.id),
        exists(select from ${floorplans} where ${floorplans.lineId} = line.id)
      )), '[]')
      from unnest(a.line_ids) line(id)
    ),
    'devices', (
      select coalesce(json_agg(json_build_array(${devices.id}, ${devices.name})), '[]')
      from ${devices} where ${devices.id} = any(a.device_ids)
    ),
    'predictions', ${countsByVideo(predictions)},
    'reports', ${countsByVideo(inspections)}${extra}
  )::text
  from a`);

// The listed videos that are evidence of a signed inspection (the guard's rule,
// `inspectionIsSigned`), in one index scan like the counts: for the admin's list only.
const signedVideos = sql`(
  select coalesce(json_agg(distinct ${inspections.videoId}), '[]')
  from ${inspections}
  left join ${signatures} on ${signatures.inspectionId} = ${inspections.id}
  where ${inspections.videoId} = any(a.ids) and ${inspectionIsSigned})`;
const tails = {
  plain: listTail(sql``),
  withSigned: listTail(sql`,
    'signed', ${signedVideos}`),
};

/** PostgreSQL's JSON text of a UTC timestamp: `2026-03-30T12:12:32.99+00:00` (0–6 fraction digits). */
const UTC_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?\+00:00$/;

/**
 * A timestamp as PostgreSQL writes it in JSON, as `Date.prototype.toISOString` writes it. UTC text
 * (PGlite's session, and PostgreSQL's by default) only needs its milliseconds cut or padded:
 * parsing it with `new Date` costs about 2 µs, most of the reshaping of a listed page. Other
 * offsets take the `Date` path.
 */
export function isoTimestamp(text: string): string {
  // `test`, not `exec`: no match array and captures per timestamp (97 per listed page).
  if (!UTC_TIMESTAMP.test(text)) return new Date(text).toISOString();
  const end = text.length - 6; // before '+00:00'
  if (end === 19) return `${text.slice(0, 19)}.000Z`;
  const digits = end - 20;
  return digits >= 3 ? `${text.slice(0, 23)}Z` : `${text.slice(0, end)}${'00'.slice(digits - 1)}Z`;
}

const listQuery = (where: SQL | undefined, options: ListOptions = {}) =>
  sql`${listHead}${where ?? sql`true`}${options.signedEvidence ? tails.withSigned : tails.plain}`;

/**
 * The list query's answer (one row, one JSON text) as a count and a function that builds the
 * API's video at an index, newest first: the JSON writer below builds, serializes and drops one
 * video at a time.
 */
function parseListed([row]: TextRow[]): {
  count: number;
  video: (i: number) => Video | AdminVideo;
} {
  // An aggregate without GROUP BY always answers one row.
  if (!row?.[0]) throw new Error('The video list query answered no row');
  const listed = JSON.parse(row[0]) as Listed;
  const lines = new Map(listed.lines.map(([id, ...data]) => [id, data]));
  const deviceNames = new Map(listed.devices);
  const signed = listed.signed && new Set(listed.signed);
  // Objects with the schema's keys in its order, so JSON.stringify writes the route's answer
  // (V8's JSON.stringify of these is faster than writing the text piece by piece).
  const [ids, filenames, timestamps, userIds, deviceIds, lineIds, statuses, sizes, durations] =
    listed.videos;
  const video = (i: number): Video | AdminVideo => {
    const id = ids[i] as string;
    const filename = filenames[i] as string;
    const userId = userIds[i] ?? null;
    const deviceId = deviceIds[i] ?? null;
    const lineId = lineIds[i] ?? null;
    const size = sizes[i] as number;
    const duration = durations[i] as number;
    const [location = null, configured = false, planned = false] =
      (lineId && lines.get(lineId)) || [];
    const item: Video | AdminVideo = {
      _id: id,
      id,
      filename,
      timestamp: isoTimestamp(timestamps[i] as string),
      userId,
      operatorId: userId,
      deviceId,
      lineClearanceId: lineId,
      path: { video: `/api/videos/${filename}`, keyframesData: `/api/keyframes/${id}.txt` },
      status: statuses[i] as VideoStatus,
      size,
      fileSize: size,
      duration,
      metadata: {
        device: deviceId ? (deviceNames.get(deviceId) ?? null) : null,
        location,
        duration,
      },
      relatedData: {
        predictions: listed.predictions[id] ?? 0,
        reports: listed.reports[id] ?? 0,
        // At most one of each per line (unique columns).
        floorplanConfigs: configured ? 1 : 0,
        floorplans: planned ? 1 : 0,
      },
    };
    // Last, as in the schema; only the admin's list has it (the other lists' objects keep one shape).
    if (signed) (item as AdminVideo).signedEvidence = signed.has(id);
    return item;
  };
  return { count: ids.length, video };
}

/** The list query's answer reshaped as the API's videos, newest first. */
function reshapeListed(rows: TextRow[]): Video[] {
  const { count, video } = parseListed(rows);
  const list: Video[] = [];
  for (let i = 0; i < count; i++) list.push(video(i));
  return list;
}

/** Bytes reserved per video before the first one is written (a listed video is about 560). */
const BYTES_PER_VIDEO = 640;
/** Videos serialized per `JSON.stringify` call: as fast as one call for the whole list. */
const VIDEOS_PER_CHUNK = 16;

/**
 * `JSON.stringify` of the videos as UTF-8, the same bytes, written sixteen videos at a time into
 * one Buffer. Serializing the whole list at once kept all its objects and its text (about 50 kB for
 * a hundred videos) alive together on the heap, where the young generation's collections, which
 * come when allocation is fastest, found them alive, copied them and promoted them; here a chunk's
 * objects and text die at once, and the answer lives outside the heap. (One video per call cost a
 * quarter more CPU than one call per list; sixteen cost the same.)
 */
function writeJson({ count, video }: ReturnType<typeof parseListed>): Buffer {
  let out = Buffer.allocUnsafeSlow(2 + count * BYTES_PER_VIDEO);
  let length = 0;
  out[length++] = 0x5b; // [
  for (let start = 0; start < count; start += VIDEOS_PER_CHUNK) {
    const chunk: (Video | AdminVideo)[] = [];
    for (let i = start; i < Math.min(count, start + VIDEOS_PER_CHUNK); i++) chunk.push(video(i));
    // The chunk's array without its brackets: its videos, separated by commas.
    const json = JSON.stringify(chunk).slice(1, -1);
    // UTF-8 takes at most 3 bytes per UTF-16 unit: count exactly only when that might not fit.
    const room = out.length - length - 2; // a comma before, the closing bracket after
    if (json.length * 3 > room && Buffer.byteLength(json) > room) {
      const grown = Buffer.allocUnsafeSlow(Math.max(out.length * 2, length + 2 + json.length * 3));
      out.copy(grown, 0, 0, length);
      out = grown;
    }
    if (start > 0) out[length++] = 0x2c; // ,
    length += out.write(json, length);
  }
  out[length++] = 0x5d; // ]
  // The exact size: the read cache keeps this Buffer.
  const exact = Buffer.allocUnsafeSlow(length);
  out.copy(exact, 0, 0, length);
  return exact;
}

export interface VideoFilters {
  /** Inclusive bounds on the recording timestamp. */
  from?: Date;
  to?: Date;
  userIds?: string[];
  lineIds?: string[];
}

/** `column = any($n)`: one parameter for the whole list, so every list length shares a statement. */
const anyOf = (column: PgColumn, ids: Placeholder) => sql`${column} = any(${ids})`;

// The list query's values are placeholders, so its text is compiled once per shape: the caller's
// roles (which decide the scope's SQL) and which filters are present. Building it with Drizzle on
// every request cost about 20 µs and a new 2.5 kB statement text.
const value = {
  user: sql.placeholder('user'),
  from: sql.param(sql.placeholder('from'), videos.timestamp),
  to: sql.param(sql.placeholder('to'), videos.timestamp),
  userIds: sql.placeholder('userIds'),
  lineIds: sql.placeholder('lineIds'),
};
const listShapes = new Map<string, CompiledQuery>();

function listShape(
  user: AuthUser | null,
  filters: VideoFilters,
  options: ListOptions,
): CompiledQuery {
  const key = `${user ? user.roles.join(',') : '-'} ${filters.from ? 'f' : ''}${filters.to ? 't' : ''}${filters.userIds?.length ? 'u' : ''}${filters.lineIds?.length ? 'l' : ''}${options.signedEvidence ? ' s' : ''}`;
  let shape = listShapes.get(key);
  if (!shape) {
    const where: (SQL | undefined)[] = [
      user
        ? visibleTo(user, { owner: videos.userId, line: videos.lineClearanceId }, value.user)
        : undefined,
    ];
    if (filters.from) where.push(gte(videos.timestamp, value.from));
    if (filters.to) where.push(lte(videos.timestamp, value.to));
    if (filters.userIds?.length) where.push(anyOf(videos.userId, value.userIds));
    if (filters.lineIds?.length) where.push(anyOf(videos.lineClearanceId, value.lineIds));
    shape = compile(listQuery(and(...where), options));
    listShapes.set(key, shape);
  }
  return shape;
}

/** The videos the user may see that match the filters, newest first. */
const listRows = (
  db: Db,
  user: AuthUser | null,
  filters: VideoFilters,
  options: ListOptions = {},
) =>
  preparedCompiled(db, listShape(user, filters, options), {
    user: user?.id,
    from: filters.from,
    to: filters.to,
    userIds: filters.userIds,
    lineIds: filters.lineIds,
  });

export async function listVideos(
  db: Db,
  user: AuthUser | null,
  filters: VideoFilters = {},
): Promise<Video[]> {
  return reshapeListed(await listRows(db, user, filters));
}

/**
 * The same list as the UTF-8 JSON the routes send. A Buffer rather than a string: its bytes live
 * outside the JavaScript heap, so a cached answer (tens of kB) is not copied by every young-
 * generation garbage collection it survives, and the socket takes it without encoding it again.
 */
export async function listVideosJson(
  db: Db,
  user: AuthUser | null,
  filters: VideoFilters = {},
  options: ListOptions = {},
): Promise<Buffer> {
  return writeJson(parseListed(await listRows(db, user, filters, options)));
}

/** The video, when the user may see it. */
export async function getVideo(db: Db, user: AuthUser, id: string): Promise<Video | undefined> {
  const [video] = reshapeListed(
    await preparedRows(
      db,
      listQuery(
        and(
          eq(videos.id, id),
          visibleTo(user, { owner: videos.userId, line: videos.lineClearanceId }),
        ),
      ),
    ),
  );
  return video;
}

/** The stored row of the caller's video that `match` finds: 404 for one it may not see (hiddenRecord). */
export async function findVisibleVideo(request: FastifyRequest, match: SQL): Promise<VideoRow> {
  const user = currentUser(request);
  const [row] = await request.server.ctx.db
    .select()
    .from(videos)
    .where(and(match, visibleTo(user, { owner: videos.userId, line: videos.lineClearanceId })));
  return row ?? hiddenRecord(request, videos, match, notFound('Video'));
}
