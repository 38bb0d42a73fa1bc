// A signed (approved or rejected) inspection's evidence stays as it was signed: its video's
// analysis is not re-run, no results are ingested over it, a job queued before the signature does
// not overwrite it, and the video is not deleted. Each refusal is a 409 with the reason, audited.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateWalk } from '../../tests/support/simulated-walk.ts';
import { makeTestVideo } from '../../tests/support/test-video.ts';
import { analysisJobs, auditLog, inspections, predictions, videos } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { createLine, createRecordedInspection, jobsOf } from '../test/analysis-fixtures.ts';
import { build, type TestApp } from '../test/build.ts';
import { createRoleUsers, PASSWORD, type RoleUsers } from '../test/fixtures.ts';

let t: TestApp;
let people: RoleUsers;
let lineId: string;
let file: string;
let detectorServer: http.Server;
/** Detection requests wait for this: a test holds a job in its detections step with it. */
let gate: Promise<void> = Promise.resolve();
let detectorCalled: () => void = () => {};

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const WHEN = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC';
const evidenceOf = (meaning: string, consequence: string) =>
  new RegExp(
    `^The video is evidence of a signed inspection \\(${meaning} ${WHEN}\\); ${consequence}$`,
  );

beforeAll(async () => {
  detectorServer = http.createServer((request, response) => {
    request.resume();
    detectorCalled();
    void gate.then(() => {
      response.setHeader('content-type', 'application/json');
      response.end('{"detections":[{"label":"tool","confidence":0.9,"box":[0.1,0.1,0.2,0.2]}]}');
    });
  });
  await new Promise<void>((resolve) => detectorServer.listen(0, '127.0.0.1', resolve));
  const { port } = detectorServer.address() as AddressInfo;
  t = await build({
    DETECTOR: 'http',
    DETECTOR_URL: `http://127.0.0.1:${port}/detect`,
    ANALYSIS_POLL_MS: '100',
    ANALYSIS_RETRY_SECONDS: '0',
  });
  people = await createRoleUsers(t);
  lineId = await createLine(t, people.lc.id, people.operator.id);
  file = makeTestVideo(3, { dir: t.dataDir });
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => detectorServer?.close(resolve));
});

/** Results made elsewhere: a path through two keyframe images, one detection on the second. */
const IMAGES = ['0.000.png', '1.000.png'];
const results = (analysisVersion: string) => ({
  analysisVersion,
  keyframes: IMAGES.map((name, i) => `${i} ${1 + i} 2.0 ${name.slice(0, -4)} ${name}`).join('\n'),
  predictions: [
    {
      filename: IMAGES[1],
      class_labels: ['tool'],
      confs: [0.9],
      boxes_normalized: [[0.1, 0.2, 0.3, 0.4]],
    },
  ],
  images: IMAGES.map((filename) => ({ filename, data: PNG_1PX.toString('base64') })),
});

const putResults = (videoId: string, version = 'external-slam 2.1') =>
  t.app.inject({
    method: 'PUT',
    url: `/api/ingest/videos/${videoId}/analysis`,
    headers: people.admin.auth,
    payload: results(version),
  });

/**
 * A pending inspection whose verified video has been analysed (keyframes, images, a detection);
 * `scanned`: with the phone's QR scans, so that a re-run can place its path again and runs through.
 */
async function analysedInspection(scanned = false) {
  const recorded = await createRecordedInspection(t, {
    lineId,
    operatorId: people.operator.id,
    file,
    walk: scanned ? simulateWalk() : null,
    motion: false,
  });
  expect((await putResults(recorded.videoId)).statusCode).toBe(200);
  // Verified: the SHA-256 of the stored file, which signing hashes again (docs/signatures.md).
  await t.services.ctx.db
    .update(videos)
    .set({ sha256: createHash('sha256').update(fs.readFileSync(file)).digest('hex') })
    .where(eq(videos.id, recorded.videoId));
  return recorded;
}

/** The e-signature, as the LC manager of the line gives it. */
async function sign(inspectionId: string, verb: 'approve' | 'reject') {
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/api/inspections/${inspectionId}/${verb}`,
    headers: people.lc.auth,
    payload: {
      notes: 'Walked the line myself: the tool on the feeder was removed',
      userId: people.lc.email,
      password: PASSWORD,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** What the signature covers and the evidence beside it: the video's results and their files. */
async function evidence(videoId: string) {
  const { db } = t.services.ctx;
  const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
  const detections = await db
    .select({ id: predictions.id })
    .from(predictions)
    .where(eq(predictions.videoId, videoId));
  return {
    sha256: video?.sha256,
    analysisVersion: video?.analysisVersion,
    keyframesKey: video?.keyframesKey,
    keyframeImagesPrefix: video?.keyframeImagesPrefix,
    calibration: video?.calibration,
    predictions: detections.map((p) => p.id).sort(),
    keyframesFile: fs.existsSync(`${t.dataDir}/files/${video?.keyframesKey}`),
    images: fs.readdirSync(`${t.dataDir}/files/${video?.keyframeImagesPrefix}`).sort(),
  };
}

async function unchangedSinceSigning(inspectionId: string) {
  const res = await t.app.inject({ url: `/api/reports/${inspectionId}`, headers: people.lc.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().unchangedSinceSigning;
}

/** The refusals filed in the record's history (under its inspection or video): who, what, why. */
async function refusals(inspectionId: string) {
  const res = await t.app.inject({
    url: `/api/audit-log?record=${inspectionId}&action=evidence.protected`,
    headers: people.admin.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { actorId: string; entity: string; newValue: unknown }[]).map((row) => ({
    actorId: row.actorId,
    entity: row.entity,
    newValue: row.newValue,
  }));
}

/**
 * Signs an analysed inspection, sends `request` for its video and checks the refusal: 409 with
 * the reason, audited on `route`, and the evidence and the record as they were signed.
 */
async function refusedOnceSigned(
  verb: 'approve' | 'reject',
  route: string,
  consequence: string,
  request: (videoId: string) => Promise<{ statusCode: number; json(): { message: string } }>,
) {
  const { videoId, inspectionId } = await analysedInspection();
  await sign(inspectionId, verb);
  const before = await evidence(videoId);
  const res = await request(videoId);
  expect(res.statusCode).toBe(409);
  const { message } = res.json();
  expect(message).toMatch(evidenceOf(verb === 'approve' ? 'approved' : 'rejected', consequence));
  expect(await evidence(videoId)).toEqual(before);
  const [video] = await t.services.ctx.db.select().from(videos).where(eq(videos.id, videoId));
  expect(video?.status).toBe('completed');
  expect(await unchangedSinceSigning(inspectionId)).toBe(true);
  expect(await refusals(inspectionId)).toContainEqual({
    actorId: people.admin.id,
    entity: 'video',
    newValue: { reason: message, route, params: { id: videoId } },
  });
  return { videoId, inspectionId, video };
}

describe('the admin re-run', () => {
  const rerun = (videoId: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/analysis/videos/${videoId}/run`,
      headers: people.admin.auth,
    });

  it('is refused for an approved inspection’s video (409, audited); its record is unchanged', async () => {
    const { videoId } = await refusedOnceSigned(
      'approve',
      'POST /api/analysis/videos/:id/run',
      'its analysis cannot be re-run',
      rerun,
    );
    expect(await jobsOf(t, videoId)).toEqual([]);
    // /analysis says so, and offers no re-run of it.
    const rows = (
      await t.app.inject({ url: '/api/analysis?limit=200', headers: people.admin.auth })
    ).json() as { videoId: string; signed: boolean }[];
    expect(rows.find((row) => row.videoId === videoId)?.signed).toBe(true);
  });

  it('still queues the video of a pending inspection', async () => {
    const { videoId } = await analysedInspection();
    const rows = (
      await t.app.inject({ url: '/api/analysis?limit=200', headers: people.admin.auth })
    ).json() as { videoId: string; signed: boolean }[];
    expect(rows.find((row) => row.videoId === videoId)?.signed).toBe(false);
    expect((await rerun(videoId)).statusCode).toBe(202);
    // Not run here (the runner starts below): the job would only wait.
    await t.services.ctx.db.delete(analysisJobs).where(eq(analysisJobs.videoId, videoId));
  });
});

describe('the ingestion API', () => {
  it('refuses results for a rejected inspection’s video (409, audited) and writes nothing', async () => {
    let ingested: string[] = [];
    const { videoId } = await refusedOnceSigned(
      'reject',
      'PUT /api/ingest/videos/:id/analysis',
      'its analysis results cannot be replaced',
      (id) => {
        ingested = fs.readdirSync(`${t.dataDir}/files/ingest/${id}`);
        return putResults(id, 'external-slam 3.0');
      },
    );
    expect(fs.readdirSync(`${t.dataDir}/files/ingest/${videoId}`)).toEqual(ingested);
  });

  it('attaches no recording to a signed inspection (409, audited)', async () => {
    // Rejected with nothing recorded, as a signer may: a video linked later would change the record.
    const inspectionId = newId();
    await t.services.ctx.db.insert(inspections).values({
      id: inspectionId,
      lineClearanceId: lineId,
      operatorId: people.operator.id,
      startTime: new Date('2026-11-20T08:00:00Z'),
    });
    await sign(inspectionId, 'reject');
    const count = async () =>
      (await t.services.ctx.db.select({ id: videos.id }).from(videos)).length;
    const before = await count();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/ingest/videos?lineClearanceId=${lineId}&inspectionId=${inspectionId}`,
      headers: { ...people.admin.auth, 'content-type': 'video/mp4' },
      payload: fs.readFileSync(file),
    });
    expect(res.statusCode).toBe(409);
    const message = res.json().message;
    expect(message).toMatch(
      new RegExp(
        `^The inspection is signed \\(rejected ${WHEN}\\); no video can be attached to it$`,
      ),
    );
    expect(await count()).toBe(before);
    expect(await unchangedSinceSigning(inspectionId)).toBe(true);
    expect(await refusals(inspectionId)).toContainEqual({
      actorId: people.admin.id,
      entity: 'inspection',
      newValue: { reason: message, route: 'POST /api/ingest/videos', params: {} },
    });
  });
});

describe('deleting a video', () => {
  const remove = (videoId: string) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/admin/videos/${videoId}`,
      headers: people.admin.auth,
      payload: { reason: 'Recorded on the wrong line by mistake' },
    });

  it('is refused for an approved inspection’s video (409, audited); record and files stay', async () => {
    const { videoId, inspectionId, video } = await refusedOnceSigned(
      'approve',
      'DELETE /api/admin/videos/:id',
      'it cannot be deleted',
      remove,
    );
    expect(fs.existsSync(`${t.dataDir}/files/${video?.storageKey}`)).toBe(true);
    const [inspection] = await t.services.ctx.db
      .select()
      .from(inspections)
      .where(eq(inspections.id, inspectionId));
    expect(inspection?.videoId).toBe(videoId);
  });

  it('is marked as signedEvidence in the admin’s list by the guard’s own rule', async () => {
    const listed = async () => {
      const res = await t.app.inject({ url: '/api/admin/videos', headers: people.admin.auth });
      expect(res.statusCode).toBe(200);
      const list = res.json() as { id: string; signedEvidence: boolean }[];
      return new Map(list.map((video) => [video.id, video.signedEvidence]));
    };
    const approved = await analysedInspection();
    const rejected = await analysedInspection();
    const open = await analysedInspection();
    // Reviewed before signatures were kept: not pending, no signature row. The guard refuses it.
    const legacy = await analysedInspection();
    await t.services.ctx.db
      .update(inspections)
      .set({ status: 'approved', reviewedAt: new Date('2026-11-26T14:03:00Z') })
      .where(eq(inspections.id, legacy.inspectionId));
    const before = await listed();
    for (const { videoId } of [approved, rejected, open]) expect(before.get(videoId)).toBe(false);
    expect(before.get(legacy.videoId)).toBe(true);

    await sign(approved.inspectionId, 'approve');
    await sign(rejected.inspectionId, 'reject');
    const after = await listed();
    expect(after.get(approved.videoId)).toBe(true);
    expect(after.get(rejected.videoId)).toBe(true);
    expect(after.get(open.videoId)).toBe(false);
    // What the list says is what the delete does.
    const refused = await remove(legacy.videoId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(evidenceOf('approved', 'it cannot be deleted'));
    expect((await remove(open.videoId)).statusCode).toBe(200);
  });

  it('still deletes a pending inspection’s video, unlinking the inspection', async () => {
    const { videoId, inspectionId } = await analysedInspection();
    expect((await remove(videoId)).statusCode).toBe(200);
    const [inspection] = await t.services.ctx.db
      .select()
      .from(inspections)
      .where(eq(inspections.id, inspectionId));
    expect(inspection?.videoId).toBeNull();
  });
});

describe('the job runner', () => {
  // Each test follows the job enqueue answers: once the runner runs, a lookup of open jobs may
  // come after the job failed.
  const enqueue = async (videoId: string) => {
    const job = await t.services.ctx.analysis.enqueue(videoId, people.admin.id);
    if (!job) throw new Error('a job for the video was already open');
    return job;
  };

  it('fails a job queued before the signature, with the reason, and keeps the evidence', async () => {
    const { videoId, inspectionId } = await analysedInspection();
    const queued = await enqueue(videoId);
    // Rejecting needs no finished analysis: the job is still waiting when the record is signed.
    await sign(inspectionId, 'reject');
    const before = await evidence(videoId);
    await t.services.ctx.analysis.start(t.services.ctx.dbKind);
    const done = await t.services.ctx.analysis.settled(queued.id);
    expect(done.state).toBe('failed');
    expect(done.attempts).toBe(1);
    expect(done.error).toMatch(
      evidenceOf('rejected', 'its analysis cannot be re-run; this job changed nothing'),
    );
    expect(await evidence(videoId)).toEqual(before);
    const [video] = await t.services.ctx.db.select().from(videos).where(eq(videos.id, videoId));
    // Its earlier results stand: the video is not put in error.
    expect(video?.status).toBe('completed');
    expect(await unchangedSinceSigning(inspectionId)).toBe(true);
    const failed = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'analysis.fail'), eq(auditLog.entityId, videoId)));
    expect(failed.map((row) => (row.newValue as { reason: string }).reason)).toEqual([done.error]);
  });

  it('does not commit a run whose inspection was signed while it ran', async () => {
    const { videoId, inspectionId } = await analysedInspection(true);
    let release: () => void = () => {};
    gate = new Promise((resolve) => {
      release = resolve;
    });
    const detecting = new Promise<void>((resolve) => {
      detectorCalled = resolve;
    });
    try {
      const running = await enqueue(videoId);
      // The pipeline is past its start and in the detections step: sign now.
      await detecting;
      await sign(inspectionId, 'reject');
      const before = await evidence(videoId);
      release();
      const done = await t.services.ctx.analysis.settled(running.id);
      expect(done.state).toBe('failed');
      expect(done.error).toMatch(
        evidenceOf('rejected', 'its analysis cannot be re-run; this job changed nothing'),
      );
      expect(await evidence(videoId)).toEqual(before);
      // The run's own files went with it.
      const runs = `${t.dataDir}/files/analysis/${videoId}`;
      const left = fs.existsSync(runs)
        ? fs.readdirSync(runs, { recursive: true, withFileTypes: true }).filter((f) => f.isFile())
        : [];
      expect(left).toEqual([]);
      expect(await unchangedSinceSigning(inspectionId)).toBe(true);
    } finally {
      release();
      gate = Promise.resolve();
      detectorCalled = () => {};
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'hashes what is committed: a signature waits for a change of the evidence in flight (PostgreSQL)',
    async () => {
      const { inspectionId, videoId } = await analysedInspection();
      const { db } = t.services.ctx;
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let changed = () => {};
      const inFlight = new Promise<void>((resolve) => {
        changed = resolve;
      });
      // A writer of the evidence as an analysis commits it: the inspection locked, results changed.
      const writer = db.transaction(async (tx) => {
        await tx
          .select({ id: inspections.id })
          .from(inspections)
          .where(eq(inspections.id, inspectionId))
          .for('update');
        await tx.update(videos).set({ analysisVersion: 'rerun-2' }).where(eq(videos.id, videoId));
        changed();
        await held;
      });
      await inFlight;
      const signing = sign(inspectionId, 'reject');
      // Once the signature waits on a lock (the writer's), the writer commits.
      const waiting = async () => {
        const { rows } = (await db.execute(
          sql`select count(*)::int as n from pg_locks where not granted`,
        )) as unknown as { rows: { n: number }[] };
        return rows[0]?.n ?? 0;
      };
      await expect.poll(waiting).toBeGreaterThan(0);
      release();
      await writer;
      await signing;
      expect(await unchangedSinceSigning(inspectionId)).toBe(true);
    },
  );
});
