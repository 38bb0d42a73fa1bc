// Service accounts, the ingestion API and /api/analysis: who may call them, what they store, and
// bad input answered with a named error and nothing half-written.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateWalk } from '../../tests/support/simulated-walk.ts';
import { makeTestVideo } from '../../tests/support/test-video.ts';
import { auditLog, captures, inspections, videos } from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { AnalysisRow } from '../schemas/analysis.ts';
import {
  captureFor,
  checklistFor,
  createLine,
  createRecordedInspection,
  jobsOf,
} from '../test/analysis-fixtures.ts';
import { build, type TestApp } from '../test/build.ts';
import { submit } from '../test/capture-fixture.ts';
import { createRoleUsers, type RoleUsers } from '../test/fixtures.ts';

let t: TestApp;
let people: RoleUsers;
let lineId: string;
let key: string;
let keyId: string;
const walk = simulateWalk({ seed: 3 });
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  t = await build({ ANALYSIS_POLL_MS: '100', MAX_UPLOAD_BYTES: String(4 * 1024 * 1024) });
  people = await createRoleUsers(t);
  lineId = await createLine(t, people.lc.id, people.operator.id);
  await t.services.ctx.analysis.start(t.services.ctx.dbKind);
});
afterAll(() => t?.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('service accounts', () => {
  it('are created by an admin, with the key shown once and never in the audit log', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/service-accounts',
      headers: people.admin.auth,
      payload: { name: 'External SLAM' },
    });
    expect(res.statusCode).toBe(201);
    ({ key, _id: keyId } = res.json());
    expect(key).toMatch(/^lcsk_[0-9a-f]{24}_[A-Za-z0-9_-]{43}$/);
    const list = await t.app.inject({ url: '/api/service-accounts', headers: people.admin.auth });
    expect(list.json()).toEqual([
      expect.objectContaining({ _id: keyId, name: 'External SLAM', revokedAt: null }),
    ]);
    expect(JSON.stringify(list.json())).not.toContain(key.slice(-43));
    const logged = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, keyId));
    expect(logged.map((e) => e.action)).toEqual(['create']);
    expect(JSON.stringify(logged)).not.toContain(key.slice(-43));
  });

  it('may call only the ingestion routes', async () => {
    const other = await t.app.inject({ url: '/api/videos', headers: bearer(key) });
    expect(other.statusCode).toBe(403);
    const me = await t.app.inject({ url: '/api/me', headers: bearer(key) });
    expect(me.statusCode).toBe(403);
    const wrong = await t.app.inject({
      url: '/api/videos',
      headers: bearer(`${key.slice(0, -2)}xx`),
    });
    expect(wrong.statusCode).toBe(401);
  });
});

describe('posting a recording', () => {
  it('stores it, links the inspection and analyses it by itself', async () => {
    const { inspectionId } = await inspectionWithCapture();
    const file = makeTestVideo(walk.duration, { dir: t.dataDir });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/ingest/videos?lineClearanceId=${lineId}&inspectionId=${inspectionId}`,
      headers: { ...bearer(key), 'content-type': 'video/mp4' },
      payload: fs.readFileSync(file),
    });
    expect(res.statusCode, res.body).toBe(201);
    const { videoId, size } = res.json();
    expect(size).toBe(fs.statSync(file).size);
    const [inspection] = await t.services.ctx.db
      .select()
      .from(inspections)
      .where(eq(inspections.id, inspectionId));
    expect(inspection?.videoId).toBe(videoId);
    const [job] = await jobsOf(t, videoId);
    const done = await t.services.ctx.analysis.settled(job?.id ?? '');
    expect(done.state, done.error ?? '').toBe('completed');
    expect(done.summary?.path).toBe('motion');
    // The operator of the inspection sees it on /analysis and on the video page.
    const rows: AnalysisRow[] = (
      await t.app.inject({ url: '/api/analysis', headers: people.operator.auth })
    ).json();
    expect(rows.find((row) => row.videoId === videoId)).toMatchObject({
      inspectionId,
      videoStatus: 'completed',
      job: { state: 'completed', progress: 1 },
    });
    const keyframes = await t.app.inject({
      url: `/api/keyframes/${videoId}.txt`,
      headers: people.operator.auth,
    });
    expect(keyframes.statusCode).toBe(200);
  });

  it('gives an inspection the file its phone never uploaded, once; the device then cannot', async () => {
    const { inspection, videoId } = await submit(t, people.operator, lineId);
    const file = fs.readFileSync(makeTestVideo(3, { dir: t.dataDir }));
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/ingest/videos?lineClearanceId=${lineId}&inspectionId=${inspection._id}`,
        headers: { ...bearer(key), 'content-type': 'video/mp4' },
        payload: file,
      });
    const res = await post();
    expect(res.statusCode, res.body).toBe(201);
    const sha256 = createHash('sha256').update(file).digest('hex');
    expect(res.json()).toEqual({ videoId, sha256, size: file.length });
    const [video] = await t.services.ctx.db.select().from(videos).where(eq(videos.id, videoId));
    // Named in the container posted (the phone declared WebM); kept under a key of its own.
    expect(video).toMatchObject({ filename: `${videoId}.mp4`, sha256, size: file.length });
    expect(video?.storageKey).toMatch(new RegExp(`^videos/${videoId}/[0-9a-f]{24}\\.mp4$`));
    const served = await t.app.inject({
      url: `/api/videos/${videoId}.mp4`,
      headers: people.operator.auth,
    });
    expect(createHash('sha256').update(served.rawPayload).digest('hex')).toBe(sha256);
    expect(await jobsOf(t, videoId)).toHaveLength(1);
    const [attached] = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, videoId), eq(auditLog.action, 'file.ingest')));
    expect(attached).toMatchObject({
      actorEmail: 'service-account:External SLAM',
      oldValue: { sha256: null, size: 0, filename: `${videoId}.webm` },
      newValue: { sha256, size: file.length, inspectionId: inspection._id },
    });
    // The file is there: neither a second post nor the phone's upload replaces it.
    const again = await post();
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('The inspection already has a video');
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...people.operator.auth,
        'tus-resumable': '1.0.0',
        'upload-length': '100',
        'upload-metadata': `videoId ${Buffer.from(videoId).toString('base64')},sha256 ${Buffer.from(sha256).toString('base64')},filetype ${Buffer.from('video/mp4').toString('base64')}`,
      },
    });
    expect(upload.statusCode).toBe(409);
    // The same file posted as a new video: refused, it is already this inspection's evidence.
    const copy = await t.app.inject({
      method: 'POST',
      url: `/api/ingest/videos?lineClearanceId=${lineId}`,
      headers: { ...bearer(key), 'content-type': 'video/mp4' },
      payload: file,
    });
    expect(copy.statusCode).toBe(409);
    expect(copy.json().message).toMatch(/^This file is identical \(the same SHA-256\)/);
  });

  it('attaches no file to a recording the device gave up', async () => {
    const { inspection, videoId } = await submit(t, people.operator, lineId);
    const discarded = await t.app.inject({
      method: 'POST',
      url: `/api/videos/${videoId}/discard`,
      headers: people.operator.auth,
    });
    expect(discarded.statusCode, discarded.body).toBe(200);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/ingest/videos?lineClearanceId=${lineId}&inspectionId=${inspection._id}`,
      headers: { ...bearer(key), 'content-type': 'video/mp4' },
      payload: fs.readFileSync(makeTestVideo(3, { dir: t.dataDir })),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      "The inspection's video was given up (Recording discarded on the device); no file can be attached to it",
    );
  });

  it('refuses a body over MAX_UPLOAD_BYTES and an empty one, and keeps nothing', async () => {
    const before = await t.services.ctx.db.select({ id: videos.id }).from(videos);
    const filesBefore = fs.readdirSync(`${t.dataDir}/files/videos`);
    const big = await t.app.inject({
      method: 'POST',
      url: `/api/ingest/videos?lineClearanceId=${lineId}`,
      headers: { ...bearer(key), 'content-type': 'video/mp4' },
      payload: Buffer.alloc(5 * 1024 * 1024),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toMatch(/MAX_UPLOAD_BYTES/);
    const empty = await t.app.inject({
      method: 'POST',
      url: `/api/ingest/videos?lineClearanceId=${lineId}`,
      headers: { ...bearer(key), 'content-type': 'video/mp4' },
      payload: Buffer.alloc(0),
    });
    expect(empty.statusCode).toBe(400);
    const unknownLine = await t.app.inject({
      method: 'POST',
      url: `/api/ingest/videos?lineClearanceId=${newId()}`,
      headers: { ...bearer(key), 'content-type': 'video/mp4' },
      payload: Buffer.from('x'),
    });
    expect(unknownLine.json().message).toBe(
      'querystring.lineClearanceId names an unknown line clearance',
    );
    expect(await t.services.ctx.db.select({ id: videos.id }).from(videos)).toHaveLength(
      before.length,
    );
    expect(fs.readdirSync(`${t.dataDir}/files/videos`)).toEqual(filesBefore);
  });
});

describe('posting analysis results', () => {
  let videoId: string;
  const url = () => `/api/ingest/videos/${videoId}/analysis`;
  const good = () => ({
    analysisVersion: 'external-slam 2.1',
    keyframes: '0 1.0 2.0 0.000 0.000.png\n1 1.5 2.0 0.500\n2 2.0 2.5 1.000 1.000.png\n',
    calibration: {
      slamPoints: [
        [0, 0],
        [10, 0],
        [0, 10],
      ],
      floorplanPoints: [
        [100, 100],
        [600, 100],
        [100, 600],
      ],
      forceAffine: true,
    },
    detector: { name: 'acme-yolo', version: '8.1', threshold: 0.4 },
    predictions: [
      {
        filename: '1.000.png',
        class_labels: ['tool'],
        confs: [0.9],
        boxes_normalized: [[0.1, 0.2, 0.3, 0.4]],
      },
    ],
    images: ['0.000.png', '1.000.png'].map((filename) => ({
      filename,
      data: PNG_1PX.toString('base64'),
    })),
  });

  beforeAll(async () => {
    ({ videoId } = await createRecordedInspection(t, {
      lineId,
      operatorId: people.operator.id,
      file: makeTestVideo(3, { dir: t.dataDir }),
    }));
  });

  it('reports garbage lines by number and writes nothing', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: url(),
      headers: bearer(key),
      payload: { ...good(), keyframes: '0 1 2 0\nnot a keyframe\n2 1 2 1\n3 x y z\n' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('body.keyframes has malformed lines: 2, 4');
    const [video] = await t.services.ctx.db.select().from(videos).where(eq(videos.id, videoId));
    expect(video).toMatchObject({ keyframesKey: null, status: 'pending', calibration: null });
    expect(fs.existsSync(`${t.dataDir}/files/ingest/${videoId}`)).toBe(false);
  });

  it('names each other bad part', async () => {
    const cases: [object, string][] = [
      [{ keyframes: '\n\n' }, 'body.keyframes holds no keyframe'],
      [
        { images: [], predictions: [] },
        'body.keyframes names the image 0.000.png, which body.images does not hold',
      ],
      [
        { images: [{ filename: '0.000.png', data: 'aGVsbG8=' }] },
        'body.images[0].data is not a base64 PNG image',
      ],
      [
        { predictions: [{ ...good().predictions[0], confs: [0.9, 0.8] }] },
        'body.predictions[0] must have as many class_labels, confs and boxes_normalized',
      ],
      [
        { predictions: [{ ...good().predictions[0], filename: '7.000.png' }] },
        'body.predictions[0].filename names no image of body.images',
      ],
    ];
    for (const [change, message] of cases) {
      const res = await t.app.inject({
        method: 'PUT',
        url: url(),
        headers: bearer(key),
        payload: { ...good(), ...change },
      });
      expect(res.json().message).toBe(message);
      expect(res.statusCode).toBe(400);
    }
  });

  it('replaces the results in one go; the video page reads them at once', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: url(),
      headers: bearer(key),
      payload: good(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ videoId, points: 3, images: 2, predictions: 1 });
    const auth = people.operator.auth;
    const text = await t.app.inject({ url: `/api/keyframes/${videoId}.txt`, headers: auth });
    expect(text.body).toBe(good().keyframes);
    const image = await t.app.inject({ url: `/api/keyframes/${videoId}/1.000.png`, headers: auth });
    expect(image.rawPayload.equals(PNG_1PX)).toBe(true);
    const predictions = await t.app.inject({ url: `/api/predictions/${videoId}`, headers: auth });
    expect(predictions.json()).toEqual([
      expect.objectContaining({
        filename: '1.000.png',
        subfolder: videoId,
        class_labels: ['tool'],
      }),
    ]);
    const config = await t.app.inject({ url: `/api/floorplan-configs/${videoId}`, headers: auth });
    expect(config.json().configuration).toMatchObject(good().calibration);
    const list = await t.app.inject({ url: '/api/videos', headers: auth });
    expect(list.json().find((v: { id: string }) => v.id === videoId)?.status).toBe('completed');
    // /analysis names what made the results.
    const queue: AnalysisRow[] = (
      await t.app.inject({ url: '/api/analysis', headers: auth })
    ).json();
    expect(queue.find((row) => row.videoId === videoId)).toMatchObject({
      videoStatus: 'completed',
      analysisVersion: 'external-slam 2.1',
    });
    const [entry] = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'analysis.ingest'));
    expect(entry).toMatchObject({
      entityId: videoId,
      actorId: keyId,
      actorEmail: 'service-account:External SLAM',
    });
  });

  it('refuses a body over the ingestion limit', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: url(),
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: `{"analysisVersion":"x","keyframes":"${'0'.repeat(257 * 1024 * 1024)}"}`,
    });
    expect(res.statusCode).toBe(413);
  }, 60_000);

  it('waits for an open job (409), and the admin re-run queues one (then 409 while it is open)', async () => {
    const rerun = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/analysis/videos/${videoId}/run`,
        headers: people.admin.auth,
      });
    await t.services.ctx.analysis.stop();
    expect((await rerun()).statusCode).toBe(202);
    expect((await rerun()).statusCode).toBe(409);
    const res = await t.app.inject({
      method: 'PUT',
      url: url(),
      headers: bearer(key),
      payload: good(),
    });
    expect(res.statusCode).toBe(409);
    const operator = await t.app.inject({
      method: 'POST',
      url: `/api/analysis/videos/${videoId}/run`,
      headers: people.operator.auth,
    });
    expect(operator.statusCode).toBe(403);
  });

  it('stops working once revoked', async () => {
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/service-accounts/${keyId}`,
      headers: people.admin.auth,
    });
    expect(revoke.statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'PUT',
      url: url(),
      headers: bearer(key),
      payload: good(),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid or revoked API key');
  });
});

describe('/api/analysis scope', () => {
  it('operators see their own videos, LC managers their lines’, admins all', async () => {
    const ids = async (who: keyof RoleUsers) =>
      (
        (
          await t.app.inject({ url: '/api/analysis', headers: people[who].auth })
        ).json() as AnalysisRow[]
      ).map((r) => r.videoId);
    const all = await ids('admin');
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(await ids('operator')).toEqual(all);
    expect(await ids('lc')).toEqual(all);
    expect(await ids('operator2')).toEqual([]);
    expect(await ids('lc2')).toEqual([]);
    expect(
      (await t.app.inject({ url: '/api/analysis', headers: people.audit.auth })).statusCode,
    ).toBe(403);
  });
});

async function inspectionWithCapture() {
  const inspectionId = newId();
  const { db } = t.services.ctx;
  await db.insert(inspections).values({
    id: inspectionId,
    lineClearanceId: lineId,
    operatorId: people.operator.id,
    startTime: new Date(),
    checklist: checklistFor(),
  });
  await db.insert(captures).values({ inspectionId, ...captureFor(walk) });
  return { inspectionId };
}
