import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, devices, lineClearances, reportSummaries, videos } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { reportRules } from '../reports/report.ts';
import type { MyInspection } from '../schemas/operator.ts';
import { build, type TestApp } from '../test/build.ts';
import {
  type CaptureLines,
  createCaptureLines,
  submission,
  submit,
} from '../test/capture-fixture.ts';
import { createRoleUsers, createUser, type RoleUsers } from '../test/fixtures.ts';
import { INSPECTIONS_PER_HOUR } from './capture.ts';

let t: TestApp;
let u: RoleUsers;
let lines: CaptureLines;

beforeAll(async () => {
  t = await build();
  u = await createRoleUsers(t);
  lines = await createCaptureLines(t, u);
});
afterAll(() => t.close());

const post = (auth: { authorization: string }, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/inspections',
    headers: auth,
    payload: payload as object,
  });

const motion = (n: number) => ({
  t: Array.from({ length: n }, (_, i) => i / 60),
  ax: Array(n).fill(0.1),
  ay: Array(n).fill(9.8),
  az: Array(n).fill(0.2),
  alpha: Array(n).fill(10),
  beta: Array(n).fill(80),
  gamma: Array(n).fill(-3),
  absolute: false,
});

const scan = (code: string, videoTime: number, tagIndex: number | null = null) => ({
  code,
  videoTime,
  at: '2026-11-20T08:01:00.000Z',
  tagIndex,
});

describe('submitting an inspection', () => {
  it('creates the inspection (pending) with the checklist and its video awaiting the file', async () => {
    const body = submission(lines.lineA);
    const res = await post(u.operator.auth, body);
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created.inspection).toMatchObject({
      lineClearanceId: lines.lineA,
      operatorId: u.operator.id,
      status: 'pending',
      productLeaving: 'Aspirin 500',
      batchComing: 'B-2002',
      startTime: '2026-11-20T08:00:00.000Z',
      endTime: '2026-11-20T08:05:00.000Z',
      videoId: created.videoId,
    });
    expect(created.inspection.checklist.tags.map((tag: { index: number }) => tag.index)).toEqual([
      0, 1, 2,
    ]);
    expect(created.inspection.checklist.hotZones[0]).toMatchObject({ name: 'Filler', index: 0 });
    expect(created.videoFilename).toBe(`${created.videoId}.webm`);
    const [video] = await t.services.ctx.db
      .select()
      .from(videos)
      .where(eq(videos.id, created.videoId));
    expect(video).toMatchObject({ status: 'pending', size: 0, sha256: null, duration: 300 });
    // The manager of the line sees it; the file is not there yet.
    const listed = (await t.app.inject({ url: '/api/inspections', headers: u.lc.auth })).json();
    expect(listed.map((i: { _id: string }) => i._id)).toContain(created.inspection._id);
    const file = await t.app.inject({
      url: `/api/videos/${created.videoFilename}`,
      headers: u.operator.auth,
    });
    expect(file.statusCode).toBe(404);
    const log = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, created.inspection._id));
    expect(log.map((row) => row.action)).toEqual(['create']);
    // Received on the server's clock, as its entry in the trail (the times sent are the phone's).
    expect(created.inspection.receivedAt).toBe(log[0]?.at.toISOString());

    // The same recording submitted again (a lost answer) gets the same inspection.
    const again = await post(u.operator.auth, body);
    expect(again.statusCode).toBe(200);
    expect(again.json().inspection._id).toBe(created.inspection._id);
    // Another user cannot take over that reference.
    expect(
      (await post(u.operator2.auth, { ...body, lineClearanceId: lines.lineB })).statusCode,
    ).toBe(409);
  });

  it('keeps the direction marks Hebrew and Arabic users type (U+200F, U+061C)', async () => {
    const typed = { productLeaving: 'אקמול\u200f 500', batchLeaving: '\u061cب-1001' };
    const res = await post(u.operator.auth, submission(lines.lineA, typed));
    expect(res.statusCode).toBe(201);
    expect(res.json().inspection).toMatchObject(typed);
  });

  it('refuses a product or batch that hides a character (400 naming it); stores them in NFC', async () => {
    for (const [field, value] of [
      ['batchLeaving', 'B\u200b-001'],
      ['batchComing', 'B-002\t'],
      ['productLeaving', 'Aspirin\n500 mg'],
      ['productComing', 'Ibuprofen\u200f 200'],
    ] as const) {
      const res = await post(u.operator.auth, submission(lines.lineA, { [field]: value }));
      expect(res.statusCode, field).toBe(400);
      expect(res.json().message, field).toMatch(new RegExp(`^body\\.${field} must be one line `));
    }
    const typed = { productLeaving: 'Cre\u0300me 50 g', batchLeaving: 'B-001' };
    const res = await post(u.operator.auth, submission(lines.lineA, typed));
    expect(res.statusCode).toBe(201);
    expect(res.json().inspection.productLeaving).toBe('Cr\u00e8me 50 g');
  });

  it('answers parallel submits of one recording with one 201; the others replay it (200)', async () => {
    // All five pass the first look-up before any inserts: each opens its transaction first.
    const { db } = t.services.ctx;
    const transaction = db.transaction.bind(db);
    let opened = 0;
    let allOpened = () => {};
    const barrier = new Promise<void>((resolve) => {
      allOpened = resolve;
    });
    const spy = vi.spyOn(db, 'transaction').mockImplementation(async (...args) => {
      opened += 1;
      if (opened === 5) allOpened();
      await barrier;
      return transaction(...args);
    });
    const body = submission(lines.lineA);
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(u.operator.auth, body)));
    spy.mockRestore();
    expect(opened).toBe(5);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((res) => res.json().inspection._id)).size).toBe(1);
  });

  it('takes at most INSPECTIONS_PER_HOUR new inspections an hour from one account', async () => {
    const busy = await createUser(t, 'busy-operator', ['operator']);
    const calm = await createUser(t, 'calm-operator', ['operator']);
    const { db } = t.services.ctx;
    const line = await db
      .insert(lineClearances)
      .values({
        id: newId(),
        name: 'Line R',
        assignedOperators: [busy.id, calm.id],
      })
      .returning();
    const lineId = line[0]?.id as string;
    for (let n = 0; n < INSPECTIONS_PER_HOUR; n++) await submit(t, busy, lineId);
    const over = await t.app.inject({
      method: 'POST',
      url: '/api/inspections',
      headers: busy.auth,
      payload: submission(lineId),
    });
    expect(over.statusCode).toBe(429);
    // Another account is not held back by it.
    expect(await submit(t, calm, lineId)).toHaveProperty('videoId');
  });

  it('refuses lines the caller is not assigned to (403) and lines not active (409)', async () => {
    const unassigned = await post(u.operator.auth, submission(lines.lineB));
    expect(unassigned.statusCode).toBe(403);
    expect(unassigned.json().message).toBe(
      'You are not assigned to this line: ask an admin, a factory manager or its LC manager to assign you, then resume the upload.',
    );
    expect((await post(u.admin.auth, submission(lines.lineA))).statusCode).toBe(403);
    expect((await post(u.audit.auth, submission(lines.lineA))).statusCode).toBe(403);
    const maintenance = await post(u.operator.auth, submission(lines.maintenance));
    expect(maintenance.statusCode).toBe(409);
    expect(maintenance.json().message).toBe(
      'Line M is under maintenance: it cannot be inspected now. Resume the upload once it is active again.',
    );
  });

  it('names the field of bad input and stores nothing', async () => {
    const before = (await t.services.ctx.db.select().from(videos)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ productLeaving: '  ' }, 'body.productLeaving'],
      [{ batchComing: undefined }, 'body.batchComing is required'],
      [{ startTime: 'yesterday' }, 'body.startTime'],
      [{ endTime: '2026-11-20T07:00:00.000Z' }, 'body.endTime must not be before body.startTime'],
      [{ startTime: '2099-01-01T00:00:00.000Z', endTime: '2099-01-01T00:01:00.000Z' }, 'future'],
      // Started now, ending a year ahead: a phone's clock set wrong, or a made-up end.
      [
        { startTime: new Date().toISOString(), endTime: '2099-01-01T00:01:00.000Z' },
        'body.endTime is in the future',
      ],
      [{ video: { container: 'avi', duration: 1 } }, 'body.video.container'],
      [{ deviceId: 'aaaaaaaaaaaaaaaaaaaaaaaa' }, 'body.deviceId'],
      [{ clientRef: '../../x' }, 'body.clientRef'],
      // Stored, it would show as 'PA-2041' on the report.
      [
        { batchLeaving: '\u202e1402-AP' },
        'body.batchLeaving contains an invisible direction control (U+202E); type the text without it',
      ],
    ];
    for (const [change, message] of cases) {
      const res = await post(u.operator.auth, submission(lines.lineA, change));
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().message).toContain(message);
    }
    expect((await t.services.ctx.db.select().from(videos)).length).toBe(before);
  });
});

describe('attaching capture data', () => {
  const attach = (auth: { authorization: string }, id: string, payload: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/inspections/${id}/capture`,
      headers: auth,
      payload: payload as object,
    });

  it('stores scans matched to the checklist by the server, once', async () => {
    const { inspection } = await submit(t, u.operator, lines.lineA);
    const data = {
      // The device's tag indexes are not trusted: the server matches codes to the checklist.
      scans: [scan('A-TAG-2', 12.5, 0), scan('LC9-OTHER', 20), scan('A-TAG-2', 30)],
      motion: motion(600),
    };
    const res = await attach(u.operator.auth, inspection._id, data);
    expect(res.statusCode).toBe(201);
    expect(res.json().scans.map((s: { tagIndex: number | null }) => s.tagIndex)).toEqual([
      1,
      null,
      1,
    ]);
    const stored = await t.services.ctx.db.query.captures.findFirst({
      where: (c, { eq }) => eq(c.inspectionId, inspection._id),
    });
    expect(stored?.motion?.t.length).toBe(600);
    const again = await attach(u.operator.auth, inspection._id, data);
    expect(again.statusCode).toBe(200);
    const other = await attach(u.operator.auth, inspection._id, { ...data, scans: [] });
    expect(other.statusCode).toBe(409);
    const [entry] = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'attach'));
    expect(entry?.newValue).toMatchObject({ motionSamples: 600, checkpointsScanned: 1 });
  });

  it('keeps the /reports summary current: a new inspection is flagged at once, its scans count', async () => {
    const { inspection } = await submit(t, u.operator, lines.lineA);
    const summary = async () =>
      (
        await t.services.ctx.db
          .select()
          .from(reportSummaries)
          .where(eq(reportSummaries.inspectionId, inspection._id))
      )[0];
    const before = await summary();
    // No verified video yet (critical); without the phone's scans and a path its three tags are
    // not assessable, so they raise no flag yet. Nobody opened the report.
    expect(before).toMatchObject({ tagsScanned: 0, tagsTotal: 3 });
    expect(before?.criticalFlags).toBeGreaterThan(0);
    const flagged = await t.app.inject({
      url: '/api/reports?flagged=true&limit=200',
      headers: u.admin.auth,
    });
    expect(flagged.json().rows.map((row: { inspectionId: string }) => row.inspectionId)).toContain(
      inspection._id,
    );
    const attached = await attach(u.operator.auth, inspection._id, {
      scans: [scan('A-TAG-2', 12.5)],
      motion: motion(60),
    });
    expect(attached.json()).toMatchObject({ scans: [{ tagIndex: 1 }] });
    const after = await summary();
    expect(after).toMatchObject({ tagsScanned: 1, tagsTotal: 3 });
    // With the scans, the two tags the phone did not scan are missed.
    expect(after?.flags).toBe((before?.flags ?? 0) + 2);
  });

  it('refuses bad capture data with the field named, and other users', async () => {
    const { inspection } = await submit(t, u.operator, lines.lineA);
    const uneven = { ...motion(10), gamma: [1, 2] };
    const backwards = { ...motion(3), t: [0, 2, 1] };
    const cases: [unknown, string][] = [
      [
        { scans: [], motion: uneven },
        'body.motion.gamma must have as many samples as body.motion.t',
      ],
      [{ scans: [], motion: backwards }, 'body.motion.t must not decrease'],
      [{ scans: [scan('A-TAG-1', 9999)], motion: null }, 'body.scans[0].videoTime'],
      [
        { scans: [{ code: '', videoTime: 1, at: 'x', tagIndex: null }], motion: null },
        'body.scans',
      ],
      [{ scans: [] }, 'body.motion is required'],
    ];
    for (const [payload, message] of cases) {
      const res = await attach(u.operator.auth, inspection._id, payload);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toContain(message);
    }
    const empty = { scans: [], motion: null };
    expect((await attach(u.operator2.auth, inspection._id, empty)).statusCode).toBe(404);
    expect((await attach(u.lc.auth, inspection._id, empty)).statusCode).toBe(403);
    expect((await attach(u.operator.auth, inspection._id, empty)).statusCode).toBe(201);
  });
});

describe('the operator’s own lists', () => {
  it('lists assigned lines with their configuration and last inspection', async () => {
    const res = await t.app.inject({ url: '/api/my/lines', headers: u.operator.auth });
    expect(res.statusCode).toBe(200);
    const mine = res.json();
    expect(mine.map((m: { line: { name: string } }) => m.line.name)).toEqual(['Line A', 'Line M']);
    expect(mine[0]).toMatchObject({ hasConfiguration: true, tagCount: 3, hotZoneCount: 1 });
    expect(mine[0].lastInspection.status).toBe('pending');
    // The first of the operator's own inspections of that line in its list (newest first).
    const own = await t.app.inject({ url: '/api/my/inspections', headers: u.operator.auth });
    const onLineA = own
      .json()
      .filter((m: MyInspection) => m.inspection.lineClearanceId === mine[0].line._id);
    expect(onLineA.length).toBeGreaterThan(1);
    expect(mine[0].lastInspection._id).toBe(onLineA[0].inspection._id);
    expect(mine[1]).toMatchObject({ hasConfiguration: false, lastInspection: null });
    // A line listed on the user's own record counts as assigned too.
    await t.services.ctx.db
      .update(lineClearances)
      .set({ assignedOperators: [] })
      .where(eq(lineClearances.id, lines.maintenance));
    const detail = await t.app.inject({
      url: `/api/my/lines/${lines.lineA}`,
      headers: u.operator.auth,
    });
    expect(detail.json().checklist.tags[0]).toMatchObject({ qrCode: 'A-TAG-1', index: 0 });
    // The report's own minimum: the Review step warns below it.
    expect(detail.json().minVideoSeconds).toBe(reportRules.minVideoSeconds);
    const notMine = await t.app.inject({
      url: `/api/my/lines/${lines.lineB}`,
      headers: u.operator.auth,
    });
    expect(notMine.statusCode).toBe(403);
  });

  it('lists own inspections with their video state, and own devices', async () => {
    const res = await t.app.inject({
      url: '/api/my/inspections?limit=2',
      headers: u.operator.auth,
    });
    const mine = res.json();
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatchObject({
      lineName: 'Line A',
      video: { status: 'pending', statusReason: null, verified: false, sha256: null },
    });
    expect(
      (await t.app.inject({ url: '/api/my/inspections', headers: u.operator2.auth })).json(),
    ).toEqual([]);
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: u.operator.auth,
      payload: { qrCode: 'PHONE-0042' },
    });
    expect(registered.statusCode).toBe(201);
    await t.services.ctx.db
      .insert(devices)
      .values({ id: '0'.repeat(24), name: 'Someone else’s', qrCode: 'OTHER-1' });
    const devicesOfMine = (
      await t.app.inject({ url: '/api/my/devices', headers: u.operator.auth })
    ).json();
    expect(devicesOfMine.map((d: { qrCode: string }) => d.qrCode)).toEqual(['PHONE-0042']);
  });
});

describe('discarding a recording', () => {
  it('marks the video as discarded once, audited; only its recorder may', async () => {
    const { videoId } = await submit(t, u.operator, lines.lineA);
    const discard = (auth: { authorization: string }) =>
      t.app.inject({ method: 'POST', url: `/api/videos/${videoId}/discard`, headers: auth });
    expect((await discard(u.operator2.auth)).statusCode).toBe(404);
    expect((await discard(u.admin.auth)).statusCode).toBe(403);
    expect((await discard(u.operator.auth)).statusCode).toBe(200);
    expect((await discard(u.operator.auth)).statusCode).toBe(200);
    const [video] = await t.services.ctx.db.select().from(videos).where(eq(videos.id, videoId));
    expect(video).toMatchObject({
      status: 'error',
      statusReason: 'Recording discarded on the device',
    });
    // The video page's keyframes request says it never comes, not to wait for it.
    const keyframes = await t.app.inject({
      url: `/api/keyframes/${videoId}.txt`,
      headers: u.operator.auth,
    });
    expect(keyframes.json().message).toBe(
      'Keyframes file not found. No video file: Recording discarded on the device.',
    );
    const log = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'discard'));
    expect(log).toHaveLength(1);
  });
});
