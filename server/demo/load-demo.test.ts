// Loads the real demo dataset (server/demo/dataset.json + files/) and checks that every demo
// account logs in and sees exactly what its role allows, and that every video's media is served.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('every floor plan image is served', async () => {
    const plans = (await get('audit', '/api/floorplans')).json() as { imagePath: string }[];
    expect(plans).toHaveLength(dataset.floorplans.length);
    for (const plan of plans) {
      const image = await get('operator', plan.imagePath);
      expect(image.statusCode).toBe(200);
    }
  });
});
