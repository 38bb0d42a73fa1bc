// Reading videos as the API shape (spec §3). One prepared query (server/db/prepared.ts) selects the
// matching videos, looks up what they refer to once per distinct line, device and video (not once
// per listed row): line location and floor-plan data, device names, prediction and inspection
// counts, and writes the answer's JSON text itself, byte for byte as JSON.stringify would write
// the §3 objects. The server's main thread receives one text value and sends it: no parsing and
// no objects per listed video, which under load were promoted into the old generation and set
// the list's tail latency through garbage-collection pauses (docs/server.md, Round 4).
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
import { visibleTo } from './scope.ts';

export type VideoRow = typeof videos.$inferSelect;

// The list query before its WHERE clause, compiled once: the matching videos (`v`).
const listHead = precompiled(sql`
  with v as (
    select ${videos.id} as id, ${videos.filename} as filename, ${videos.timestamp} as timestamp,
      ${videos.userId} as user_id, ${videos.deviceId} as device_id,
      ${videos.lineClearanceId} as line_clearance_id, ${videos.status} as status,
      ${videos.size} as size, ${videos.duration} as duration
    from ${videos}
    where `);

/** A text value as a JSON string, escaped as JSON.stringify escapes it; SQL NULL as `null`. */
const jsonText = (value: SQL | PgColumn) => sql`coalesce(to_json(${value})::text, 'null')`;

/**
 * A double as JavaScript writes it (Number.prototype.toString, which JSON.stringify uses).
 * PostgreSQL writes the same shortest round-trip digits, but switches to exponent notation outside
 * 1e-4 ≤ |x| < 1e15 where JavaScript does outside 1e-7 ≤ |x| < 1e21, writes `-0` and `e+05` where
 * JavaScript writes `0` and `e+5`, and has NaN and ±Infinity, which JSON.stringify writes as null.
 * The common range takes PostgreSQL's text as it is; only the rest is laid out again.
 */
const jsNumber = (value: SQL) => sql`(case
  when ${value} = 0 then '0'
  when abs(${value}) >= 1e-4 and abs(${value}) < 1e15 then ${value}::text
  else (select case
      when m is null then 'null'
      when n between k and 21 then m[1] || d || repeat('0', n - k)
      when n between 1 and 21 then m[1] || left(d, n) || '.' || substr(d, n + 1)
      when n between -5 and 0 then m[1] || '0.' || repeat('0', -n) || d
      else m[1] || m[2] || coalesce('.' || m[3], '') || 'e' || (case when n > 0 then '+' else '-' end) || abs(n - 1)
    end
    from regexp_match(${value}::text, '^(-?)(\\d)(?:\\.(\\d+))?e([-+]\\d+)$') m,
      lateral (select m[2] || coalesce(m[3], '') as d, m[4]::int + 1 as n) parts,
      lateral (select length(d) as k) digits)
end)`;

// A byte count as JavaScript writes it after JSON.parse: integers up to 2^53 as they are, larger
// ones as the nearest double.
const sizeText = sql`(case
  when v.size between -9007199254740992 and 9007199254740992 then v.size::text
  else ${jsNumber(sql`v.size::float8`)}
end)`;

/**
 * A timestamp as Date.prototype.toISOString writes it (UTC, milliseconds, microseconds truncated as
 * JavaScript truncates them), whatever the session's time zone. Years outside 1–9999 get
 * JavaScript's year numbering (PostgreSQL's 1 BC is its year 0) and, beyond 0–9999, its six-digit
 * signed form.
 */
const isoText = (value: SQL) => sql`(case
  when ${value} >= '0001-01-01T00:00:00Z' and ${value} < '10000-01-01T00:00:00Z'
    then to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  else (select (case
        when y between 0 and 9999 then lpad(y::text, 4, '0')
        else (case when y < 0 then '-' else '+' end) || lpad(abs(y)::text, 6, '0')
      end) || to_char(${value} at time zone 'UTC', '-MM-DD"T"HH24:MI:SS.MS"Z"')
    from (select date_part('year', ${value} at time zone 'UTC')::int as bc_or_ad) year,
      lateral (select (case when bc_or_ad < 0 then bc_or_ad + 1 else bc_or_ad end) as y) js)
end)`;

// Counts grouped by video in one index scan each (`= any(ids)`): a per-row subquery restarts a scan,
// and on PGlite asks the file system for the table's size, for every listed video.
const countedBy = (table: typeof predictions | typeof inspections) => sql`
    select ${table.videoId} as video_id, count(*) as n from ${table}
    where ${table.videoId} = any(array(select v.id from v))
    group by ${table.videoId}`;

// The rest of the list query, compiled once. Lines and devices are looked up once each (their text
// escaped there); each video's object is written with the schema's keys in its order, and the
// objects joined newest first (ties by the unique id, so the order is stable).
const listTail = precompiled(sql`),
  line as materialized (
    select ${lineClearances.id} as id, ${jsonText(lineClearances.location)} as location,
      exists(select from ${floorplanConfigs} where ${floorplanConfigs.lineClearanceId} = ${lineClearances.id}) as configured,
      exists(select from ${floorplans} where ${floorplans.lineId} = ${lineClearances.id}) as planned
    from ${lineClearances}
    where ${lineClearances.id} = any(array(select distinct v.line_clearance_id from v))),
  device as (
    select ${devices.id} as id, ${jsonText(devices.name)} as name from ${devices}
    where ${devices.id} = any(array(select distinct v.device_id from v))),
  predicted as (${countedBy(predictions)}),
  reported as (${countedBy(inspections)})
  select '[' || coalesce(string_agg(concat(
    '{"_id":', to_json(v.id), ',"id":', to_json(v.id),
    ',"filename":', to_json(v.filename),
    ',"timestamp":"', ${isoText(sql`v.timestamp`)},
    '","userId":', ${jsonText(sql`v.user_id`)}, ',"operatorId":', ${jsonText(sql`v.user_id`)},
    ',"deviceId":', ${jsonText(sql`v.device_id`)},
    ',"lineClearanceId":', ${jsonText(sql`v.line_clearance_id`)},
    ',"path":{"video":', to_json('/api/videos/' || v.filename),
    ',"keyframesData":', to_json('/api/keyframes/' || v.id || '.txt'),
    '},"status":', to_json(v.status),
    ',"size":', ${sizeText}, ',"fileSize":', ${sizeText},
    ',"duration":', ${jsNumber(sql`v.duration`)},
    ',"metadata":{"device":', coalesce(device.name, 'null'),
    ',"location":', coalesce(line.location, 'null'),
    ',"duration":', ${jsNumber(sql`v.duration`)},
    '},"relatedData":{"predictions":', coalesce(predicted.n, 0),
    ',"reports":', coalesce(reported.n, 0),
    ',"floorplanConfigs":', (case when line.configured then 1 else 0 end),
    ',"floorplans":', (case when line.planned then 1 else 0 end), '}}'
  ), ',' order by v.timestamp desc, v.id desc), '') || ']'
  from v
    left join line on line.id = v.line_clearance_id
    left join device on device.id = v.device_id
    left join predicted on predicted.video_id = v.id
    left join reported on reported.video_id = v.id`);

/** The videos matching `where` (which includes the caller's scope) as the JSON text the API sends. */
async function listedJson(db: Db, where: SQL | undefined): Promise<string> {
  const [row] = await preparedRows(db, sql`${listHead}${where ?? sql`true`}${listTail}`);
  // An aggregate without GROUP BY always answers one row.
  if (!row?.[0]) throw new Error('The video list query answered no row');
  return row[0];
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

/** The WHERE clause of the list: the caller's scope (none for null: the admin list) and filters. */
function listWhere(user: AuthUser | null, filters: VideoFilters): SQL | undefined {
  const where: (SQL | undefined)[] = [
    user ? visibleTo(user, { owner: videos.userId, line: videos.lineClearanceId }) : undefined,
  ];
  if (filters.from) where.push(gte(videos.timestamp, filters.from));
  if (filters.to) where.push(lte(videos.timestamp, filters.to));
  if (filters.userIds?.length) where.push(anyOf(videos.userId, filters.userIds));
  if (filters.lineIds?.length) where.push(anyOf(videos.lineClearanceId, filters.lineIds));
  return and(...where);
}

/**
 * The videos the user may see that match the filters, newest first, as the UTF-8 JSON the routes
 * send. A Buffer rather than a string: its bytes live
 * outside the JavaScript heap, so a cached answer (tens of kB) is not copied by every young-
 * generation garbage collection it survives, and the socket takes it without encoding it again.
 */
export async function listVideosJson(
  db: Db,
  user: AuthUser | null,
  filters: VideoFilters = {},
): Promise<Buffer> {
  return Buffer.from(await listedJson(db, listWhere(user, filters)));
}

/** One video the user may see, as listed, in UTF-8 JSON. */
export async function getVideoJson(db: Db, user: AuthUser, id: string): Promise<Buffer> {
  const listed = await listedJson(
    db,
    and(eq(videos.id, id), visibleTo(user, { owner: videos.userId, line: videos.lineClearanceId })),
  );
  if (listed === '[]') throw notFound('Video');
  // The list of one, without its brackets.
  return Buffer.from(listed.slice(1, -1));
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
