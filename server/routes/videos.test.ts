import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videos } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { changes } from '../schemas/audit-changes.ts';
import { build, type TestApp } from '../test/build.ts';
import { KEYFRAMES_TEXT, loadFixture, PNG, VIDEO_BYTES } from '../test/demo-fixture.ts';

let t: TestApp;
let f: Awaited<ReturnType<typeof loadFixture>>;
type V = { _id: string; filename: string; lineClearanceId: string; userId: string };
let videoA: V;
let videoB: V;

beforeAll(async () => {
  t = await build();
  f = await loadFixture(t);
  const all: V[] = (await t.app.inject({ url: '/api/videos', headers: f.auth.admin })).json();
  videoA = all.find((v) => v.filename === 'video-a.mp4')!;
  videoB = all.find((v) => v.filename === 'video-b.mp4')!;
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = f.auth.admin) =>
  t.app.inject({ url, headers });
const ids = (res: { json(): unknown }) => (res.json() as V[]).map((v) => v.filename);

describe('GET /api/videos', () => {
  it('answers the spec §3 shape, newest first', async () => {
    const res = await get('/api/videos');
    expect(res.statusCode).toBe(200);
    expect(ids(res)).toEqual(['video-b.mp4', 'video-a.mp4']);
    const a = (res.json() as V[])[1];
    expect(a).toEqual({
      _id: videoA._id,
      id: videoA._id,
      filename: 'video-a.mp4',
      timestamp: '2026-11-03T08:15:00.000Z',
      userId: f.ids.operator,
      operatorId: f.ids.operator,
      deviceId: expect.stringMatching(/^[0-9a-f]{24}$/),
      lineClearanceId: videoA.lineClearanceId,
      path: { video: '/api/videos/video-a.mp4', keyframesData: `/api/keyframes/${videoA._id}.txt` },
      status: 'completed',
      size: 2000,
      fileSize: 2000,
      duration: 40,
      metadata: { device: 'Camera 1', location: 'Hall 1', duration: 40 },
      relatedData: { predictions: 3, reports: 1, floorplanConfigs: 1, floorplans: 1 },
    });
  });

  it('scopes: operators see their own, LC managers their lines', async () => {
    expect(ids(await get('/api/videos', f.auth.operator))).toEqual(['video-a.mp4']);
    expect(ids(await get('/api/videos', f.auth.lcmanager2))).toEqual(['video-b.mp4']);
    expect(ids(await get('/api/videos', f.auth.audit))).toHaveLength(2);
  });

  it('filters by date range, repeated userIds and lineIDs (both array styles)', async () => {
    const q = (query: string) => get(`/api/videos?${query}`);
    expect(ids(await q('startDate=2026-11-10T00:00:00.000Z'))).toEqual(['video-b.mp4']);
    expect(ids(await q('endDate=2026-11-10T00:00:00.000Z'))).toEqual(['video-a.mp4']);
    expect(ids(await q(`userIds=${f.ids.operator}&userIds=${f.ids.operator2}`))).toHaveLength(2);
    expect(ids(await q(`userIds[]=${f.ids.operator2}`))).toEqual(['video-b.mp4']);
    expect(ids(await q(`lineIDs=${videoA.lineClearanceId}`))).toEqual(['video-a.mp4']);
    expect(
      ids(await q(`lineIDs=${videoA.lineClearanceId}&startDate=2026-11-10T00:00:00.000Z`)),
    ).toEqual([]);
  });

  it('400 names the bad parameter', async () => {
    const date = await get('/api/videos?startDate=yesterday');
    expect(date.statusCode).toBe(400);
    expect(date.json().message).toMatch(/^query\.startDate\.0 /);
    const id = await get('/api/videos?userIds=bob');
    expect(id.json().message).toMatch(/^query\.userIds\.0 /);
  });
});

describe('GET /api/videos/{id or filename}', () => {
  it('answers JSON for an id, 404 for another operator’s video', async () => {
    const res = await get(`/api/videos/${videoA._id}`, f.auth.operator);
    expect(res.json()).toMatchObject({ id: videoA._id, filename: 'video-a.mp4' });
    expect((await get(`/api/videos/${videoB._id}`, f.auth.operator)).statusCode).toBe(404);
    expect((await get('/api/videos/video-b.mp4', f.auth.operator)).statusCode).toBe(404);
  });

  it('streams the file with ranges: full, bytes=0-, bytes=-500, a middle slice, past the end', async () => {
    const url = '/api/videos/video-a.mp4';
    const full = await get(url);
    expect(full.statusCode).toBe(200);
    expect(full.headers['accept-ranges']).toBe('bytes');
    expect(full.headers['content-type']).toBe('video/mp4');
    expect(full.rawPayload.equals(VIDEO_BYTES)).toBe(true);
    const ranged = async (range: string) =>
      t.app.inject({ url, headers: { ...f.auth.admin, range } });
    const open = await ranged('bytes=0-');
    expect(open.statusCode).toBe(206);
    expect(open.headers['content-range']).toBe('bytes 0-1999/2000');
    expect(open.rawPayload.equals(VIDEO_BYTES)).toBe(true);
    const suffix = await ranged('bytes=-500');
    expect(suffix.statusCode).toBe(206);
    expect(suffix.headers['content-range']).toBe('bytes 1500-1999/2000');
    expect(suffix.rawPayload.equals(VIDEO_BYTES.subarray(1500))).toBe(true);
    const middle = await ranged('bytes=100-199');
    expect(middle.headers['content-length']).toBe('100');
    expect(middle.rawPayload.equals(VIDEO_BYTES.subarray(100, 200))).toBe(true);
    const clipped = await ranged('bytes=1900-5000');
    expect(clipped.headers['content-range']).toBe('bytes 1900-1999/2000');
    const past = await ranged('bytes=2000-');
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */2000');
    expect((await ranged('bytes=-0')).statusCode).toBe(416);
  });

  it('accepts the media cookie on media routes only', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'operator@example.com', password: 'demo-password' },
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
    expect((await get('/api/videos/video-a.mp4', { cookie })).statusCode).toBe(200);
    expect((await get(`/api/keyframes/${videoA._id}.txt`, { cookie })).statusCode).toBe(200);
    expect((await get('/api/keyframes/frames-a/1.5.png', { cookie })).statusCode).toBe(200);
    expect((await get('/api/videos', { cookie })).statusCode).toBe(401);
    expect((await get('/api/users', { cookie })).statusCode).toBe(401);
    expect((await get('/api/videos/video-a.mp4', {})).statusCode).toBe(401);
  });
});

describe('keyframes, predictions, configuration by video', () => {
  it('serves the keyframes text and images', async () => {
    const text = await get(`/api/keyframes/${videoA._id}.txt`, f.auth.operator);
    expect(text.statusCode).toBe(200);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.body).toBe(KEYFRAMES_TEXT);
    const image = await get('/api/keyframes/frames-a/2.25.png', f.auth.operator);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(PNG)).toBe(true);
    expect((await get('/api/keyframes/frames-a/99.png')).statusCode).toBe(404);
    expect((await get('/api/keyframes/frames-b/1.5.png', f.auth.operator)).statusCode).toBe(404);
  });

  it('sorts predictions by numeric file name', async () => {
    const res = await get(`/api/predictions/${videoA._id}`, f.auth.lcmanager);
    expect(res.json().map((p: { filename: string }) => p.filename)).toEqual([
      '1.5.png',
      '2.25.png',
      '10.png',
    ]);
    expect(res.json()[0]).toMatchObject({
      subfolder: 'frames-a',
      class_labels: ['carton'],
      confs: [0.9],
      boxes_normalized: [[0.1, 0.1, 0.2, 0.2]],
    });
    expect((await get(`/api/predictions/${videoA._id}`, f.auth.lcmanager2)).statusCode).toBe(404);
  });

  it('answers the line’s configuration for a video, 404 when the line has none', async () => {
    const res = await get(`/api/floorplan-configs/${videoA._id}`, f.auth.operator);
    expect(res.statusCode).toBe(200);
    expect(res.json().configuration).toMatchObject({
      slamPoints: [
        [0, 0],
        [1, 0],
        [0, 1],
      ],
      forceAffine: false,
      floorplanImage: expect.stringMatching(/^\/api\/floorplans\/[0-9a-f]{24}\.png$/),
    });
    expect((await get(`/api/floorplan-configs/${videoB._id}`)).statusCode).toBe(404);
  });
});

describe('traversal probes never reach a file outside storage', () => {
  const probes = [
    '../../../../etc/passwd',
    '..%2f..%2f..%2fetc%2fpasswd',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '..\\..\\etc\\passwd',
    '%2e%2e%5c%2e%2e%5cetc%5cpasswd',
    'video-a.mp4%00.txt',
    '%00',
    '%2fetc%2fpasswd',
    '/etc/passwd',
    '.',
    '..',
    '.%2e',
  ];
  const templates = [
    (p: string) => `/api/videos/${p}`,
    (p: string) => `/api/keyframes/${p}`,
    (p: string) => `/api/keyframes/${p}/1.5.png`,
    (p: string) => `/api/keyframes/frames-a/${p}`,
    (p: string) => `/api/floorplans/${p}`,
  ];
  it('answers 4xx without file content', async () => {
    for (const template of templates) {
      for (const probe of probes) {
        const res = await get(template(probe));
        expect(res.statusCode, template(probe)).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, template(probe)).toBeLessThan(500);
        expect(res.body).not.toMatch(/root:|\x89PNG/);
      }
    }
  });
});

const REASON = 'Recorded on the wrong line by mistake';

describe('admin videos', () => {
  it('lists for admins only', async () => {
    expect(ids(await get('/api/admin/videos'))).toHaveLength(2);
    for (const key of ['factory', 'lcmanager', 'audit', 'operator'] as const) {
      expect((await get('/api/admin/videos', f.auth[key])).statusCode).toBe(403);
    }
  });

  it('adds signedEvidence to each video, documented in the OpenAPI schema', async () => {
    // The fixture's inspections are pending: no video is evidence of a signature yet.
    const admin = (await get('/api/admin/videos')).json() as Record<string, unknown>[];
    const plain = (await get('/api/videos')).json() as Record<string, unknown>[];
    expect(admin).toEqual(plain.map((video) => ({ ...video, signedEvidence: false })));
    // The other lists keep the spec's fields only.
    expect(plain[0]).not.toHaveProperty('signedEvidence');
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const schema =
      doc.paths['/api/admin/videos'].get.responses['200'].content['application/json'].schema.items;
    expect(schema.required).toContain('signedEvidence');
    expect(schema.properties.signedEvidence).toMatchObject({ type: 'boolean' });
    expect(schema.properties.signedEvidence.description).toMatch(/approved or rejected/);
  });

  it('deletes rows in one transaction, files after, and answers the summary', async () => {
    const forbidden = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/videos/${videoB._id}`,
      headers: f.auth.factory,
    });
    expect(forbidden.statusCode).toBe(403);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/videos/${videoB._id}`,
      headers: f.auth.admin,
      payload: { reason: REASON },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      deleted: {
        video: 1,
        predictions: 3,
        reports: 1,
        floorplanConfigs: 0,
        floorplans: 0,
        minio: { video: true, keyframesText: true, keyframesImages: 3, results: false },
      },
    });
    expect((await get('/api/videos/video-b.mp4')).statusCode).toBe(404);
    // The list was read (and cached) before: the delete must be visible at once.
    expect(ids(await get('/api/videos'))).toEqual(['video-a.mp4']);
    expect((await get('/api/keyframes/frames-b/1.5.png')).statusCode).toBe(404);
    const insp = (await get('/api/inspections')).json() as {
      videoId: string | null;
      lineClearanceId: string;
    }[];
    expect(insp.find((i) => i.lineClearanceId === videoB.lineClearanceId)?.videoId).toBeNull();
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/videos/${videoB._id}`,
      headers: f.auth.admin,
    });
    expect(again.statusCode).toBe(404);
  });

  it('needs a reason for the video of an inspection (400, nothing removed) and audits it', async () => {
    const del = (payload?: object) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/admin/videos/${videoA._id}`,
        headers: f.auth.admin,
        ...(payload ? { payload } : {}),
      });
    // The spec's call (no payload), a blank reason and one that says nothing are refused.
    for (const payload of [undefined, {}, { reason: ' \u200b ' }]) {
      const refused = await del(payload);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(
        'body.reason is required to delete the video of an inspection (at least 3 different words)',
      );
    }
    const vague = await del({ reason: 'not needed' });
    expect(vague.statusCode).toBe(400);
    expect(vague.json().message).toBe(
      'body.reason must say why the video is deleted (at least 3 different words)',
    );
    expect((await get('/api/videos/video-a.mp4')).statusCode).toBe(200);
    expect((await get('/api/keyframes/frames-a/1.5.png')).statusCode).toBe(200);

    const done = await del({ reason: `  ${REASON} ` });
    expect(done.statusCode).toBe(200);
    const trail = await get(`/api/audit-log?entity=video&entityId=${videoA._id}&action=delete`);
    expect(trail.json()).toEqual([
      expect.objectContaining({
        action: 'delete',
        reason: REASON,
        newValue: expect.objectContaining({ reason: REASON, video: 1, reports: 1 }),
      }),
    ]);
    // The reason is the entry's, not a changed field: /audit's old → new does not list it.
    const [entry] = trail.json();
    expect(changes(entry.oldValue, entry.newValue).map((change) => change.line)).not.toContainEqual(
      expect.stringMatching(/^reason/),
    );
  });

  it('deletes a video no inspection names without a reason (the spec’s call)', async () => {
    const id = newId();
    await t.services.ctx.db.insert(videos).values({
      id,
      filename: `${id}.mp4`,
      storageKey: `videos/${id}.mp4`,
      subfolder: id,
      timestamp: new Date(),
    });
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/videos/${id}`,
      headers: f.auth.admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deleted).toMatchObject({ video: 1, reports: 0 });
    const [entry] = (
      await get(`/api/audit-log?entity=video&entityId=${id}&action=delete`)
    ).json() as { reason: string | null }[];
    expect(entry?.reason).toBeNull();
    // The body is documented for clients that send the reason.
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const body = doc.paths['/api/admin/videos/{id}'].delete.requestBody;
    expect(body.content['application/json'].schema.properties.reason).toMatchObject({
      type: 'string',
      description: expect.stringMatching(/required for the video of an inspection/),
    });
  });
});
