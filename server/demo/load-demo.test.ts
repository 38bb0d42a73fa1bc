// Loads the real demo dataset (server/demo/dataset.json + files/) and checks that every demo
// account logs in and sees exactly what its role allows, that every video's media is served and
// verified by its SHA-256, that a submitted video whose file has not arrived is as the submit
// leaves it, that every demo e-signature comes after its recording, that each record's history in
// the trail is the product's (submit, capture, upload and verification, analysis, signature, dated
// when they happened, in time order), that the records are complete as captured ones are, and
// that the analysis runner takes the queued video and keeps the path of an analysed one it cannot
// place again.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINE_VERSION } from '../analysis/runner.ts';
import {
  analysisJobs,
  auditLog,
  captures,
  devices,
  floorplanConfigs,
  inspections,
  predictions as predictionTable,
  signatures,
  uploads,
  videos as videoTable,
} from '../db/schema.ts';
import { toSignature } from '../reports/record.ts';
import { reviewFields } from '../reports/signing.ts';
import type { AnalysisRow } from '../schemas/analysis.ts';
import type { AuditEntry } from '../schemas/audit-log.ts';
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
    // A video whose file has not arrived is named after its id, as the submit names it.
    const notArrived = new Map<string, string>();
    for (const demo of dataset.inspections.filter((i) => i.pendingUpload)) {
      const { video } = await rowsOf(demo.key);
      if (!video) throw new Error(`${demo.key} has no video row`);
      notArrived.set(demo.key, video.filename);
    }
    expect(notArrived.size).toBeGreaterThan(0);
    for (const user of dataset.users) {
      const videos = (await get(user.key, '/api/videos')).json() as { filename: string }[];
      const expectedVideos = [
        ...visible(user, dataset.videos, (v) => v.userKey).map((v) => v.filename),
        ...visible(user, dataset.inspections, (i) => i.operatorKey).flatMap(
          (i) => notArrived.get(i.key) ?? [],
        ),
      ];
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
      // A pending video's analysis is queued: no keyframes until the runner has made them.
      if (demo.status === 'pending') expect(keyframes.statusCode, demo.key).toBe(404);
      else expect(keyframes.body.trim().split('\n').length).toBeGreaterThan(1);
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

  it('every demo video file is verified: its SHA-256 and size are those of the bytes served', async () => {
    const rows = await t.services.ctx.db.select().from(videoTable);
    const listed = (await get('admin', '/api/videos')).json() as {
      _id: string;
      path: { video: string };
    }[];
    const notArrived = dataset.inspections.filter((i) => i.pendingUpload).length;
    expect(rows).toHaveLength(dataset.videos.length + notArrived);
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

  it('every demo record has its history in the trail: created, and signed by its signer', async () => {
    const db = t.services.ctx.db;
    const log = await db.select().from(auditLog).orderBy(auditLog.id);
    const entriesOf = (id: string | null) => log.filter((e) => id !== null && e.entityId === id);
    const signed = await db.select().from(signatures);
    for (const row of await db.select().from(inspections)) {
      const actions = entriesOf(row.id).map((e) => e.action);
      expect(actions[0], row.id).toBe('create');
      expect(entriesOf(row.videoId).map((e) => e.action)[0], row.id).toBe('create');
      const signature = signed.find((sig) => sig.inspectionId === row.id);
      if (!signature) continue;
      const signing = entriesOf(row.id).find(
        (e) => e.action === 'approve' || e.action === 'reject',
      );
      expect(signing, row.id).toMatchObject({
        action: signature.meaning === 'approved' ? 'approve' : 'reject',
        actorId: signature.signerId,
        actorEmail: signature.signerEmail,
        newValue: { signature: { recordHash: signature.recordHash, meaning: signature.meaning } },
      });
    }
    const verification = (await get('audit', '/api/audit-log/verify')).json();
    expect(verification).toMatchObject({ ok: true, firstBroken: null });
  });

  /** The record's history as an auditor reads it (`/audit?record=`), oldest first. */
  const historyOf = async (inspectionId: string) =>
    (
      (
        await get('audit', `/api/audit-log?record=${inspectionId}&limit=1000`)
      ).json() as AuditEntry[]
    )
      .slice()
      .reverse();
  /** The entries the load wrote: the trail up to its demo.load entry (later ones are the tests'). */
  async function loadedTrail() {
    const log = await t.services.ctx.db.select().from(auditLog).orderBy(auditLog.id);
    return log.slice(0, log.findIndex((e) => e.action === 'demo.load') + 1);
  }

  it('the demo trail is in time order: ids and times agree, one entry per step of each record', async () => {
    const trail = await loadedTrail();
    const waiting = dataset.inspections.filter((i) => i.pendingUpload).length;
    const captured = dataset.inspections.filter((i) => i.captureFile).length;
    const signedCount = dataset.inspections.filter((i) => i.status !== 'pending').length;
    // Per video with a file: create, upload.create, upload.complete, verify, and analysis.ingest
    // (results made outside) or analysis.enqueue (queued); per inspection its create, a capture's
    // attach, a signature's approve/reject; the waiting video's create; demo.load.
    expect(trail).toHaveLength(
      dataset.videos.length * 5 + waiting + dataset.inspections.length + captured + signedCount + 1,
    );
    for (const [i, entry] of trail.entries()) {
      const before = trail[i - 1];
      if (before)
        expect(entry.at.getTime(), `entry ${entry.id}`).toBeGreaterThanOrEqual(before.at.getTime());
    }
    // Each dated at its record's own time (November 2026), not at the load; the load's own entry last.
    const firstEnd = Math.min(...dataset.inspections.map((i) => Date.parse(i.endTime)));
    expect(trail[0]?.at.getTime()).toBe(firstEnd);
    expect(trail.at(-1)?.action).toBe('demo.load');
    expect((await get('audit', '/api/audit-log/verify')).json()).toMatchObject({
      ok: true,
      firstBroken: null,
    });
  });

  it('a signed record’s history is submitted pending, uploaded, verified, analysed, then signed at its signedAt', async () => {
    const reviewed = dataset.inspections.filter((i) => i.status !== 'pending');
    expect(reviewed.length).toBeGreaterThan(0);
    for (const demo of reviewed) {
      const { inspection, video } = await rowsOf(demo.key);
      if (!video) throw new Error(`${demo.key} has no video`);
      const [signature] = await db()
        .select()
        .from(signatures)
        .where(eq(signatures.inspectionId, inspection.id));
      if (!signature) throw new Error(`${demo.key} is not signed`);
      const [upload] = await db().select().from(uploads).where(eq(uploads.videoId, video.id));
      const operator = dataset.users.find((u) => u.key === demo.operatorKey)?.email;
      const history = await historyOf(inspection.id);
      expect(
        history.map((e) => [e.action, e.entity, e.actorEmail]),
        demo.key,
      ).toEqual([
        ['create', 'video', operator],
        ['create', 'inspection', operator],
        ['upload.create', 'upload', operator],
        ['upload.complete', 'upload', operator],
        ['verify', 'video', operator],
        ['analysis.ingest', 'video', 'admin@example.com'],
        [demo.status === 'approved' ? 'approve' : 'reject', 'inspection', signature.signerEmail],
      ]);
      const [createdVideo, created, , completed, verified, ingested, signing] = history;
      // The submit: the video without its file, the inspection pending with no review.
      expect(createdVideo?.newValue, demo.key).toMatchObject({
        id: video.id,
        status: 'pending',
        size: 0,
        sha256: null,
        note: 'file not uploaded yet',
      });
      expect(created?.newValue, demo.key).toMatchObject({
        _id: inspection.id,
        videoId: video.id,
        status: 'pending',
        reviewerId: null,
        reviewNotes: null,
        reviewedAt: null,
        signature: null,
      });
      expect(created?.at, demo.key).toBe(demo.endTime);
      // The file as the tus upload verified it, and the results as ingested.
      expect(completed?.newValue).toEqual({
        videoId: video.id,
        size: video.size,
        sha256: video.sha256,
      });
      expect(verified?.oldValue).toMatchObject({ sha256: null, size: 0 });
      expect(verified?.newValue).toEqual({
        sha256: video.sha256,
        size: video.size,
        storageKey: video.storageKey,
        upload: upload?.id,
      });
      expect(upload?.status).toBe('verified');
      expect(ingested?.newValue, demo.key).toMatchObject({
        analysisVersion: video.analysisVersion,
        predictions: dataset.videos.find((v) => v.key === demo.videoKey)?.predictions.length,
      });
      // Signed as signInspection signs: review fields before and after, the signature, its time.
      expect(signing?.at, demo.key).toBe(signature.signedAt.toISOString());
      expect(signing?.oldValue, demo.key).toEqual({
        status: 'pending',
        reviewerId: null,
        reviewNotes: null,
        reviewedAt: null,
      });
      expect(signing?.newValue, demo.key).toEqual({
        ...reviewFields(inspection),
        signature: toSignature(signature),
      });
      for (const entry of history) {
        expect(Date.parse(entry.at), `${demo.key} ${entry.action}`).toBeLessThanOrEqual(
          signature.signedAt.getTime(),
        );
      }
    }
  });

  it('the queued video’s record has its capture, its verification and its analysis queued with it', async () => {
    const { inspection, video } = await rowsOf(queuedDemo());
    if (!video) throw new Error('the queued demo inspection has no video');
    const history = await historyOf(inspection.id);
    expect(history.map((e) => e.action)).toEqual([
      'create',
      'create',
      'attach',
      'upload.create',
      'upload.complete',
      'verify',
      'analysis.enqueue',
    ]);
    const [job] = await db().select().from(analysisJobs).where(eq(analysisJobs.videoId, video.id));
    const [, , attached, , , verified, enqueued] = history;
    expect(attached).toMatchObject({ entity: 'capture', entityId: inspection.id });
    expect(attached?.newValue).toMatchObject({ motionSamples: expect.any(Number) });
    // Queued in the verify's transaction, as commitFile queues it: same time, the runner's shape.
    expect(enqueued?.at).toBe(verified?.at);
    expect(enqueued?.newValue).toEqual({
      jobId: job?.id,
      attempt: 0,
      requestedBy: inspection.operatorId,
      pipelineVersion: PIPELINE_VERSION,
      detector: job?.detector,
    });
  });

  it('every floor plan image is served', async () => {
    const plans = (await get('audit', '/api/floorplans')).json() as { imagePath: string }[];
    expect(plans).toHaveLength(dataset.floorplans.length);
    for (const plan of plans) {
      const image = await get('operator', plan.imagePath);
      expect(image.statusCode).toBe(200);
    }
  });
  const db = () => t.services.ctx.db;
  /** The demo inspection's row (found by its start time) and its video's row. */
  async function rowsOf(key: string) {
    const demo = dataset.inspections.find((i) => i.key === key);
    if (!demo) throw new Error(`no demo inspection ${key}`);
    const [inspection] = await db()
      .select()
      .from(inspections)
      .where(eq(inspections.startTime, new Date(demo.startTime)));
    if (!inspection) throw new Error(`missing ${key}`);
    const [video] = inspection.videoId
      ? await db().select().from(videoTable).where(eq(videoTable.id, inspection.videoId))
      : [];
    return { demo, inspection, video };
  }
  const reportOf = async (who: string, inspectionId: string) =>
    (await get(who, `/api/reports/${inspectionId}`)).json() as InspectionReport;
  const queuedDemo = () => {
    const video = dataset.videos.find((v) => v.status === 'pending');
    const inspection = dataset.inspections.find((i) => i.videoKey === video?.key);
    if (!video || !inspection) throw new Error('the demo has no queued video with an inspection');
    return inspection.key;
  };

  it('every inspection has its end, products, batches and checklist; analysed videos their version', async () => {
    for (const demo of dataset.inspections) {
      const { inspection, video } = await rowsOf(demo.key);
      const report = await reportOf('admin', inspection.id);
      expect(report, demo.key).toMatchObject({
        startTime: demo.startTime,
        endTime: demo.endTime,
        productLeaving: demo.productLeaving,
        batchLeaving: demo.batchLeaving,
        productComing: demo.productComing,
        batchComing: demo.batchComing,
      });
      // The line's tags and hot zones when it began, as capture snapshots them.
      const [config] = await db()
        .select()
        .from(floorplanConfigs)
        .where(eq(floorplanConfigs.lineClearanceId, inspection.lineClearanceId));
      expect(inspection.checklist, demo.key).toEqual({
        floorplanConfigId: config?.id,
        tags: config?.configuration.tags.map((tag, index) => ({ ...tag, index })),
        hotZones: config?.configuration.hotZones.map((zone, index) => ({ ...zone, index })),
      });
      const demoVideo = dataset.videos.find((v) => v.key === demo.videoKey);
      expect(report.video?.analysisVersion ?? null, demo.key).toBe(
        demoVideo?.analysisVersion ?? null,
      );
      if (demoVideo?.status !== 'completed' || !video) continue;
      expect(report.video?.analysisVersion, demo.key).toMatch(/\S+\/\d+/);
      expect(video).toMatchObject({ status: 'completed', statusReason: null });
      const made = await db()
        .select({ detector: predictionTable.detector })
        .from(predictionTable)
        .where(eq(predictionTable.videoId, video.id));
      expect(made.length, demo.key).toBe(demoVideo.predictions.length);
      for (const p of made) expect(p.detector).toEqual(demoVideo.detector);
    }
  });

  /** The demo inspection whose video the operator submitted but whose file has not arrived. */
  const notArrivedDemo = () => {
    const inspection = dataset.inspections.find((i) => i.pendingUpload);
    if (!inspection?.pendingUpload) throw new Error('the demo has no video waiting for its file');
    return { key: inspection.key, declared: inspection.pendingUpload };
  };
  const NOT_ARRIVED = 'No verified video: the file has not arrived from the operator’s device yet';

  it('insp-lc2-3’s video is as the submit left it: pending, no file, no SHA-256, not queued', async () => {
    const { key, declared } = notArrivedDemo();
    expect(key).toBe('insp-lc2-3');
    const { demo, inspection, video } = await rowsOf(key);
    expect(demo.operatorNotes).toMatch(/upload is waiting/);
    if (!video) throw new Error(`${key} has no video row`);
    const [device] = await db()
      .select()
      .from(devices)
      .where(eq(devices.id, video.deviceId ?? ''));
    expect(device?.name).toBe(dataset.devices.find((d) => d.key === declared.deviceKey)?.name);
    expect(video).toMatchObject({
      filename: `${video.id}.${declared.container}`,
      storageKey: `videos/${video.id}.${declared.container}`,
      subfolder: video.id,
      userId: inspection.operatorId,
      lineClearanceId: inspection.lineClearanceId,
      timestamp: inspection.startTime,
      status: 'pending',
      size: 0,
      sha256: null,
      duration: declared.duration,
      keyframesKey: null,
      keyframeImagesPrefix: null,
      analysisVersion: null,
      statusReason: null,
      calibration: null,
    });
    expect(inspection.endTime?.getTime()).toBe(
      inspection.startTime.getTime() + declared.duration * 1000,
    );
    expect(await t.services.ctx.storage.stat(video.storageKey)).toBeNull();
    // Nothing of the file has reached the server: no tus upload, no analysis job.
    expect(await db().select().from(uploads).where(eq(uploads.videoId, video.id))).toEqual([]);
    expect(
      await db().select().from(analysisJobs).where(eq(analysisJobs.videoId, video.id)),
    ).toEqual([]);
    // The submit's two audit entries, by the operator who submitted.
    const created = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'create'))
      .orderBy(auditLog.id);
    const operator = dataset.users.find((u) => u.key === demo.operatorKey);
    expect(
      created
        .filter((e) => e.entityId === video.id || e.entityId === inspection.id)
        .map((e) => [e.entity, e.actorId, e.actorEmail]),
    ).toEqual([
      ['video', inspection.operatorId, operator?.email],
      ['inspection', inspection.operatorId, operator?.email],
    ]);
    const videoEntry = created.find((e) => e.entityId === video.id);
    expect(videoEntry?.newValue).toMatchObject({
      id: video.id,
      status: 'pending',
      size: 0,
      sha256: null,
      note: 'file not uploaded yet',
    });
  });

  it('insp-lc2-3 is listed and reported as waiting for its file, never as unrecorded', async () => {
    const { key } = notArrivedDemo();
    const { inspection, video } = await rowsOf(key);
    if (!video) throw new Error(`${key} has no video row`);
    const manager = lineOf(dataset.inspections.find((i) => i.key === key)?.lineKey ?? '')
      ?.managerKey as string;
    const report = await reportOf(manager, inspection.id);
    expect(report.approvalBlocker).toBe(NOT_ARRIVED);
    expect(report.video).toMatchObject({ id: video.id, filename: video.filename, sha256: null });
    expect(report.flags.map((f) => f.text)).toContain(NOT_ARRIVED);
    const listed = (await get(manager, '/api/inspections')).json() as {
      _id: string;
      approvalBlocker: string | null;
    }[];
    expect(listed.find((i) => i._id === inspection.id)?.approvalBlocker).toBe(NOT_ARRIVED);
    const operator = dataset.inspections.find((i) => i.key === key)?.operatorKey as string;
    const mine = (await get(operator, '/api/my/inspections')).json() as {
      inspection: { _id: string };
      video: { _id: string; status: string; verified: boolean; size: number } | null;
    }[];
    expect(mine.find((m) => m.inspection._id === inspection.id)?.video).toMatchObject({
      _id: video.id,
      status: 'pending',
      verified: false,
      size: 0,
    });
    // Listed with the others; its file answers 404 until the upload verifies.
    const videos = (await get('admin', '/api/videos')).json() as {
      _id: string;
      status: string;
      path: { video: string };
    }[];
    const row = videos.find((v) => v._id === video.id);
    expect(row?.status).toBe('pending');
    expect((await get('admin', row?.path.video ?? '/api/videos/none')).statusCode).toBe(404);
    // Nothing to analyse yet: a re-run is refused rather than queued to fail.
    const rerun = await t.app.inject({
      method: 'POST',
      url: `/api/analysis/videos/${video.id}/run`,
      headers: tokens.get('admin'),
    });
    expect(rerun.statusCode).toBe(409);
    expect(rerun.json().message).toBe(
      'The video file has not arrived yet: the analysis starts when its upload finishes',
    );
  });

  it('the pending video is verified and queued through the job runner, its capture beside it', async () => {
    const { inspection, video } = await rowsOf(queuedDemo());
    if (!video) throw new Error('the queued demo inspection has no video');
    expect(video).toMatchObject({ status: 'pending', keyframesKey: null, analysisVersion: null });
    expect(video.sha256).toMatch(/^[0-9a-f]{64}$/);
    const jobs = await db().select().from(analysisJobs).where(eq(analysisJobs.videoId, video.id));
    expect(jobs).toMatchObject([
      { state: 'queued', attempts: 0, requestedBy: inspection.operatorId },
    ]);
    const rows = (await get('admin', '/api/analysis')).json() as AnalysisRow[];
    expect(rows.find((row) => row.videoId === video.id)?.job?.state).toBe('queued');
    const enqueued = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'analysis.enqueue'), eq(auditLog.entityId, video.id)));
    expect(enqueued).toHaveLength(1);
    // The scans name the snapshot's tags, as PUT /api/inspections/{id}/capture records them.
    const [capture] = await db()
      .select()
      .from(captures)
      .where(eq(captures.inspectionId, inspection.id));
    const codes = inspection.checklist?.tags.map((tag) => tag.qrCode) ?? [];
    expect(capture?.scans.length).toBeGreaterThan(2);
    for (const scan of capture?.scans ?? []) expect(scan.tagIndex).toBe(codes.indexOf(scan.code));
    expect(capture?.motion?.t.length).toBeGreaterThan(video.duration * 40);
  });

  it('the runner analyses the queued video from its QR scans and motion', async () => {
    const { inspection, video } = await rowsOf(queuedDemo());
    if (!video) throw new Error('the queued demo inspection has no video');
    const [job] = await db().select().from(analysisJobs).where(eq(analysisJobs.videoId, video.id));
    await t.services.ctx.analysis.start(t.services.ctx.dbKind);
    const done = await t.services.ctx.analysis.settled(job?.id ?? '');
    expect(done.state, done.error ?? '').toBe('completed');
    const [capture] = await db()
      .select()
      .from(captures)
      .where(eq(captures.inspectionId, inspection.id));
    expect(done.summary).toMatchObject({
      path: 'motion',
      pathNote: null,
      anchors: capture?.scans.length,
    });
    const report = await reportOf('lcmanager', inspection.id);
    expect(report.video?.analysisVersion).toBe(PIPELINE_VERSION);
    expect(report.pathMessage).toBeNull();
    expect(report.approvalBlocker).toBeNull();
    const byQr = report.checklist.tags.filter((tag) => tag.source === 'qr');
    expect(byQr.length).toBe(new Set(capture?.scans.map((scan) => scan.code)).size);
  }, 120_000);

  it('re-running an analysed video it cannot place again fails, keeping path and detections', async () => {
    const key = dataset.inspections.find(
      (i) =>
        i.status === 'pending' &&
        dataset.videos.find((v) => v.key === i.videoKey)?.status === 'completed',
    )?.key;
    const { inspection, video: before } = await rowsOf(key ?? '');
    if (!before?.keyframesKey) throw new Error(`${key} has no analysed video`);
    const reportBefore = await reportOf('admin', inspection.id);
    expect(reportBefore.pathMessage).toBeNull();
    const run = await t.app.inject({
      method: 'POST',
      url: `/api/analysis/videos/${before.id}/run`,
      headers: tokens.get('admin'),
    });
    expect(run.statusCode, run.body).toBe(202);
    // The analysed demo videos had no job before: this is the re-run's.
    const [job] = await db().select().from(analysisJobs).where(eq(analysisJobs.videoId, before.id));
    const done = await t.services.ctx.analysis.settled(job?.id ?? '');
    expect(done).toMatchObject({ state: 'failed', attempts: 1 });
    expect(done.error).toBe(
      'fewer than two scans of tags with a known floor-plan position (0): no path; this run ' +
        'replaced nothing: the video keeps its earlier path, keyframe images and detections',
    );
    const [after] = await db().select().from(videoTable).where(eq(videoTable.id, before.id));
    expect(after).toMatchObject({
      status: 'completed',
      statusReason: done.error,
      keyframesKey: before.keyframesKey,
      keyframeImagesPrefix: before.keyframeImagesPrefix,
      analysisVersion: before.analysisVersion,
    });
    expect(await t.services.ctx.storage.stat(before.keyframesKey)).not.toBeNull();
    const reportAfter = await reportOf('admin', inspection.id);
    expect(reportAfter.pathMessage).toBeNull();
    expect(reportAfter.approvalBlocker).toBeNull();
    expect(reportAfter.checklist).toEqual(reportBefore.checklist);
    expect(reportAfter.detections).toEqual(reportBefore.detections);
    expect(reportAfter.flags).toEqual(reportBefore.flags);
  }, 120_000);

  // Last: it adds an inspection, which the tests above would count.
  it('insp-lc2-3’s video row and audit entries are those a real submit of it writes', async () => {
    const { key, declared } = notArrivedDemo();
    const { demo, inspection, video } = await rowsOf(key);
    if (!video) throw new Error(`${key} has no video row`);
    const startTime = new Date(inspection.startTime.getTime() + 3_600_000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/inspections',
      headers: tokens.get(demo.operatorKey),
      payload: {
        clientRef: 'demo-mirror-0001',
        lineClearanceId: inspection.lineClearanceId,
        productLeaving: demo.productLeaving,
        batchLeaving: demo.batchLeaving,
        productComing: demo.productComing,
        batchComing: demo.batchComing,
        operatorNotes: demo.operatorNotes,
        startTime: startTime.toISOString(),
        endTime: new Date(startTime.getTime() + declared.duration * 1000).toISOString(),
        deviceId: video.deviceId,
        video: { container: declared.container, duration: declared.duration },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const submittedId = (res.json() as { videoId: string }).videoId;
    const [submitted] = await db().select().from(videoTable).where(eq(videoTable.id, submittedId));
    if (!submitted) throw new Error('the submit made no video row');
    /** The row with its id, creation time and start taken out. */
    const shape = (row: typeof video, start: Date) => ({
      ...row,
      id: 'ID',
      filename: row.filename.replace(row.id, 'ID'),
      storageKey: row.storageKey.replace(row.id, 'ID'),
      subfolder: row.subfolder.replace(row.id, 'ID'),
      timestamp: row.timestamp.getTime() - start.getTime(),
      createdAt: null,
    });
    expect(shape(video, inspection.startTime)).toEqual(shape(submitted, startTime));
    const entries = async (videoId: string) => {
      const [row] = await db().select().from(inspections).where(eq(inspections.videoId, videoId));
      const log = await db().select().from(auditLog).orderBy(auditLog.id);
      return log
        .filter((e) => e.entityId === videoId || e.entityId === row?.id)
        .map((e) => ({
          action: e.action,
          entity: e.entity,
          actorId: e.actorId,
          actorEmail: e.actorEmail,
          fields: Object.keys(e.newValue as object).sort(),
        }));
    };
    expect(await entries(video.id)).toEqual(await entries(submittedId));
  });

  // After the others: it signs a pending demo inspection.
  it('a demo signature’s entry has the shape of one signed through the API', async () => {
    const demo = dataset.inspections.find(
      (i) => i.status === 'pending' && i.videoKey && i.lineKey === 'bottling-line-2',
    );
    const rejected = dataset.inspections.find((i) => i.status === 'rejected');
    if (!demo || !rejected) throw new Error('the demo has no pending and rejected inspections');
    const { inspection } = await rowsOf(demo.key);
    const manager = lineOf(demo.lineKey)?.managerKey as string;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/inspections/${inspection.id}/reject`,
      headers: tokens.get(manager),
      payload: {
        userId: dataset.users.find((u) => u.key === manager)?.email,
        password: DEMO_PASSWORD,
        notes: 'Rear access not inspected: move the pallet and inspect it again.',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const signing = async (key: string) => {
      const { inspection: row } = await rowsOf(key);
      const entry = (await historyOf(row.id)).find((e) => e.action === 'reject');
      const [signature] = await db()
        .select()
        .from(signatures)
        .where(eq(signatures.inspectionId, row.id));
      return { entry, signedAt: signature?.signedAt.toISOString() };
    };
    const shape = (value: unknown) =>
      Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([key, v]) => [
          key,
          v && typeof v === 'object' ? Object.keys(v).sort() : typeof v,
        ]),
      );
    const real = await signing(demo.key);
    const loaded = await signing(rejected.key);
    expect(real.entry?.at).toBe(real.signedAt);
    expect(loaded.entry?.at).toBe(loaded.signedAt);
    expect(loaded.entry?.oldValue).toEqual(real.entry?.oldValue);
    expect(shape(loaded.entry?.newValue)).toEqual(shape(real.entry?.newValue));
  });
});
