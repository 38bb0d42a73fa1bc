// The analysis pipeline end to end in one process (PGlite by default, PostgreSQL with
// TEST_DATABASE_URL): jobs, steps, outputs, failures, reruns and the audit trail.
import fs from 'node:fs';
import path from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateWalk } from '../../tests/support/simulated-walk.ts';
import { makeTestVideo } from '../../tests/support/test-video.ts';
import {
  analysisJobs,
  auditLog,
  dispositions,
  predictions,
  reportSummaries,
  videos,
} from '../db/schema.ts';
import { newId } from '../ids.ts';
import { createLine, createRecordedInspection, jobsOf } from '../test/analysis-fixtures.ts';
import { build, type TestApp } from '../test/build.ts';
import { createRoleUsers, type RoleUsers } from '../test/fixtures.ts';
import { replaceResults } from './outputs.ts';
import { PIPELINE_VERSION } from './runner.ts';

let t: TestApp;
let people: RoleUsers;
let lineId: string;
let video80: string;
const walk = simulateWalk({ seed: 3 });

beforeAll(async () => {
  t = await build({
    ANALYSIS_RETRY_SECONDS: '0',
    ANALYSIS_POLL_MS: '100',
    ANALYSIS_MAX_ATTEMPTS: '2',
  });
  people = await createRoleUsers(t);
  lineId = await createLine(t, people.lc.id, people.operator.id);
  video80 = makeTestVideo(walk.duration, { dir: t.dataDir });
  await t.services.ctx.analysis.start(t.services.ctx.dbKind);
});
afterAll(() => t?.close());

const videoRow = async (videoId: string) =>
  (await t.services.ctx.db.select().from(videos).where(eq(videos.id, videoId)))[0];

async function analyse(videoId: string) {
  // The job as queued: the running runner may finish it before a lookup of open jobs.
  const job = await t.services.ctx.analysis.enqueue(videoId, people.operator.id);
  if (!job) throw new Error('a job for the video was already open');
  return t.services.ctx.analysis.settled(job.id);
}

describe('the analysis of a recorded inspection', () => {
  let videoId: string;
  let keyframes: string;

  it('completes: keyframe images, the anchored path, the calibration, no detections', async () => {
    let inspectionId: string;
    ({ videoId, inspectionId } = await createRecordedInspection(t, {
      lineId,
      operatorId: people.operator.id,
      file: video80,
      walk,
    }));
    const job = await analyse(videoId);
    expect(job.state, job.error ?? '').toBe('completed');
    expect(job.summary).toMatchObject({
      path: 'motion',
      anchors: walk.scans.length,
      predictions: null,
      detectorNote: expect.stringContaining('no detector'),
      width: 320,
      height: 180,
    });
    const video = await videoRow(videoId);
    expect(video).toMatchObject({
      status: 'completed',
      statusReason: null,
      analysisVersion: PIPELINE_VERSION,
    });
    expect(video?.duration).toBeCloseTo(walk.duration, 0);
    expect(video?.calibration?.slamPoints).toHaveLength(4);

    const text = await t.app.inject({
      url: `/api/keyframes/${videoId}.txt`,
      headers: people.operator.auth,
    });
    expect(text.statusCode).toBe(200);
    keyframes = text.body;
    const lines = keyframes.trim().split('\n');
    expect(lines.length).toBeGreaterThan(walk.duration * 10);
    const named = lines.filter((line) => line.endsWith('.png'));
    expect(named.length).toBe(job.summary?.keyframeImages);
    // One image a second, plus one at each scan (the first frame at or after it; 10 fps).
    const imageTimes = named.map((line) => Number(line.split(' ')[3]));
    for (let second = 0; second < walk.duration; second++) {
      expect(imageTimes).toContainEqual(second);
    }
    for (const scan of walk.scans) {
      expect(imageTimes.some((time) => time >= scan.videoTime && time < scan.videoTime + 0.1)).toBe(
        true,
      );
    }
    const first = named[0]?.split(' ').at(-1) ?? '';
    const image = await t.app.inject({
      url: `/api/keyframes/${videoId}/${first}`,
      headers: people.operator.auth,
    });
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG');

    // The path passes each scanned tag at its scan time (within the 3-decimal text).
    for (const anchor of walk.anchors) {
      const line = lines.find((l) => Math.abs(Number(l.split(' ')[3]) - anchor.t) < 0.06);
      const [, x, y] = (line ?? '').split(' ').map(Number);
      expect(Math.hypot((x ?? 0) - anchor.x, (y ?? 0) - anchor.y)).toBeLessThan(0.2);
    }

    const config = await t.app.inject({
      url: `/api/floorplan-configs/${videoId}`,
      headers: people.operator.auth,
    });
    expect(config.json().configuration).toMatchObject({
      slamPoints: video?.calibration?.slamPoints,
      floorplanPoints: video?.calibration?.floorplanPoints,
      forceAffine: true,
      yAxisFlip: false,
    });

    // The inspection's report summary (what /reports filters by) follows the new results.
    const [summary] = await t.services.ctx.db
      .select()
      .from(reportSummaries)
      .where(eq(reportSummaries.inspectionId, inspectionId));
    expect(summary?.tagsTotal).toBe(walk.scans.length);
    expect(summary?.tagsScanned).toBe(walk.scans.length);
  });

  it('records every run in the audit log with the pipeline version and the detector', async () => {
    const entries = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'video'), eq(auditLog.entityId, videoId)));
    const actions = entries.map((e) => e.action);
    expect(actions).toEqual(['analysis.enqueue', 'analysis.start', 'analysis.complete']);
    for (const entry of entries) {
      expect(entry.newValue).toMatchObject({
        pipelineVersion: PIPELINE_VERSION,
        detector: { name: 'none', version: '', threshold: 0 },
      });
    }
    // The file's probed length replaced the recorded one (none here): old → new, as any change.
    const complete = entries.at(-1);
    expect(complete?.oldValue).toEqual({ duration: 0 });
    expect((complete?.newValue as { duration?: number } | undefined)?.duration).toBeCloseTo(
      walk.duration,
      0,
    );
  });

  it('reruns to the same outputs, replacing the old files', async () => {
    const before = await videoRow(videoId);
    const job = await analyse(videoId);
    expect(job.state).toBe('completed');
    const after = await videoRow(videoId);
    expect(after?.keyframesKey).not.toBe(before?.keyframesKey);
    // The same length again: no change of it is recorded.
    const [complete] = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'analysis.complete'), eq(auditLog.entityId, videoId)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(complete?.oldValue).toBeNull();
    expect(complete?.newValue).not.toHaveProperty('duration');
    const text = await t.app.inject({
      url: `/api/keyframes/${videoId}.txt`,
      headers: people.operator.auth,
    });
    expect(text.body).toBe(keyframes);
    const { storage } = t.services.ctx;
    expect(await storage.stat(before?.keyframesKey ?? '')).toBeNull();
    expect(fs.existsSync(path.join(t.dataDir, 'files', before?.keyframeImagesPrefix ?? 'x'))).toBe(
      false,
    );
  });

  it('queues one job per video however often it is asked', async () => {
    const { videoId: id } = await createRecordedInspection(t, {
      lineId,
      operatorId: people.operator.id,
      file: video80,
      walk,
      motion: false,
    });
    await Promise.all([
      t.services.ctx.analysis.enqueue(id, null),
      t.services.ctx.analysis.enqueue(id, null),
      t.services.ctx.analysis.enqueue(id, null),
    ]);
    const open = (await jobsOf(t, id)).filter((j) => j.state === 'queued' || j.state === 'running');
    expect(open.length).toBeLessThanOrEqual(1);
    const [job] = await jobsOf(t, id);
    const done = await t.services.ctx.analysis.settled(job?.id ?? '');
    expect(done.summary).toMatchObject({
      path: 'interpolated',
      pathNote: 'no motion samples were recorded',
    });
    expect(await jobsOf(t, id)).toHaveLength(1);
  });

  it('without two anchors: completed with keyframe images, no path, and the reason', async () => {
    const { videoId: id, inspectionId } = await createRecordedInspection(t, {
      lineId,
      operatorId: people.operator.id,
      file: video80,
      walk: { scans: walk.scans.slice(0, 1), motion: walk.motion },
    });
    const job = await analyse(id);
    expect(job.state).toBe('completed');
    expect(job.summary?.path).toBe('none');
    const video = await videoRow(id);
    const reason = 'fewer than two scans of tags with a known floor-plan position (1): no path';
    expect(video?.statusReason).toBe(reason);
    // The row names only files the run wrote: no keyframes text, and its images, every one stored.
    expect(video?.keyframesKey).toBeNull();
    expect(video?.keyframeImagesPrefix).toMatch(/^analysis\//);
    const images = fs.readdirSync(path.join(t.dataDir, 'files', video?.keyframeImagesPrefix ?? ''));
    expect(images).toHaveLength(job.summary?.keyframeImages ?? -1);
    expect(images).toContain('0.000.png');

    // The report says why in a reviewer's words and carries the analysis's own reason (for a
    // verified file: the fixture's row has no SHA-256, which reads as a file not yet arrived).
    await t.services.ctx.db
      .update(videos)
      .set({ sha256: 'a'.repeat(64) })
      .where(eq(videos.id, id));
    const report = await t.app.inject({
      url: `/api/reports/${inspectionId}`,
      headers: people.operator.auth,
    });
    expect(report.json()).toMatchObject({
      pathMessage:
        'No path: the analysis found fewer than two scans of tags with a known floor-plan position (1).',
      pathMissingReason: reason,
    });
    // The video page's keyframes request says the same beside its 404.
    const keyframes = await t.app.inject({
      url: `/api/keyframes/${id}.txt`,
      headers: people.operator.auth,
    });
    expect(keyframes.statusCode).toBe(404);
    expect(keyframes.json().message).toBe(
      'Keyframes file not found. No path: the analysis found fewer than two scans of tags with a known floor-plan position (1).',
    );
  });

  it('says in plain words why the motion samples were not used', async () => {
    // One sample of each column, as a phone that sent a single motion event.
    const first = (column: ArrayLike<number>) => Array.from(column).slice(0, 1);
    const m = walk.motion;
    const one = {
      t: first(m.t),
      ax: first(m.ax),
      ay: first(m.ay),
      az: first(m.az),
      alpha: first(m.alpha),
      beta: first(m.beta),
      gamma: first(m.gamma),
    };
    const { videoId: id } = await createRecordedInspection(t, {
      lineId,
      operatorId: people.operator.id,
      file: video80,
      walk: { scans: walk.scans, motion: one },
    });
    const job = await analyse(id);
    expect(job.summary).toMatchObject({
      path: 'interpolated',
      pathNote:
        'motion samples not used: the phone recorded only 1, and counting steps needs at least 2',
    });
  });
});

describe('a re-run over decided detections', () => {
  it('keeps a decision whose detection it no longer finds, and its entry names it', async () => {
    const { videoId, inspectionId } = await createRecordedInspection(t, {
      lineId,
      operatorId: people.operator.id,
      file: video80,
      walk,
    });
    // A detection of earlier results, confirmed as a finding by the line's manager.
    const { db } = t.services.ctx;
    const predictionId = newId();
    await db.insert(predictions).values({
      id: predictionId,
      videoId,
      filename: '12.000.png',
      subfolder: videoId,
      classLabels: ['tool'],
      confs: [0.9],
      boxesNormalized: [[0.1, 0.2, 0.3, 0.4]],
    });
    await db.insert(dispositions).values({
      inspectionId,
      predictionId,
      disposition: 'confirmed',
      reviewerId: people.lc.id,
      reviewerName: 'Test lc',
      at: new Date(),
    });
    // The admin's re-run, with no detector: no detections at all.
    const job = await analyse(videoId);
    expect(job.state, job.error ?? '').toBe('completed');
    const [kept] = await db
      .select()
      .from(dispositions)
      .where(eq(dispositions.inspectionId, inspectionId));
    expect(kept).toMatchObject({
      predictionId,
      disposition: 'confirmed',
      replaced: {
        filename: '12.000.png',
        labels: ['tool'],
        confs: [0.9],
        boxes: [[0.1, 0.2, 0.3, 0.4]],
        time: 12,
        analysisVersion: null,
      },
    });
    const [complete] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'analysis.complete'), eq(auditLog.entityId, videoId)));
    expect(complete?.newValue).toMatchObject({
      decisions: {
        carriedOver: [],
        replaced: [
          {
            inspectionId,
            predictionId,
            disposition: 'confirmed',
            reviewerId: people.lc.id,
            reviewerName: 'Test lc',
            keyframe: '12.000.png',
            labels: ['tool'],
          },
        ],
      },
    });
  });
});

describe('a re-run that cannot place a path', () => {
  it('fails at once and leaves the path, images and detections the video has', async () => {
    // A recording without capture data whose results were made elsewhere (as ingested).
    const { videoId } = await createRecordedInspection(t, {
      lineId,
      operatorId: people.operator.id,
      file: video80,
    });
    const { db, storage } = t.services.ctx;
    const keyframesKey = `ingest/${videoId}/slam/keyframes.txt`;
    await storage.put(keyframesKey, Buffer.from('0 1.000 2.000 0.000\n1 1.500 2.000 1.000\n'));
    await storage.put(`ingest/${videoId}/slam/images/1.000.png`, Buffer.from('png'));
    await db.transaction((tx) =>
      replaceResults(tx, videoId, {
        keyframesKey,
        imagesPrefix: `ingest/${videoId}/slam/images`,
        calibration: null,
        predictions: [
          { filename: '1.000.png', classLabels: ['tool'], confs: [0.9], boxesNormalized: [] },
        ],
        detector: { name: 'external', version: '2', threshold: 0.5 },
        analysisVersion: 'slam-x/2',
        statusReason: null,
      }),
    );

    const job = await analyse(videoId);
    expect(job).toMatchObject({ state: 'failed', attempts: 1, summary: null });
    expect(job.error).toBe(
      'fewer than two scans of tags with a known floor-plan position (0): no path; this run ' +
        'replaced nothing: the video keeps its earlier path, keyframe images and detections',
    );
    expect(await videoRow(videoId)).toMatchObject({
      status: 'completed',
      statusReason: job.error,
      keyframesKey,
      keyframeImagesPrefix: `ingest/${videoId}/slam/images`,
      analysisVersion: 'slam-x/2',
    });
    expect(await storage.stat(keyframesKey)).not.toBeNull();
    expect(await storage.stat(`ingest/${videoId}/slam/images/1.000.png`)).not.toBeNull();
    expect(
      await db.select().from(predictions).where(eq(predictions.videoId, videoId)),
    ).toHaveLength(1);
    expect(fs.existsSync(path.join(t.dataDir, 'files', 'analysis', videoId))).toBe(false);
    const [failed] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'analysis.fail'), eq(auditLog.entityId, videoId)));
    expect(failed?.newValue).toMatchObject({ reason: job.error });
  });
});

describe('bad input', () => {
  it('fails a file that is not a video at once, with the reason, and leaves no files', async () => {
    const junk = path.join(t.dataDir, 'junk.mp4');
    fs.writeFileSync(junk, 'this is not a video');
    const { videoId } = await createRecordedInspection(t, {
      lineId,
      operatorId: people.operator.id,
      file: junk,
    });
    const job = await analyse(videoId);
    expect(job).toMatchObject({ state: 'failed', attempts: 1 });
    expect(job.error).toMatch(/not a readable video file/);
    const video = await videoRow(videoId);
    expect(video).toMatchObject({
      status: 'error',
      keyframesKey: null,
      keyframeImagesPrefix: null,
    });
    expect(video?.statusReason).toBe(job.error);
    expect(fs.existsSync(path.join(t.dataDir, 'files', 'analysis', videoId))).toBe(false);
  });

  it('fails a truncated recording with the reason', async () => {
    const truncated = path.join(t.dataDir, 'truncated.mp4');
    const bytes = fs.readFileSync(makeTestVideo(5, { dir: t.dataDir }));
    // Without faststart the index is at the end; cut it off as an interrupted upload would.
    fs.writeFileSync(truncated, bytes.subarray(0, 2000));
    const { videoId } = await createRecordedInspection(t, {
      lineId,
      operatorId: people.operator.id,
      file: truncated,
    });
    const job = await analyse(videoId);
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(/not a readable video file|no readable frames|could not/);
    expect(
      await t.services.ctx.db.select().from(predictions).where(eq(predictions.videoId, videoId)),
    ).toHaveLength(0);
  });
});

describe('a job whose every attempt was cut short by a stopped server', () => {
  /**
   * A video whose job has used both its attempts (ANALYSIS_MAX_ATTEMPTS 2 here), the last cut short
   * in its keyframes step by a process that died holding it until `lockedUntil`.
   */
  async function exhaustedJob(lockedUntil: Date) {
    const junk = path.join(t.dataDir, 'kills-the-server.mp4');
    fs.writeFileSync(junk, 'never decoded: no attempt is made');
    const { videoId } = await createRecordedInspection(t, {
      lineId,
      operatorId: people.operator.id,
      file: junk,
    });
    const [job] = await t.services.ctx.db
      .insert(analysisJobs)
      .values({
        id: newId(),
        videoId,
        requestedBy: people.operator.id,
        state: 'running',
        step: 'keyframes',
        attempts: 2,
        maxAttempts: 2,
        lockedBy: 'dead-host:1:abcdef',
        lockedUntil,
        pipelineVersion: PIPELINE_VERSION,
        detector: t.services.ctx.analysis.detector.info,
      })
      .returning();
    if (!job) throw new Error('job not inserted');
    await t.services.ctx.db
      .update(videos)
      .set({ status: 'processing' })
      .where(eq(videos.id, videoId));
    return job;
  }

  const reason =
    'the analysis stopped 2 times without finishing (last in its keyframes step), e.g. because ' +
    'the server stopped during it or ran out of memory on this video; it is not run again by ' +
    'itself: an admin can re-run it from /analysis';

  /** The job ends failed without a third attempt, the video in error, audited in one go. */
  async function expectFailedForGood(jobId: string) {
    const job = await t.services.ctx.analysis.settled(jobId);
    expect(job).toMatchObject({ state: 'failed', attempts: 2, error: reason, lockedBy: null });
    expect(await videoRow(job.videoId)).toMatchObject({ status: 'error', statusReason: reason });
    const entries = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, job.videoId));
    expect(entries.map((entry) => entry.action)).toEqual(['analysis.fail']);
    expect(entries[0]?.newValue).toMatchObject({ jobId, attempt: 2, reason });
  }

  it('is failed, not run again, when its lease runs out (PostgreSQL: another server takes it)', async () => {
    const job = await exhaustedJob(new Date(Date.now() - 1000));
    await expectFailedForGood(job.id);
  });

  it('is failed, not run again, when a starting server takes it back (PGlite)', async () => {
    const job = await exhaustedJob(new Date(Date.now() + 3600_000));
    expect(await t.services.ctx.analysis.queue.releaseOrphans()).toBe(1);
    t.services.ctx.analysis.wake();
    await expectFailedForGood(job.id);
  });
});
