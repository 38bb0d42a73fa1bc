// Loads the real demo dataset (server/demo/dataset.json + files/) and checks that every demo
// account logs in and sees exactly what its role allows, that every video's media is served and
// verified by its SHA-256, and that every demo e-signature comes after its recording.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspections, signatures, videos as videoTable } from '../db/schema.ts';
import type { InspectionReport } from '../schemas/reports.ts';
import { build, type TestApp } from '../test/build.ts';
import type { DemoDataset } from './dataset-types.ts';
import { DEMO_PASSWORD, loadDemo } from './load-demo.ts';

const datasetUrl = new URL('./dataset.json', import.meta.url);
const hasDataset = fs.existsSync(datasetUrl);
const dataset = (
  hasDataset ? JSON.parse(fs.readFileSync(datasetUrl, 'utf8')) : null
) as DemoDataset;

let t: TestApp;
const tokens = new Map<string, { authorization: string }>();

describe.runIf(hasDataset)('the demo dataset', () => {
  beforeAll(async () => {
    t = await build();
    await loadDemo(t.services.ctx, dataset, new URL('./files/', import.meta.url).pathname);
    for (const user of dataset.users) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password: DEMO_PASSWORD },
      });
      expect(res.statusCode, user.email).toBe(200);
      tokens.set(user.key, { authorization: `Bearer ${res.json().token}` });
    }
  });
  afterAll(() => t.close());

  const get = (key: string, url: string) => t.app.inject({ url, headers: tokens.get(key) });
  const lineOf = (key: string) => dataset.lineClearances.find((l) => l.key === key);
  /** The dataset's records a user may read (docs/permissions.md). */
  function visible<T extends { lineKey: string }>(
    user: DemoDataset['users'][number],
    records: T[],
    owner: (r: T) => string,
  ) {
    if (user.roles.some((r) => r === 'admin' || r === 'factory_manager' || r === 'audit'))
      return records;
    return records.filter(
      (r) =>
        (user.roles.includes('operator') && owner(r) === user.key) ||
        (user.roles.includes('lc_manager') && lineOf(r.lineKey)?.managerKey === user.key),
    );
  }

  it('every account gets its roles from GET /api/me', async () => {
    for (const user of dataset.users) {
      const me = await get(user.key, '/api/me');
      expect(me.json()).toMatchObject({ email: user.email, roles: user.roles });
    }
  });

  it('every account sees exactly the videos and inspections its role allows', async () => {
    for (const user of dataset.users) {
      const videos = (await get(user.key, '/api/videos')).json() as { filename: string }[];
      const expectedVideos = visible(user, dataset.videos, (v) => v.userKey).map((v) => v.filename);
      expect(videos.map((v) => v.filename).sort(), user.key).toEqual(expectedVideos.sort());
      const inspections = await get(user.key, '/api/inspections');
      const expectedInspections = visible(user, dataset.inspections, (i) => i.operatorKey);
      expect(inspections.json(), user.key).toHaveLength(expectedInspections.length);
    }
  });

  it('serves every video’s file, keyframes, predictions and keyframe images', async () => {
    const admin = 'admin';
    const videos = (await get(admin, '/api/videos')).json() as {
      _id: string;
      filename: string;
      lineClearanceId: string;
      path: { video: string; keyframesData: string };
    }[];
    for (const demo of dataset.videos) {
      const video = videos.find((v) => v.filename === demo.filename);
      if (!video) throw new Error(`missing ${demo.filename}`);
      const file = await t.app.inject({
        url: video.path.video,
        headers: { ...tokens.get(admin), range: 'bytes=0-15' },
      });
      expect(file.statusCode).toBe(206);
      const keyframes = await get(admin, video.path.keyframesData);
      expect(keyframes.body.trim().split('\n').length).toBeGreaterThan(1);
      const predictions = (await get(admin, `/api/predictions/${video._id}`)).json() as {
        filename: string;
        subfolder: string;
      }[];
      expect(predictions).toHaveLength(demo.predictions.length);
      const first = predictions[0];
      if (first) {
        const image = await get(admin, `/api/keyframes/${first.subfolder}/${first.filename}`);
        expect(image.headers['content-type'], first.filename).toBe('image/png');
      }
      const hasConfig = dataset.floorplanConfigs.some((c) => c.lineKey === demo.lineKey);
      const config = await get(admin, `/api/floorplan-configs/${video._id}`);
      expect(config.statusCode).toBe(hasConfig ? 200 : 404);
    }
  });

  it('every demo video is verified: its SHA-256 and size are those of the bytes served', async () => {
    const rows = await t.services.ctx.db.select().from(videoTable);
    const listed = (await get('admin', '/api/videos')).json() as {
      _id: string;
      path: { video: string };
    }[];
    expect(rows).toHaveLength(dataset.videos.length);
    for (const demo of dataset.videos) {
      const row = rows.find((r) => r.filename === demo.filename);
      const url = listed.find((v) => v._id === row?.id)?.path.video;
      if (!row || !url) throw new Error(`missing ${demo.filename}`);
      const served = await get('admin', url);
      expect(served.statusCode, demo.filename).toBe(200);
      const bytes = served.rawPayload;
      const onDisk = fs.readFileSync(new URL(`./files/${demo.file}`, import.meta.url));
      expect(bytes.equals(onDisk), demo.filename).toBe(true);
      expect(row.sha256, demo.filename).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(row.size, demo.filename).toBe(bytes.length);
    }
  });

  it('every demo e-signature comes after its recording ends, at the inspection’s reviewedAt', async () => {
    const db = t.services.ctx.db;
    const rows = await db.select().from(inspections);
    const signed = await db.select().from(signatures);
    const reviewed = dataset.inspections.filter((i) => i.status !== 'pending');
    expect(reviewed.length).toBeGreaterThan(0);
    expect(signed).toHaveLength(reviewed.length);
    for (const demo of dataset.inspections) {
      const row = rows.find((r) => r.startTime.toISOString() === demo.startTime);
      if (!row) throw new Error(`missing ${demo.key}`);
      const [signature] = await db
        .select()
        .from(signatures)
        .where(eq(signatures.inspectionId, row.id));
      if (demo.status === 'pending') {
        expect(signature, demo.key).toBeUndefined();
        expect(row.reviewedAt, demo.key).toBeNull();
        continue;
      }
      if (!signature) throw new Error(`${demo.key} is ${demo.status} but not signed`);
      const video = dataset.videos.find((v) => v.key === demo.videoKey);
      const recordingEnd = video
        ? Date.parse(video.timestamp) + video.duration * 1000
        : Date.parse(demo.startTime);
      expect(signature.signedAt.getTime(), demo.key).toBeGreaterThan(recordingEnd);
      expect(signature.meaning, demo.key).toBe(demo.status);
      expect(row.reviewedAt?.toISOString(), demo.key).toBe(signature.signedAt.toISOString());
      // The hash taken at load covers the stored signedAt and the video's SHA-256.
      const report = (await get('audit', `/api/reports/${row.id}`)).json() as InspectionReport;
      expect(report.signature?.signedAt, demo.key).toBe(signature.signedAt.toISOString());
      expect(report.video?.sha256, demo.key).toMatch(/^[0-9a-f]{64}$/);
      expect(report.unchangedSinceSigning, demo.key).toBe(true);
    }
  });

  it('every floor plan image is served', async () => {
    const plans = (await get('audit', '/api/floorplans')).json() as { imagePath: string }[];
    expect(plans).toHaveLength(dataset.floorplans.length);
    for (const plan of plans) {
      const image = await get('operator', plan.imagePath);
      expect(image.statusCode).toBe(200);
    }
  });
});
