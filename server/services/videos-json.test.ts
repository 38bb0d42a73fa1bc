// The list's JSON text (videos.ts, what the route sends and the cache keeps) must be byte for byte
// what JSON.stringify writes for the §3 objects, whichever way it is produced. Odd values on
// purpose: strings JSON escapes, NULLs, fractions of milliseconds, years at both ends of 1–9999,
// numbers where PostgreSQL's and JavaScript's number text differ (exponents, -0, integers past
// 2^53). Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../context.ts';
import { devices, floorplans, inspections, lineClearances, predictions } from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { Video } from '../schemas/videos.ts';
import { build, type TestApp } from '../test/build.ts';
import { getVideo, listVideosJson } from './videos.ts';

let t: TestApp;
const expected: Video[] = [];
const admin: AuthUser = { id: newId(), name: 'admin', email: 'a@example.com', roles: ['admin'] };

const oddText = [
  'quote " backslash \\ slash /',
  'controls \u0001\u0008\u0009\u000a\u000c\u000d\u001f end',
  'del \u007f, separators \u2028\u2029',
  'unicode é ü 漢字 😀',
  '</script><!--',
  '',
  // Longer than the bytes the JSON writer reserves per video: its buffer must grow mid-list.
  `long ${'漢字😀'.repeat(150)}`,
];

// PostgreSQL's input text and the instant as Date.prototype.toISOString writes it (checked below).
const timestamps: [string, string][] = [
  ['2026-03-30 12:12:32.123999+00', '2026-03-30T12:12:32.123Z'],
  ['2026-03-30 12:12:33+00', '2026-03-30T12:12:33.000Z'],
  ['2026-03-30 12:12:34.9+00', '2026-03-30T12:12:34.900Z'],
  ['2026-03-30 12:12:35.000001+00', '2026-03-30T12:12:35.000Z'],
  ['2026-01-01 00:30:00.25+05:30', '2025-12-31T19:00:00.250Z'],
  ['0001-01-01 00:00:00+00', '0001-01-01T00:00:00.000Z'],
  ['0999-12-31 23:59:59.999+00', '0999-12-31T23:59:59.999Z'],
  ['9999-12-31 23:59:59.999999+00', '9999-12-31T23:59:59.999Z'],
];

// double precision and bigint input text; the API writes them as JSON.stringify(Number(text)).
// Not NaN or ±Infinity: no write path can store them (JSON has no such numbers).
const durations = [
  '0',
  '-0',
  '12.5',
  '0.1',
  '1e-7',
  '1.5e-7',
  '1e-6',
  '0.0001',
  '0.00009999',
  '-2.5e-5',
  '123456789.123',
  '999999999999999',
  '1e15',
  '1.5e20',
  '1e21',
  '-1e300',
  '5e-324',
  '1.7976931348623157e308',
];
const sizes = [
  '0',
  '-1',
  '1000000',
  '9007199254740992',
  '9007199254740993',
  '1152921504606846976',
  '9223372036854775807',
  '-9223372036854775808',
];

beforeAll(async () => {
  t = await build();
  const { db } = t.services.ctx;
  const planned = newId();
  const bare = newId();
  await db.insert(lineClearances).values([
    { id: planned, name: 'Odd line', location: oddText[0] ?? '' },
    { id: bare, name: 'Plain line', location: oddText[3] ?? '' },
  ]);
  await db.insert(floorplans).values({
    id: newId(),
    name: 'Plan',
    imageKey: 'floorplans/x.png',
    lineId: planned,
    contentType: 'image/png',
  });
  const camera = newId();
  await db.insert(devices).values({ id: camera, name: oddText[1] ?? '', qrCode: 'CAM-ODD' });
  const lines = [planned, bare, newId(), null];
  const deviceIds = [camera, newId(), null];
  const userIds = [admin.id, null];

  const count = Math.max(timestamps.length, durations.length, sizes.length, oddText.length);
  for (let i = 0; i < count; i++) {
    const [timestampText, iso] = timestamps[i % timestamps.length] ?? ['', ''];
    const durationText = durations[i % durations.length] ?? '0';
    const sizeText = sizes[i % sizes.length] ?? '0';
    const id = newId();
    const filename = `${oddText[i % oddText.length]}-${i}.mp4`;
    const lineId = lines[i % lines.length] ?? null;
    const deviceId = deviceIds[i % deviceIds.length] ?? null;
    const userId = userIds[i % userIds.length] ?? null;
    const status = i === 2 ? 'odd "status"' : 'completed';
    await db.execute(sql`
      insert into videos (id, filename, storage_key, subfolder, user_id, device_id,
        line_clearance_id, timestamp, status, size, duration)
      values (${id}, ${filename}, ${`videos/${id}.mp4`}, ${`odd-${i}`}, ${userId}, ${deviceId},
        ${lineId}, ${timestampText}::timestamptz, ${status}, ${sizeText}::bigint,
        ${durationText}::double precision)`);
    const predictionCount = i % 3;
    for (let p = 0; p < predictionCount; p++) {
      await db.insert(predictions).values({
        id: newId(),
        videoId: id,
        filename: `${p}.png`,
        subfolder: `odd-${i}`,
        classLabels: [],
        confs: [],
        boxesNormalized: [],
      });
    }
    const reportCount = i % 4 === 1 ? 1 : 0;
    if (reportCount) {
      await db.insert(inspections).values({
        id: newId(),
        lineClearanceId: planned,
        operatorId: admin.id,
        videoId: id,
        startTime: new Date(),
      });
    }
    const size = Number(sizeText);
    const duration = Number(durationText);
    expected.push({
      _id: id,
      id,
      filename,
      timestamp: iso,
      userId,
      operatorId: userId,
      deviceId,
      lineClearanceId: lineId,
      path: { video: `/api/videos/${filename}`, keyframesData: `/api/keyframes/${id}.txt` },
      status: status as Video['status'],
      size,
      fileSize: size,
      duration,
      metadata: {
        device: deviceId === camera ? (oddText[1] ?? '') : null,
        location: lineId === planned ? oddText[0] : lineId === bare ? oddText[3] : null,
        duration,
      },
      relatedData: {
        predictions: predictionCount,
        reports: reportCount,
        floorplanConfigs: 0,
        floorplans: lineId === planned ? 1 : 0,
      },
    } as Video);
  }
  expected.sort(
    (a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp) || b.id.localeCompare(a.id),
  );
}, 60_000);
afterAll(() => t.close());

describe('the video list as JSON written by the database', () => {
  it('uses JavaScript’s own timestamp text in the expectations', () => {
    for (const [, iso] of timestamps) expect(new Date(iso).toISOString()).toBe(iso);
  });

  it('is byte for byte JSON.stringify of the §3 objects, odd values included', async () => {
    const bytes = await listVideosJson(t.services.ctx.db, null);
    const answer = bytes.toString();
    expect(answer).toBe(JSON.stringify(expected));
    expect(bytes.length).toBe(Buffer.byteLength(answer));
    expect(answer).toContain('漢字😀漢字😀');
    // Cover every value above (the loop runs over the longest list).
    expect(expected.some((v) => Object.is(v.duration, -0))).toBe(true);
    expect(answer).toContain('"duration":1e-7');
  });

  it('answers each video alone as it lists it', async () => {
    for (const video of expected) {
      const answer = await getVideo(t.services.ctx.db, admin, video.id);
      expect(JSON.stringify(answer)).toBe(JSON.stringify(video));
    }
  });

  it('answers an empty list as []', async () => {
    const answer = await listVideosJson(t.services.ctx.db, null, { lineIds: [newId()] });
    expect(answer.toString()).toBe('[]');
  });
});
