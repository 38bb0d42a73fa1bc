// The video list against a straightforward reference: each video's fields, counts, line and device
// data looked up one by one, the caller's scope and the filters applied in JavaScript. Runs on
// PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../context.ts';
import {
  devices,
  floorplanConfigs,
  floorplans,
  inspections,
  lineClearances,
  predictions,
  videos,
} from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { Video } from '../schemas/videos.ts';
import { build, type TestApp } from '../test/build.ts';
import { type DemoKey, loadFixture } from '../test/demo-fixture.ts';
import { getVideo, isoTimestamp, listVideos, listVideosJson, type VideoFilters } from './videos.ts';

let t: TestApp;
let users: Record<DemoKey, AuthUser>;
let lineIds: string[];
let userIds: string[];
let expected: Video[];

/** Timestamps from a small set, so several videos share one (the order then falls back to id). */
const times = Array.from(
  { length: 12 },
  (_, i) => new Date(Date.UTC(2026, 0, 1 + 3 * i, 8, 30, 15, 250)),
);

beforeAll(async () => {
  t = await build();
  const f = await loadFixture(t);
  const { db } = t.services.ctx;
  users = {} as Record<DemoKey, AuthUser>;
  for (const [key, id] of Object.entries(f.ids)) {
    const roles = (await t.app.inject({ url: '/api/me', headers: f.auth[key as DemoKey] })).json()
      .roles as AuthUser['roles'];
    users[key as DemoKey] = { id, name: key, email: `${key}@example.com`, roles };
  }
  // A third line without floor plan or configuration, a second device, and one line id that no
  // line clearance has (the list must still answer it, with no location).
  const lineC = newId();
  await db.insert(lineClearances).values({ id: lineC, name: 'Line C', location: '' });
  const fixtureLines = (await db.select({ id: lineClearances.id }).from(lineClearances)).map(
    (l) => l.id,
  );
  lineIds = [...fixtureLines, newId()];
  const camera2 = newId();
  await db.insert(devices).values({ id: camera2, name: 'Camera 2', qrCode: 'CAM-2' });
  const deviceIds = [...(await db.select({ id: devices.id }).from(devices)).map((d) => d.id)];
  userIds = [f.ids.operator, f.ids.operator2, f.ids.lcmanager];

  const random = fc.sample(
    fc.record({
      time: fc.nat({ max: times.length - 1 }),
      user: fc.nat({ max: userIds.length }),
      line: fc.nat({ max: lineIds.length }),
      device: fc.nat({ max: deviceIds.length }),
      predictions: fc.nat({ max: 3 }),
      inspections: fc.nat({ max: 2 }),
    }),
    { numRuns: 40, seed: 11 },
  );
  for (const [i, v] of random.entries()) {
    const id = newId();
    const lineId = lineIds[v.line] ?? null;
    await db.insert(videos).values({
      id,
      // One name with characters that JSON escapes.
      filename: i === 3 ? `list-"${i}"\\é\u0001.mp4` : `list-${i}.mp4`,
      storageKey: `videos/${id}.mp4`,
      subfolder: `list-${i}`,
      userId: userIds[v.user] ?? null,
      deviceId: deviceIds[v.device] ?? null,
      lineClearanceId: lineId,
      timestamp: times[v.time]!,
      size: 1000 + i,
      duration: 12.5 + i,
      status: i % 5 === 0 ? 'processing' : 'completed',
    });
    for (let p = 0; p < v.predictions; p++) {
      await db.insert(predictions).values({
        id: newId(),
        videoId: id,
        filename: `${p}.png`,
        subfolder: `list-${i}`,
        classLabels: ['tool'],
        confs: [0.5],
        boxesNormalized: [[0, 0, 1, 1]],
      });
    }
    for (let n = 0; n < v.inspections; n++) {
      await db.insert(inspections).values({
        id: newId(),
        lineClearanceId: lineId ?? lineIds[0]!,
        operatorId: f.ids.operator,
        videoId: id,
        startTime: times[0]!,
      });
    }
  }
  expected = await referenceList();
}, 60_000);
afterAll(() => t.close());

/** Every video in the API shape, built one row and one count at a time, newest first. */
async function referenceList(): Promise<Video[]> {
  const { db } = t.services.ctx;
  const list: Video[] = [];
  for (const v of await db.select().from(videos)) {
    const count = async (table: typeof predictions | typeof inspections) =>
      (await db.select().from(table).where(eq(table.videoId, v.id))).length;
    const [device] = v.deviceId
      ? await db.select().from(devices).where(eq(devices.id, v.deviceId))
      : [];
    const lineId = v.lineClearanceId ?? '';
    const [line] = await db.select().from(lineClearances).where(eq(lineClearances.id, lineId));
    const configs = await db
      .select()
      .from(floorplanConfigs)
      .where(eq(floorplanConfigs.lineClearanceId, lineId));
    const plans = await db.select().from(floorplans).where(eq(floorplans.lineId, lineId));
    list.push({
      _id: v.id,
      id: v.id,
      filename: v.filename,
      timestamp: v.timestamp.toISOString(),
      userId: v.userId,
      operatorId: v.userId,
      deviceId: v.deviceId,
      lineClearanceId: v.lineClearanceId,
      path: { video: `/api/videos/${v.filename}`, keyframesData: `/api/keyframes/${v.id}.txt` },
      status: v.status as Video['status'],
      size: v.size,
      fileSize: v.size,
      duration: v.duration,
      metadata: {
        device: device?.name ?? null,
        location: line?.location ?? null,
        duration: v.duration,
      },
      relatedData: {
        predictions: await count(predictions),
        reports: await count(inspections),
        floorplanConfigs: configs.length,
        floorplans: plans.length,
      },
    });
  }
  return list.sort((a, b) => b.timestamp.localeCompare(a.timestamp) || b.id.localeCompare(a.id));
}

/** The reference answer for a caller (docs/permissions.md: row scope) and filters. */
async function referenceFor(user: AuthUser, filters: VideoFilters): Promise<Video[]> {
  const managed = (
    await t.services.ctx.db
      .select({ id: lineClearances.id })
      .from(lineClearances)
      .where(eq(lineClearances.managerId, user.id))
  ).map((l) => l.id);
  const seesAll = user.roles.some((r) => ['admin', 'factory_manager', 'audit'].includes(r));
  return expected.filter((v) => {
    const visible =
      seesAll ||
      (user.roles.includes('operator') && v.userId === user.id) ||
      (user.roles.includes('lc_manager') && managed.includes(v.lineClearanceId ?? ''));
    const at = Date.parse(v.timestamp);
    return (
      visible &&
      (!filters.from || at >= filters.from.getTime()) &&
      (!filters.to || at <= filters.to.getTime()) &&
      (!filters.userIds?.length || filters.userIds.includes(v.userId ?? '')) &&
      (!filters.lineIds?.length || filters.lineIds.includes(v.lineClearanceId ?? ''))
    );
  });
}

describe('listVideos', () => {
  it('lists every video with its counts, line and device data, newest first', async () => {
    // The fixture's two videos plus the 40 above, several sharing a timestamp.
    expect(expected).toHaveLength(42);
    expect(new Set(expected.map((v) => v.timestamp)).size).toBeLessThan(30);
    expect(expected.some((v) => v.relatedData.predictions > 0)).toBe(true);
    expect(expected.some((v) => v.lineClearanceId && v.metadata.location === null)).toBe(true);
    expect(await listVideos(t.services.ctx.db, null)).toEqual(expected);
    expect(await listVideos(t.services.ctx.db, users.admin)).toEqual(expected);
    // The text the route sends: the schema's keys in order, as JSON.stringify writes the objects.
    expect((await listVideosJson(t.services.ctx.db, null)).toString()).toBe(
      JSON.stringify(expected),
    );
  });

  it('matches the reference for any caller and any combination of filters', async () => {
    const someOf = (values: string[]) =>
      fc.option(fc.subarray(values, { minLength: 1 }), { nil: undefined });
    const bound = fc.option(fc.constantFrom(...times), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<DemoKey>('admin', 'audit', 'operator', 'operator2', 'lcmanager'),
        fc.record({
          from: bound,
          to: bound,
          userIds: someOf(userIds),
          lineIds: someOf(lineIds),
        }),
        async (key, filters) => {
          const user = users[key];
          const answer = await listVideos(t.services.ctx.db, user, filters);
          expect(answer).toEqual(await referenceFor(user, filters));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('answers one video by id as listed, and none outside the caller’s scope', async () => {
    const [managed] = await referenceFor(users.lcmanager2, {});
    expect(managed).toBeDefined();
    expect(await getVideo(t.services.ctx.db, users.lcmanager2, managed!.id)).toEqual(managed);
    const others = expected.find((v) => v.userId === users.operator2.id)!;
    expect(await getVideo(t.services.ctx.db, users.audit, others.id)).toEqual(others);
    expect(await getVideo(t.services.ctx.db, users.operator, others.id)).toBeUndefined();
  });
});

describe('isoTimestamp', () => {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  it("writes PostgreSQL's JSON timestamps as Date.prototype.toISOString does", () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1000-01-01T00:00:00Z'),
          max: new Date('9999-12-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.nat({ max: 999 }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        fc.boolean(),
        (date, micros, offsetMinutes, utc) => {
          // PostgreSQL writes the local time at the session's offset, microseconds without
          // trailing zeros (none at all for whole seconds).
          const offset = utc ? 0 : offsetMinutes;
          const local = new Date(date.getTime() + offset * 60_000);
          const fraction = `${pad(local.getUTCMilliseconds(), 3)}${pad(micros, 3)}`.replace(
            /0+$/,
            '',
          );
          const sign = offset < 0 ? '-' : '+';
          const text =
            `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
            `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
            `${fraction ? `.${fraction}` : ''}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
          expect(isoTimestamp(text)).toBe(date.toISOString());
        },
      ),
      { numRuns: 2000 },
    );
  });
});
