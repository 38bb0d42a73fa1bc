// The inspection report as a signed GMP record, on the real demo dataset: the report's checklist
// and flags, detection dispositions, approve/reject as e-signatures with their rules, the PDF read
// back with pdfjs-dist, the /reports list and CSV, and the hash-chained audit trail.
import { createHash } from 'node:crypto';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfPageImageCounts, pdfPages, pdfTextBoxes } from '../../tests/support/pdf-text.ts';
import type { AuthUser } from '../context.ts';
import {
  accountLockouts,
  auditLog,
  captures,
  devices,
  inspections,
  lineClearances,
  reportSummaries,
  signatures,
  users,
  videos,
} from '../db/schema.ts';
import { DEMO_PASSWORD, loadDemo } from '../demo/load-demo.ts';
import { inTurn } from '../http/heavy-work.ts';
import { newId } from '../ids.ts';
import type {
  InspectionReport,
  ReportFilters,
  ReportPage,
  SignatureCheck,
} from '../schemas/reports.ts';
import { build, type TestApp } from '../test/build.ts';
import { dataset, files } from '../test/demo-dataset.ts';
import { createUser, PASSWORD as TEST_PASSWORD } from '../test/fixtures.ts';
import { canonicalJson } from './canonical-json.ts';
import { checkEvidenceFiles } from './evidence.ts';
import { CSV_BATCH, TOTAL_CAP } from './list.ts';
import { reportPdf } from './pdf.ts';
import { readRecord } from './record.ts';
import { buildReport, REPORT_RULES_VERSION, summarizeMissing } from './report.ts';

let t: TestApp;
const auth: Record<string, { authorization: string }> = {};
const ids: Record<string, string> = {};
/** Demo inspection ids by key (found by line, operator and start time). */
const inspectionIds: Record<string, string> = {};

// A fresh clone's first files make the migrated dump and the e2e web build at once: this hook
// took over a minute there on two cores (it takes seconds alone).
beforeAll(async () => {
  t = await build();
  await loadDemo(t.services.ctx, dataset, files);
  for (const user of dataset.users) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password: DEMO_PASSWORD },
    });
    auth[user.key] = { authorization: `Bearer ${res.json().token}` };
    const [row] = await t.services.ctx.db.select().from(users).where(eq(users.email, user.email));
    ids[user.key] = row?.id ?? '';
  }
  const rows = await t.services.ctx.db.select().from(inspections);
  for (const inspection of dataset.inspections) {
    const row = rows.find((r) => r.startTime.toISOString() === inspection.startTime);
    inspectionIds[inspection.key] = row?.id ?? '';
  }
}, 180_000);
afterAll(() => t.close());

const get = (who: string, url: string) => t.app.inject({ url, headers: auth[who] });
/** Sets fields of the video of the inspection known by `key`, behind the server's back. */
async function videoSetter(key: string) {
  const { db } = t.services.ctx;
  const [row] = await db
    .select()
    .from(inspections)
    .where(eq(inspections.id, inspectionIds[key] ?? ''));
  return (values: Partial<typeof videos.$inferInsert>) =>
    db
      .update(videos)
      .set(values)
      .where(eq(videos.id, row?.videoId ?? ''));
}
const report = async (who: string, key: string) =>
  (await get(who, `/api/reports/${inspectionIds[key]}`)).json() as InspectionReport;
const APPROVAL_REASON =
  'Flags checked on the line: the carton and the label were removed before the batch';
/** Signs as `who`, with its own user ID (its email) unless the payload says otherwise. */
const sign = (who: string, key: string, verb: 'approve' | 'reject', payload?: object) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/inspections/${inspectionIds[key]}/${verb}`,
    headers: auth[who],
    payload: payload && {
      userId: dataset.users.find((user) => user.key === who)?.email,
      ...payload,
    },
  });
const dispose = (who: string, key: string, predictionId: string, payload: object) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/inspections/${inspectionIds[key]}/dispositions/${predictionId}`,
    headers: auth[who],
    payload,
  });
const CHECK_SIGNATURES = '/api/reports/check-signatures';
/** Starts a signature check as `who` (or joins the one going) and follows it until it ends. */
async function checkSignatures(who: string): Promise<SignatureCheck> {
  const started = await t.app.inject({ method: 'POST', url: CHECK_SIGNATURES, headers: auth[who] });
  expect(started.statusCode).toBe(202);
  for (;;) {
    const state = (await get(who, CHECK_SIGNATURES)).json() as SignatureCheck;
    if (state.state !== 'running') return state;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
const trail = async (action: string, entityId: string) =>
  (await t.services.ctx.db.select().from(auditLog).where(eq(auditLog.action, action))).filter(
    (row) => row.entityId === entityId,
  );

/** A pending inspection row without a video on the line `where` picks, known by `key` here. */
async function addInspection(
  key: string,
  where: SQL,
  fields: Pick<
    typeof inspections.$inferInsert,
    'operatorId' | 'startTime' | 'endTime' | 'receivedAt'
  >,
): Promise<void> {
  const [line] = await t.services.ctx.db.select().from(lineClearances).where(where);
  const id = newId();
  await t.services.ctx.db
    .insert(inspections)
    .values({ id, lineClearanceId: line?.id ?? '', ...fields });
  inspectionIds[key] = id;
}

describe('the inspection report', () => {
  it('builds the checklist from the path, with flags most serious first', async () => {
    const r = await report('lcmanager2', 'insp-lc2-2');
    expect(r.lineName).toBe('Bottling Line 2');
    expect(r.pathMessage).toBeNull();
    const config = dataset.floorplanConfigs.find((c) => c.lineKey === 'bottling-line-2');
    expect(r.checklist.tags.map((tag) => tag.name)).toEqual(
      config?.configuration.tags.map((tag) => tag.name),
    );
    expect(r.checklist.zones).toHaveLength(config?.configuration.hotZones.length ?? -1);
    for (const tag of r.checklist.tags.filter((x) => x.scanned)) {
      expect(tag.source).toBe('path');
      expect(tag.time).toEqual(expect.any(Number));
      expect(tag.keyframe?.filename).toMatch(/\.png$/);
    }
    for (const zone of r.checklist.zones.filter((z) => z.visited)) {
      expect(zone.secondsInside).toBeGreaterThanOrEqual(0);
    }
    expect(r.detections.length).toBe(21);
    const flagged = r.detections.filter((d) => d.flagged);
    expect(flagged.every((d) => d.confidence >= r.rules.confidenceThreshold)).toBe(true);
    expect(r.flags.filter((f) => f.kind === 'detection')).toHaveLength(flagged.length);
    // A flag names every object above the threshold in its keyframe, not only the strongest.
    const above = (d: (typeof flagged)[number]) =>
      d.labels.filter((_, i) => (d.confs[i] ?? 0) >= r.rules.confidenceThreshold);
    expect(flagged.some((d) => above(d).length > 1)).toBe(true);
    for (const detection of flagged) {
      const flag = r.flags.find((f) => f.ref === detection.predictionId);
      for (const label of above(detection)) expect(flag?.text).toContain(label);
    }
    const ranks = r.flags.map((f) => ['critical', 'high', 'medium', 'low'].indexOf(f.severity));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(r.canSign).toBe(true);
    expect(r.signature).toBeNull();
    expect(r.unchangedSinceSigning).toBeNull();
  });

  it('names what blocks an approval first: an inspection without a video', async () => {
    // Only a record from before capture lacks a video (a submit always creates one).
    await addInspection('legacy', eq(lineClearances.name, 'Bottling Line 2'), {
      operatorId: ids.operator2 ?? '',
      startTime: new Date('2026-10-28T09:00:00Z'),
    });
    const r = await report('lcmanager2', 'legacy');
    expect(r.video).toBeNull();
    expect(r.flags[0]).toMatchObject({
      kind: 'no-video',
      severity: 'critical',
      text: 'No video: none is linked to this inspection (none was submitted, or it was deleted)',
    });
    // Without a path no zone is 'not visited': each is not assessable, and raises no flag of its own.
    expect(r.checklist.zones.map((zone) => zone.visited)).toEqual([null, null, null, null, null]);
    expect(r.flags.filter((f) => f.kind === 'zone')).toEqual([]);
  });

  it('flags a submit the server received over an hour after the recording ended', async () => {
    const ended = new Date('2026-10-29T09:05:00Z');
    const minutes = (n: number) => new Date(ended.getTime() + n * 60_000);
    const line = eq(lineClearances.name, 'Bottling Line 2');
    const operatorId = ids.operator2 ?? '';
    const startTime = new Date('2026-10-29T09:00:00Z');
    await addInspection('late', line, {
      operatorId,
      startTime,
      endTime: ended,
      receivedAt: minutes(3 * 24 * 60 + 20),
    });
    await addInspection('in-time', line, {
      operatorId,
      startTime,
      endTime: ended,
      receivedAt: minutes(60),
    });
    await addInspection('just-late', line, {
      operatorId,
      startTime,
      endTime: ended,
      receivedAt: minutes(60.5),
    });
    const late = await report('lcmanager2', 'late');
    expect(late.receivedAt).toBe('2026-11-01T09:25:00.000Z');
    expect(late.flags.filter((f) => f.kind === 'late')).toEqual([
      {
        kind: 'late',
        severity: 'medium',
        text: 'Submitted late: received 3 days after the recording ended (a delayed upload, or the device’s clock)',
        time: null,
        ref: null,
        decision: null,
      },
    ]);
    const inTime = await report('lcmanager2', 'in-time');
    expect(inTime.receivedAt).toBe('2026-10-29T10:05:00.000Z');
    expect(inTime.flags.map((f) => f.kind)).not.toContain('late');
    // Whole units, never rounded up, to the second under two hours: never the rule's own hour.
    expect(
      (await report('lcmanager2', 'just-late')).flags.find((f) => f.kind === 'late')?.text,
    ).toBe(
      'Submitted late: received 1 hour, 30 seconds after the recording ended (a delayed upload, or the device’s clock)',
    );
    // The PDF prints the server's receipt beside the device's times.
    const pdf = await get('lcmanager2', `/api/reports/${inspectionIds.late}/pdf`);
    expect((await pdfPages(pdf.rawPayload)).join('\n')).toContain(
      'Received by the server\n \n2026-11-01 09:25:00 UTC',
    );
  });

  it('says which hot zones a video without a path leaves unchecked, as seriously as the worst', async () => {
    await addInspection('no-keyframes', eq(lineClearances.name, 'Bottling Line 2'), {
      operatorId: ids.operator2 ?? '',
      startTime: new Date('2026-10-29T09:00:00Z'),
    });
    const videoId = newId();
    await t.services.ctx.db.insert(videos).values({
      id: videoId,
      filename: 'no-keyframes.mp4',
      storageKey: 'videos/no-keyframes.mp4',
      subfolder: 'no-keyframes',
      timestamp: new Date('2026-10-29T09:00:00Z'),
      status: 'completed',
      duration: 60,
      sha256: 'a'.repeat(64),
    });
    await t.services.ctx.db
      .update(inspections)
      .set({ videoId })
      .where(eq(inspections.id, inspectionIds['no-keyframes'] ?? ''));
    const r = await report('lcmanager2', 'no-keyframes');
    expect(r.approvalBlocker).toBeNull();
    expect(r.checklist.zones.every((zone) => zone.visited === null)).toBe(true);
    expect(r.flags.filter((f) => f.kind === 'zone')).toEqual([]);
    expect(r.flags[0]).toMatchObject({
      kind: 'no-path',
      severity: 'critical',
      text: 'No path: the analysis made none and recorded no reason. 5 hot zones are not assessable: Filler carousel, Capper, Labeller, Palletizer, Glass breakage kit',
    });
    expect(r.pathMissingReason).toBeNull();
    const pdf = await get('lcmanager2', `/api/reports/${inspectionIds['no-keyframes']}/pdf`);
    expect((await pdfPages(pdf.rawPayload)).join('\n')).toContain(
      'Not assessable (no path): Filler carousel (critical)',
    );
  });

  it('gives the analysis’s reason for no path in the report, its flag and the PDF', async () => {
    const reason = 'fewer than two scans of tags with a known floor-plan position (0): no path';
    const id = inspectionIds['no-keyframes'] ?? '';
    const setVideo = await videoSetter('no-keyframes');
    await setVideo({ statusReason: reason });
    const words =
      'No path: the analysis found fewer than two scans of tags with a known floor-plan position (0).';
    const r = await report('lcmanager2', 'no-keyframes');
    expect(r).toMatchObject({ pathMessage: words, pathMissingReason: reason });
    expect(r.flags[0]?.text).toBe(
      `${words} 5 hot zones are not assessable: Filler carousel, Capper, Labeller, Palletizer, Glass breakage kit`,
    );
    const pdf = await get('lcmanager2', `/api/reports/${id}/pdf`);
    const text = (await pdfPages(pdf.rawPayload)).join('\n');
    expect(text).toContain(words);
    expect(text).not.toContain('keyframesPath');

    // Before the analysis has finished, the report says that instead, with no reason of its own.
    await setVideo({ status: 'pending', statusReason: 'retrying: storage unavailable' });
    expect(await report('lcmanager2', 'no-keyframes')).toMatchObject({
      pathMessage: 'No path yet: the video has not been analysed.',
      pathMissingReason: null,
    });
    await setVideo({ status: 'error', statusReason: 'no frame of the video could be decoded' });
    expect(await report('lcmanager2', 'no-keyframes')).toMatchObject({
      pathMessage: 'No path: the analysis failed (no frame of the video could be decoded).',
      pathMissingReason: 'no frame of the video could be decoded',
    });
    await setVideo({ status: 'completed', statusReason: null });
    // Without a video it says so.
    expect((await report('lcmanager2', 'legacy')).pathMessage).toBe(
      'No video was recorded for this inspection.',
    );
  });

  it('says when no detector looked at a finished analysis, rather than that it found nothing', async () => {
    const id = inspectionIds['no-keyframes'] ?? '';
    const setVideo = await videoSetter('no-keyframes');
    const noteOf = async () => {
      const r = await report('lcmanager2', 'no-keyframes');
      const flag = r.flags.find((f) => f.kind === 'no-detection');
      expect(flag?.text ?? null).toBe(r.detectionNote);
      if (flag) expect(flag).toMatchObject({ severity: 'high', time: null, ref: null });
      return r.detectionNote;
    };
    expect(await noteOf()).toBe(
      'Object detection not reported: the analysis (unnamed) names no detector, so the keyframe images may not have been checked for leftover items',
    );
    await setVideo({
      analysisVersion: 'lc-pipeline/1',
      detector: { name: 'none', version: '', threshold: 0 },
    });
    const notRun =
      'Object detection was not run (no detector configured): the keyframe images were not checked for leftover items';
    expect(await noteOf()).toBe(notRun);
    const pdf = await get('lcmanager2', `/api/reports/${id}/pdf`);
    expect((await pdfPages(pdf.rawPayload)).join(' ').replace(/\s+/g, ' ')).toContain(notRun);
    // A detector that looked and found nothing: 'no detections' is a result then.
    await setVideo({ detector: { name: 'yolo', version: '8', threshold: 0.5 } });
    expect(await noteOf()).toBeNull();
    // Before the analysis has finished, the blocker speaks, not this.
    await setVideo({ status: 'pending', detector: { name: 'none', version: '', threshold: 0 } });
    expect(await noteOf()).toBeNull();
    await setVideo({ status: 'completed', analysisVersion: null, detector: null });
  });

  it('counts a tag neither scanned nor missed without the phone’s scans and a path', async () => {
    // This inspection has no capture data and its video no path: like its zones, not assessable.
    const r = await report('lcmanager2', 'no-keyframes');
    expect(r.checklist.tags.length).toBeGreaterThan(0);
    expect(r.checklist.tags.every((tag) => tag.scanned === null)).toBe(true);
    expect(r.flags.filter((f) => f.kind === 'tag')).toEqual([]);
    const pdf = await get('lcmanager2', `/api/reports/${inspectionIds['no-keyframes']}/pdf`);
    expect((await pdfPages(pdf.rawPayload)).join('\n')).toContain(
      'Not assessable (no scans from the phone, no path):',
    );
    // With the phone's scans, a tag it did not scan is missed (the QR scan is the evidence).
    await t.services.ctx.db
      .insert(captures)
      .values({ inspectionId: inspectionIds['no-keyframes'] ?? '', scans: [], motion: null });
    try {
      const captured = await report('lcmanager2', 'no-keyframes');
      expect(captured.checklist.tags.every((tag) => tag.scanned === false)).toBe(true);
      expect(captured.flags.filter((f) => f.kind === 'tag')).toHaveLength(
        captured.checklist.tags.length,
      );
    } finally {
      await t.services.ctx.db
        .delete(captures)
        .where(eq(captures.inspectionId, inspectionIds['no-keyframes'] ?? ''));
    }
  });

  it('names the device the video was recorded on in the report and the PDF', async () => {
    const id = inspectionIds['insp-lc2-2'] ?? '';
    const [row] = await t.services.ctx.db
      .select({ deviceId: videos.deviceId })
      .from(inspections)
      .innerJoin(videos, eq(videos.id, inspections.videoId))
      .where(eq(inspections.id, id));
    const deviceId = row?.deviceId ?? '';
    const [device] = await t.services.ctx.db.select().from(devices).where(eq(devices.id, deviceId));
    expect(device?.name).toEqual(expect.any(String));
    const before = await report('lcmanager2', 'insp-lc2-2');
    expect(before.device).toEqual({ id: deviceId, name: device?.name });
    const pdf = await get('lcmanager2', `/api/reports/${id}/pdf`);
    // Label and value are separate text items: compared as one line of words.
    expect((await pdfPages(pdf.rawPayload)).join(' ').replace(/\s+/g, ' ')).toContain(
      `Device ${device?.name} (${deviceId})`,
    );

    // Not yet signed, a renamed device shows its new name, which the record hash covers as it
    // covers a renamed line's (a signature keeps the name its signer saw).
    await t.services.ctx.db
      .update(devices)
      .set({ name: 'Renamed tablet' })
      .where(eq(devices.id, deviceId));
    const renamed = await report('lcmanager2', 'insp-lc2-2');
    expect(renamed.device).toEqual({ id: deviceId, name: 'Renamed tablet' });
    expect(renamed.recordHash).not.toBe(before.recordHash);
    await t.services.ctx.db
      .update(devices)
      .set({ name: device?.name ?? '' })
      .where(eq(devices.id, deviceId));
    expect((await report('lcmanager2', 'insp-lc2-2')).recordHash).toBe(before.recordHash);
    // An inspection whose video names no device says so.
    expect((await report('lcmanager2', 'no-keyframes')).device).toBeNull();
  });

  it('names what blocks an approval first: a submitted video whose file has not arrived', async () => {
    const r = await report('lcmanager2', 'insp-lc2-3');
    expect(r.video).toMatchObject({ sha256: null, analysisVersion: null });
    const notArrived = 'No verified video: the file has not arrived from the operator’s device yet';
    expect(r.approvalBlocker).toBe(notArrived);
    expect(r.flags[0]).toMatchObject({ kind: 'no-video', severity: 'critical', text: notArrived });
    // No path yet, and said once: the critical flag names the cause, no second 'no-path' flag.
    expect(r.pathMessage).toBe(
      'No path yet: the analysis makes it once the video file has arrived.',
    );
    expect(r.flags.filter((f) => f.kind === 'no-path')).toEqual([]);
    expect(r.flags.filter((f) => f.kind === 'zone')).toEqual([]);
  });

  it('says a file discarded on the device will not arrive, rather than that it is coming', async () => {
    const setVideo = await videoSetter('insp-lc2-3');
    const { duration } = (await report('lcmanager2', 'insp-lc2-3')).video ?? { duration: 0 };
    await setVideo({
      status: 'error',
      statusReason: 'Recording discarded on the device',
      duration: 13.58,
    });
    try {
      const r = await report('lcmanager2', 'insp-lc2-3');
      const discarded =
        'No verified video: the file will not arrive (Recording discarded on the device)';
      expect(r.approvalBlocker).toBe(discarded);
      expect(r.flags[0]).toMatchObject({ kind: 'no-video', severity: 'critical', text: discarded });
      expect(r.pathMessage).toBe('No video file: Recording discarded on the device.');
      // A short recording is flagged, with no moment to move to: there is nothing to play.
      expect(r.flags.find((f) => f.kind === 'short-video')).toMatchObject({ time: null });
    } finally {
      await setVideo({ status: 'pending', statusReason: null, duration });
    }
  });

  it('answers 404 outside the caller’s scope and tells the UI who may sign', async () => {
    expect((await get('lcmanager', `/api/reports/${inspectionIds['insp-lc2-2']}`)).statusCode).toBe(
      404,
    );
    expect((await get('operator2', `/api/reports/${inspectionIds['insp-lc2-2']}`)).statusCode).toBe(
      404,
    );
    const own = await report('operator', 'insp-lc2-2');
    expect(own.canSign).toBe(false);
    expect((await report('audit', 'insp-lc2-2')).canSign).toBe(false);
  });

  it('stores dispositions, requires a reason to dismiss, and audits each one', async () => {
    const r = await report('lcmanager2', 'insp-lc2-2');
    const [first, second] = r.detections;
    if (!first || !second) throw new Error('the demo inspection has detections');
    const noReason = await dispose('lcmanager2', 'insp-lc2-2', first.predictionId, {
      disposition: 'dismissed',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('body.reason is required for a dismissal');
    // A reason that prints as nothing is none either.
    for (const reason of ['\u200b', '\u3164\u2800', '\u00ad ']) {
      const invisible = await dispose('lcmanager2', 'insp-lc2-2', first.predictionId, {
        disposition: 'dismissed',
        reason,
      });
      expect(invisible.json().message).toBe('body.reason is required for a dismissal');
    }
    // A dismissal's reason follows the rule of every other reason: 'x' tells an auditor nothing.
    for (const reason of ['x', 'glare glare', 'Approved by LC Manager']) {
      const short = await dispose('lcmanager2', 'insp-lc2-2', first.predictionId, {
        disposition: 'dismissed',
        reason,
      });
      expect(short.statusCode).toBe(400);
      expect(short.json().message).toBe(
        'body.reason must say why the detection is a false positive (at least 3 different words)',
      );
    }
    expect(
      (await dispose('operator', 'insp-lc2-2', first.predictionId, { disposition: 'confirmed' }))
        .statusCode,
    ).toBe(403);
    // Another line's record is outside the caller's scope (docs/permissions.md).
    expect(
      (await dispose('lcmanager', 'insp-lc2-2', first.predictionId, { disposition: 'confirmed' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await dispose('lcmanager2', 'insp-lc2-2', newId(), { disposition: 'confirmed' })).statusCode,
    ).toBe(404);
    const confirmed = await dispose('lcmanager2', 'insp-lc2-2', first.predictionId, {
      disposition: 'confirmed',
    });
    expect(confirmed.statusCode).toBe(200);
    const dismissed = await dispose('lcmanager2', 'insp-lc2-2', first.predictionId, {
      disposition: 'dismissed',
      reason: 'Shadow of the capper guard',
    });
    expect(dismissed.json()).toMatchObject({
      disposition: 'dismissed',
      reason: 'Shadow of the capper guard',
      reviewerId: ids.lcmanager2,
    });
    await dispose('lcmanager2', 'insp-lc2-2', second.predictionId, { disposition: 'confirmed' });
    const entries = await trail('disposition', inspectionIds['insp-lc2-2'] ?? '');
    expect(entries).toHaveLength(3);
    expect(entries[1]?.oldValue).toMatchObject({ disposition: 'confirmed' });
    expect(entries[1]?.newValue).toMatchObject({
      disposition: 'dismissed',
      // The trail names the detection as a reader knows it, not by its id alone.
      detection: { keyframe: first.filename, label: first.labels[0], confidence: first.confs[0] },
    });
    const shown = await report('lcmanager2', 'insp-lc2-2');
    expect(shown.detections[0]?.disposition?.reason).toBe('Shadow of the capper guard');
  });
});

describe('flags and dispositions', () => {
  it('closes a dismissed detection’s flag, in the report and in the /reports counts', async () => {
    const key = 'insp-lc2-2';
    const before = await report('admin', key);
    const flag = before.flags.find((f) => f.kind === 'detection' && f.decision === null);
    if (!flag?.ref) throw new Error('the demo inspection has an undecided flagged detection');
    const listed = async () =>
      (await get('admin', '/api/reports?limit=100'))
        .json()
        .rows.find((row: { inspectionId: string }) => row.inspectionId === inspectionIds[key]) as {
        flags: number;
        criticalFlags: number;
      };
    const counted = await listed();
    await dispose('admin', key, flag.ref, {
      disposition: 'dismissed',
      reason: 'A reflection on the guard',
    });
    // The list is current before anyone opens the report again.
    expect((await listed()).flags).toBe(counted.flags - 1);
    const after = await report('admin', key);
    expect(after.flags.find((f) => f.ref === flag.ref)?.decision).toBe('dismissed');
    // The PDF lists it, marked, and counts it apart from the open ones.
    const pdf = await get('admin', `/api/reports/${inspectionIds[key]}/pdf`);
    expect((await pdfPages(pdf.rawPayload)).join('\n')).toContain(
      `Flags (${after.flags.length - 1} open, 1 dismissed)`,
    );
    await dispose('admin', key, flag.ref, { disposition: 'confirmed' });
    expect((await listed()).flags).toBe(counted.flags);
    expect((await report('admin', key)).flags.find((f) => f.ref === flag.ref)?.decision).toBe(
      'confirmed',
    );

    // A server stopped between a decision's commit and its summary's rebuild: the summary is as
    // it was before the decision. The next start finds it older than the record and rebuilds it.
    const { db } = t.services.ctx;
    const id = inspectionIds[key] ?? '';
    await db
      .update(reportSummaries)
      .set({ flags: 999, builtThrough: 0 })
      .where(eq(reportSummaries.inspectionId, id));
    expect(await summarizeMissing(t.services.ctx)).toBeGreaterThanOrEqual(1);
    expect((await listed()).flags).toBe(counted.flags);
    // Current summaries are left as they are.
    expect(await summarizeMissing(t.services.ctx)).toBe(0);

    // Two builds of the record racing (the start's rebuild and a decision's): the one that read
    // the record before the decision saves after it. It replaced the current summary with a build
    // time later than the decision's entry, so no later start rebuilt it.
    const readBefore = await readRecord(db, id);
    const auditor: AuthUser = {
      id: ids.audit ?? '',
      name: 'Anna Auditor',
      email: '',
      roles: ['audit'],
    };
    await dispose('admin', key, flag.ref, {
      disposition: 'dismissed',
      reason: 'A reflection on the guard',
    });
    expect((await listed()).flags).toBe(counted.flags - 1);
    await buildReport(t.services.ctx, auditor, readBefore);
    expect((await listed()).flags).toBe(counted.flags - 1);
    expect(await summarizeMissing(t.services.ctx)).toBe(0);
    await dispose('admin', key, flag.ref, { disposition: 'confirmed' });

    // A summary built by older report rules (before an upgrade) is built again, and only it.
    await db
      .update(reportSummaries)
      .set({ flags: 999, rules: REPORT_RULES_VERSION - 1 })
      .where(eq(reportSummaries.inspectionId, id));
    // Until then /reports shows it as not yet counted, never the older rules' count (QA: 3.7 s of
    // them after an upgrade's start, minutes at plant scale).
    expect(await listed()).toMatchObject({ flags: null, criticalFlags: null });
    expect(await summarizeMissing(t.services.ctx)).toBe(1);
    expect((await listed()).flags).toBe(counted.flags);
    const [rebuilt] = await db
      .select({ rules: reportSummaries.rules })
      .from(reportSummaries)
      .where(eq(reportSummaries.inspectionId, id));
    expect(rebuilt?.rules).toBe(REPORT_RULES_VERSION);
  });
});

describe('approve and reject as e-signatures', () => {
  it('refuses a call without the password with a 400 naming the field', async () => {
    for (const payload of [undefined, {}, { notes: 'Approved by LC Manager' }]) {
      const res = await sign('lcmanager2', 'insp-lc2-2', 'approve', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('body.password is required');
    }
  });

  it('refuses a call without the user ID with a 400 naming the field', async () => {
    const res = await sign('lcmanager2', 'insp-lc2-2', 'approve', {
      notes: APPROVAL_REASON,
      userId: undefined,
      password: DEMO_PASSWORD,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('body.userId is required');
    expect((await report('lcmanager2', 'insp-lc2-2')).status).toBe('pending');
  });

  it('signs nothing on a wrong password, and logs the attempt', async () => {
    const res = await sign('lcmanager2', 'insp-lc2-2', 'approve', {
      notes: APPROVAL_REASON,
      password: 'not-it',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('The password is incorrect; nothing was signed');
    expect((await report('lcmanager2', 'insp-lc2-2')).status).toBe('pending');
    expect(await trail('signature.failed', inspectionIds['insp-lc2-2'] ?? '')).toHaveLength(1);
  });

  it('counts wrong signing passwords toward the sign-in lockout', async () => {
    // An admin of its own, so the lock touches no other test's signer.
    const signer = await createUser(t, 'signing-lockout', ['admin']);
    const approve = (password: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/inspections/${inspectionIds['insp-lc2-2']}/approve`,
        headers: signer.auth,
        payload: { notes: APPROVAL_REASON, userId: signer.email, password },
      });
    const answers = [];
    for (let attempt = 0; attempt < 5; attempt++) answers.push(await approve(`wrong-${attempt}`));
    expect(answers.map((res) => res.statusCode)).toEqual([403, 403, 403, 403, 403]);
    // The signer is signed in as the account: the lock is said, not hidden as at the sign-in.
    const until = /until \d{4}-\d\d-\d\d at \d\d:\d\d UTC, or until an administrator unlocks it/;
    expect(answers[3]?.json().message).toBe('The password is incorrect; nothing was signed');
    expect(answers[4]?.json().message).toMatch(
      new RegExp(
        `^The password is incorrect; nothing was signed\\. That was too many wrong passwords: your account is locked ${until.source}$`,
      ),
    );
    // Its end to the next whole minute: a try at the minute named is never still refused.
    const [lock] = await t.services.ctx.db
      .select({ until: accountLockouts.lockedUntil })
      .from(accountLockouts)
      .where(eq(accountLockouts.userId, signer.id));
    const [, day, time] = /until (\S+) at (\S+) UTC/.exec(answers[4]?.json().message) ?? [];
    const said = new Date(`${day}T${time}:00Z`).getTime();
    expect(said).toBeGreaterThanOrEqual(lock?.until?.getTime() ?? Number.POSITIVE_INFINITY);
    expect(said - (lock?.until?.getTime() ?? 0)).toBeLessThan(60_000);
    // The right password while locked: said as a lock, and filed as one (QA: 'wrong password').
    const locked = await approve(TEST_PASSWORD);
    expect(locked.statusCode).toBe(403);
    expect(locked.json().message).toMatch(
      new RegExp(
        `^Your account is locked after too many wrong passwords, ${until.source}; nothing was signed$`,
      ),
    );
    const failures = await trail('signature.failed', inspectionIds['insp-lc2-2'] ?? '');
    expect(failures.at(-1)?.newValue).toMatchObject({ reason: 'account locked' });
    expect(failures.at(-2)?.newValue).toMatchObject({ reason: 'wrong password' });
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: signer.email, password: TEST_PASSWORD },
    });
    expect(signIn.statusCode).toBe(401);
    expect(await trail('account.locked', signer.id)).toHaveLength(1);
    expect((await report('lcmanager2', 'insp-lc2-2')).status).toBe('pending');
  });

  it('requires notes to reject, and refuses the operator and other lines’ managers', async () => {
    // The spec's notes name the signer's role, not a reason; a word or two says nothing either.
    for (const notes of [
      undefined,
      ' ',
      'ok',
      'not ok',
      'Rejected by LC Manager',
      ' rejected by lc manager. ',
      'Approved by LC Manager',
    ]) {
      const refused = await sign('lcmanager', 'insp-lc1-3', 'reject', {
        notes,
        password: DEMO_PASSWORD,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(
        'body.notes must give the reason for a rejection (at least 3 different words)',
      );
    }
    expect(
      (await sign('lcmanager', 'insp-lc2-2', 'approve', { password: DEMO_PASSWORD })).statusCode,
    ).toBe(404);
    // Not found for the caller, yet in the trail: who tried to sign on another manager's line.
    const outOfScope = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'authorization.denied'));
    expect(
      outOfScope.some(
        (row) =>
          row.actorId === ids.lcmanager &&
          JSON.stringify(row.newValue).includes('not the manager of this line clearance'),
      ),
    ).toBe(true);
    expect(
      (await sign('operator', 'insp-lc2-2', 'approve', { password: DEMO_PASSWORD })).statusCode,
    ).toBe(403);
    // The second-person rule: a manager who performed the inspection cannot sign it.
    await addInspection('own', eq(lineClearances.managerId, ids.lcmanager ?? ''), {
      operatorId: ids.lcmanager ?? '',
      startTime: new Date('2026-11-21T09:00:00Z'),
    });
    const res = await sign('lcmanager', 'own', 'approve', { password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(403);
    const denied = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'authorization.denied'));
    expect(denied.some((row) => JSON.stringify(row.newValue).includes('operator'))).toBe(true);
  });

  it('approves over open flags only with notes that say why the line is clear', async () => {
    const r = await report('lcmanager2', 'insp-lc2-2');
    // The dispositions test above confirmed two detections as findings.
    expect(r.approvalExceptions).toMatch(
      /^\d+ critical or high flags are open \(2 detections confirmed as findings\)$/,
    );
    for (const notes of [undefined, '', 'ok', 'ok ok ok', 'Approved by LC Manager']) {
      const refused = await sign('lcmanager2', 'insp-lc2-2', 'approve', {
        notes,
        password: DEMO_PASSWORD,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(
        `body.notes must say why the line is clear (at least 3 different words): ${r.approvalExceptions}`,
      );
    }
    expect((await report('lcmanager2', 'insp-lc2-2')).status).toBe('pending');
  });

  it('signs once: the signature, its meaning and the record hash show on the record', async () => {
    const res = await sign('lcmanager2', 'insp-lc2-2', 'approve', {
      notes: APPROVAL_REASON,
      password: DEMO_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'approved',
      reviewerId: ids.lcmanager2,
      signature: {
        signerName: 'Daniel Okafor',
        meaning: 'approved',
        statement: 'Approved: the line is clear for the next batch',
        notes: APPROVAL_REASON,
        recordHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    const r = await report('lcmanager2', 'insp-lc2-2');
    expect(r.signature?.recordHash).toBe(r.recordHash);
    expect(r.unchangedSinceSigning).toBe(true);
    const list = (await get('lcmanager2', '/api/inspections')).json() as {
      _id: string;
      signature: { signerName: string } | null;
    }[];
    expect(list.find((i) => i._id === r.inspectionId)?.signature?.signerName).toBe('Daniel Okafor');
    const again = await sign('lcmanager2', 'insp-lc2-2', 'reject', {
      notes: 'x',
      password: DEMO_PASSWORD,
    });
    expect(again.statusCode).toBe(409);
    const edit = await dispose('lcmanager2', 'insp-lc2-2', r.detections[0]?.predictionId ?? '', {
      disposition: 'confirmed',
    });
    expect(edit.statusCode).toBe(409);
    const [entry] = await trail('approve', r.inspectionId);
    expect(entry?.oldValue).toMatchObject({ status: 'pending' });
    expect(entry?.newValue).toMatchObject({
      status: 'approved',
      signature: { meaning: 'approved' },
    });
    // The trail's time of the signature is the signature's own, to the millisecond.
    expect(entry?.at.toISOString()).toBe(r.signature?.signedAt);
  });

  it('checks the record again under its lock: a video deleted while the password is checked', async () => {
    const { credentials } = t.services.ctx;
    const check = credentials.check;
    const videoId = (await report('lcmanager', 'insp-lc1-3')).video?.id ?? '';
    // Its analysis has not run here; as if it had, so that only the delete can block the approval.
    await t.services.ctx.db
      .update(videos)
      .set({ status: 'completed' })
      .where(eq(videos.id, videoId));
    // The admin's delete lands between the first check of the rules and the signature's lock.
    credentials.check = async (...args) => {
      credentials.check = check;
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: `/api/admin/videos/${videoId}`,
        headers: auth.admin,
        payload: { reason: 'Recorded on the wrong line by mistake' },
      });
      expect(deleted.statusCode).toBe(200);
      return check.apply(credentials, args);
    };
    const res = await sign('lcmanager', 'insp-lc1-3', 'approve', {
      notes: APPROVAL_REASON,
      password: DEMO_PASSWORD,
    });
    expect(credentials.check).toBe(check);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(
      /^No video.*; it cannot be approved as clear, only rejected$/,
    );
    const after = await report('lcmanager', 'insp-lc1-3');
    expect(after).toMatchObject({ status: 'pending', signature: null, video: null });
  });

  it('names who signed and when to a signer who comes second', async () => {
    const res = await sign('admin', 'insp-lc2-2', 'reject', {
      notes: 'Second signer tries to reject it',
      password: DEMO_PASSWORD,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(
      /^The inspection is already approved: signed by Daniel Okafor on \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );
    // The attempt is in the signed record's history.
    const { inspectionId } = await report('lcmanager2', 'insp-lc2-2');
    const tried = await trail('evidence.protected', inspectionId);
    expect(
      tried.map((row) => [row.actorId, (row.newValue as { reason?: string } | null)?.reason]),
    ).toContainEqual([ids.admin, res.json().message]);
  });

  it('rejects with notes as a signature too', async () => {
    const res = await sign('lcmanager', 'insp-lc1-3', 'reject', {
      notes: 'Sealing station not checked',
      password: DEMO_PASSWORD,
    });
    expect(res.json().signature).toMatchObject({
      meaning: 'rejected',
      statement: 'Rejected: the line is not clear',
      notes: 'Sealing station not checked',
    });
  });
});

describe('the PDF', () => {
  it('prints every field of the record, the signature and page n of m', async () => {
    const r = await report('lcmanager2', 'insp-lc2-2');
    const res = await get('audit', `/api/reports/${r.inspectionId}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pages = await pdfPages(res.rawPayload);
    const text = pages.join('\n');
    for (const expected of [
      'Line Clearance Inspection Report',
      r.lineName,
      r.operatorName,
      'Daniel Okafor',
      'Approved: the line is clear for the next batch',
      r.recordHash,
      'The record is unchanged since it was signed',
      'Shadow of the capper guard',
      'Dismissed as a false positive',
      ...r.checklist.tags.map((tag) => tag.name),
      ...r.checklist.zones.map((zone) => zone.name),
      `Flags (${r.flags.length})`,
    ]) {
      expect(text).toContain(expected);
    }
    // Who printed the copy, under the title: the auditor who downloaded it.
    expect(pages[0]).toMatch(
      /Printed \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC by \S.* \(audit@example\.com\)/,
    );
    // Every letter printed: no note about '?'.
    expect(text).not.toContain('cannot print');
    pages.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
      expect(page).toMatch(/Printed \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    });
    // The record's history, last: the inspection's creation, its video's (with the SHA-256 it
    // was stored with) and the signature with its notes, oldest first, on numbered pages.
    const history = text.slice(text.indexOf('Record history ('));
    expect(text.indexOf('Record history (')).toBeGreaterThan(text.indexOf('Flagged detections'));
    const lines = history.split('\n');
    const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    const video = at(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC · operator@example\.com · create video/);
    const created = at(/ · operator@example\.com · create inspection \(entry \d+\)$/);
    const signed = at(/ · lcmanager2@example\.com · approve inspection \(entry \d+\)$/);
    expect(video).toBeGreaterThan(0);
    expect(created).toBeGreaterThan(video);
    expect(signed).toBeGreaterThan(created);
    expect(history.replace(/\n/g, ' ')).toContain(`sha256: ${r.video?.sha256}`);
    expect(history).toContain('status: pending → approved');
    expect(history).toContain(`Reason: ${APPROVAL_REASON}`);
    expect(history).toContain('signature.failed inspection');
    expect(history.replace(/\n/g, ' ')).toContain(
      "Long values are shortened (…) and at most 16 fields an entry are printed: /audit shows each entry whole, by its number, as does the record's electronic copy (JSON).",
    );
    expect(history.replace(/\n/g, ' ')).toContain(
      "Each entry was checked against the audit trail's hash chain (its hash and its links to the entries before and after it): all verify.",
    );
    // The coverage picture (the report's first image) is on its caption's page.
    const captionPage = pages.findIndex((page) => page.includes('Coverage: the path in blue'));
    const images = await pdfPageImageCounts(res.rawPayload);
    expect(images.findIndex((count) => count > 0)).toBe(captionPage);
  });

  it('says so when the record changed after signing', async () => {
    const r = await report('lcmanager2', 'insp-lc2-2');
    await t.services.ctx.db
      .update(videos)
      .set({ analysisVersion: 'reanalysed-2' })
      .where(eq(videos.id, r.video?.id ?? ''));
    const changed = await report('lcmanager2', 'insp-lc2-2');
    expect(changed.unchangedSinceSigning).toBe(false);
    const text = (
      await pdfPages((await get('admin', `/api/reports/${r.inspectionId}/pdf`)).rawPayload)
    ).join('\n');
    expect(text).toContain('WARNING: the record changed after it was signed');
  });

  it('lists a record changed after signing as such, once checked', async () => {
    // insp-lc1-1 is signed in the demo; its operator notes edited behind the server's back.
    const id = inspectionIds['insp-lc1-1'] ?? '';
    const changed = async () =>
      ((await get('audit', '/api/reports?changedAfterSigning=true')).json() as ReportPage).rows.map(
        (row) => row.inspectionId,
      );
    await t.services.ctx.db
      .update(inspections)
      .set({ operatorNotes: 'Edited after the signature' })
      .where(eq(inspections.id, id));
    expect(await changed()).not.toContain(id);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/reports/check-signatures',
      headers: auth.lcmanager,
    });
    expect(refused.statusCode).toBe(403);
    const check = await checkSignatures('audit');
    if (check.state !== 'finished') throw new Error(`the check ended ${check.state}`);
    expect(check.inspectionIds).toContain(id);
    expect(check.checked).toBeGreaterThanOrEqual(check.changed);
    expect(await changed()).toContain(id);
    const csv = (await get('audit', '/api/reports.csv?changedAfterSigning=true')).body;
    expect(csv.split('\r\n')[0]).toMatch(/,Changed after signing$/);
    expect(csv).toMatch(new RegExp(`^${id},.*,yes$`, 'm'));
    // Unsigned records are never listed as changed.
    const unsigned = (
      await get('audit', '/api/reports?changedAfterSigning=true&status=pending')
    ).json() as ReportPage;
    expect(unsigned.rows).toEqual([]);
  });

  it('prints a note’s line breaks as lines, not as ?', async () => {
    // Notes come from text areas: '\n', '\r\n' and '\r' each start a line of the record.
    const id = inspectionIds['insp-lc2-3'] ?? '';
    await t.services.ctx.db
      .update(inspections)
      .set({ operatorNotes: 'Walk done.\nCaps chute emptied.\r\nFloor swept.\rBins empty.' })
      .where(eq(inspections.id, id));
    const lines = (await pdfPages((await get('lcmanager2', `/api/reports/${id}/pdf`)).rawPayload))
      .join('\n')
      .split('\n');
    const first = lines.findIndex((line) => line.startsWith('Walk done.'));
    expect(lines.slice(first, first + 4)).toEqual([
      'Walk done.',
      'Caps chute emptied.',
      'Floor swept.',
      'Bins empty.',
    ]);
  });
  it('prints names and notes in their own letters, and a lost letter as ?', async () => {
    // Plants in Poland, Greece, Turkey or Russia sign with these names: Helvetica printed '?Ł'.
    // Hebrew prints, drawn right to left (pdf-script.ts); letters no font has (Devanagari) show as '?'.
    const id = inspectionIds['insp-lc2-3'] ?? '';
    await t.services.ctx.db
      .update(inspections)
      .set({ operatorNotes: 'Łukasz Wójcik, Γεώργιος, Иван, İsmail Şahin; अनिल; כהן' })
      .where(eq(inspections.id, id));
    const text = (
      await pdfPages((await get('lcmanager2', `/api/reports/${id}/pdf`)).rawPayload)
    ).join('\n');
    expect(text).toContain('Łukasz Wójcik, Γεώργιος, Иван, İsmail Şahin; ????; כהן');
    // Every page says what a '?' is: not a letter of the record.
    const note = "'?' marks a character this PDF cannot print";
    const pages = await pdfPages((await get('lcmanager2', `/api/reports/${id}/pdf`)).rawPayload);
    expect(pages.every((page) => page.includes(note))).toBe(true);
  });

  it('keeps the footer inside the page whatever the record hash holds', async () => {
    // The footer names the hash; one of wide characters (digits) ran 2 pt past the margin at 7 pt.
    const r = await report('lcmanager2', 'insp-lc2-3');
    const pdf = await reportPdf(
      t.services.ctx,
      { ...r, recordHash: '0'.repeat(64) },
      {
        at: new Date(),
        by: { name: 'Anna Auditor', email: 'audit@example.com' },
        evidence: await checkEvidenceFiles(
          t.services.ctx.storage,
          await readRecord(t.services.ctx.db, r.inspectionId),
          new Date(),
        ),
      },
    );
    for (const page of await pdfTextBoxes(Buffer.from(pdf))) {
      const footer = page.items.filter((item) => /^Page \d+ of \d+ · Printed /.test(item.str));
      expect(footer).toHaveLength(1);
      for (const item of footer) expect(item.x + item.width).toBeLessThanOrEqual(page.width - 50);
    }
  });

  it('keeps every line inside the page: a long word is cut, a SHA-256 stays whole', async () => {
    const id = inspectionIds['insp-lc2-3'] ?? '';
    const word = `batch-${'0123456789'.repeat(20)}`;
    await t.services.ctx.db
      .update(inspections)
      .set({ operatorNotes: `Checked ${word} twice` })
      .where(eq(inspections.id, id));
    const pdf = (await get('lcmanager2', `/api/reports/${id}/pdf`)).rawPayload;
    for (const page of await pdfTextBoxes(pdf)) {
      for (const item of page.items)
        expect(item.x + item.width).toBeLessThanOrEqual(page.width - 50);
    }
    const lines = (await pdfPages(pdf)).join('\n').split('\n');
    const first = lines.indexOf('Checked');
    expect(lines.slice(first + 1, first + 6).join('')).toMatch(new RegExp(`^${word} twice`));
    const sha256 = (await report('lcmanager2', 'insp-lc2-3')).video?.sha256 ?? '';
    expect(lines).toContain(sha256);
  });

  it('goes on over the page break with a long value, above the footer', async () => {
    const id = inspectionIds['insp-lc2-3'] ?? '';
    const notes = Array.from({ length: 120 }, (_, i) => `Step ${i + 1} checked`);
    await t.services.ctx.db
      .update(inspections)
      .set({ operatorNotes: notes.join('\n') })
      .where(eq(inspections.id, id));
    const pdf = (await get('lcmanager2', `/api/reports/${id}/pdf`)).rawPayload;
    const pages = await pdfTextBoxes(pdf);
    const printed = pages.flatMap((page) => page.items.map((item) => item.str));
    expect(printed.filter((text) => /^Step \d+ checked$/.test(text))).toEqual(notes);
    // Only the footer is drawn below the bottom margin (50 pt, and 30 for the footer).
    for (const page of pages) {
      for (const item of page.items.filter((item) => item.y < 80)) {
        expect(item.str).toMatch(/^Page \d+ of \d+ · Printed /);
      }
    }
  });

  it('prints a signature in the history field by field', async () => {
    const r = await report('lcmanager2', 'insp-lc2-2');
    const text = (
      await pdfPages((await get('audit', `/api/reports/${r.inspectionId}/pdf`)).rawPayload)
    ).join('\n');
    const history = text.slice(text.indexOf('Record history (')).replace(/\n/g, ' ');
    expect(history).toContain('signature.signerName: — → Daniel Okafor');
    expect(history).toContain('signature.meaning: — → approved');
    expect(history).toContain(`signature.recordHash: — → ${r.signature?.recordHash}`);
  });
});

describe('the electronic copy (JSON)', () => {
  it('holds what the record hash is taken of, the report and the whole history, and is an export', async () => {
    const [signed] = await t.services.ctx.db
      .select({ id: inspections.id })
      .from(inspections)
      .where(eq(inspections.status, 'approved'))
      .limit(1);
    const id = signed?.id ?? '';
    const before = await trail('export', id);
    const res = await get('audit', `/api/reports/${id}/record.json`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="inspection-${id}.json"`);
    const copy = res.json() as {
      format: string;
      exportedBy: { email: string };
      recordHash: string;
      hashed: unknown;
      report: InspectionReport;
      evidenceCheck: { video: { state: string } | null };
      history: { id: number; action: string; hash: string; chain: string }[];
    };
    expect(copy.format).toBe('line-clearance-record/1');
    expect(copy.exportedBy.email).toBe('audit@example.com');
    // Anyone can hash the copy again, without this system.
    const rehashed = createHash('sha256').update(canonicalJson(copy.hashed)).digest('hex');
    expect(rehashed).toBe(copy.recordHash);
    expect(copy.report).toEqual((await get('audit', `/api/reports/${id}`)).json());
    expect(copy.report.signature?.meaning).toBe('approved');
    expect(copy.report.unchangedSinceSigning).toBe(
      copy.recordHash === copy.report.signature?.recordHash,
    );
    expect(copy.evidenceCheck.video?.state).toBeDefined();
    // One export entry, naming the hash the copy carries.
    const after = await trail('export', id);
    expect(after.length).toBe(before.length + 1);
    const written = after.at(-1);
    expect(written?.newValue).toMatchObject({
      file: `inspection-${id}.json`,
      recordHash: copy.recordHash,
    });
    // The whole history as /audit answers it (oldest first), up to this copy's own export entry,
    // each entry with its chain hashes, checked.
    const history = await get('audit', `/api/audit-log?record=${id}&limit=1000`);
    const entryIds = (history.json() as { id: number }[])
      .map((entry) => entry.id)
      .sort((a, b) => a - b);
    expect(entryIds.at(-1)).toBe(written?.id);
    expect(copy.history.map((entry) => entry.id)).toEqual(entryIds.slice(0, -1));
    expect(copy.history.map((entry) => entry.action)).toContain('approve');
    expect(copy.history.every((entry) => entry.chain === 'ok' && entry.hash.length === 64)).toBe(
      true,
    );
  });
});

describe('checking the signed records in the background', () => {
  it('answers 202 at once, is followed by GET, and a second start joins the run going', async () => {
    const signed = (await t.services.ctx.db.select().from(inspections)).filter(
      (row) => row.status !== 'pending',
    ).length;
    const refused = await get('lcmanager', CHECK_SIGNATURES);
    expect(refused.statusCode).toBe(403);
    const started = await t.app.inject({
      method: 'POST',
      url: CHECK_SIGNATURES,
      headers: auth.audit,
    });
    expect(started.statusCode).toBe(202);
    const run = started.json() as SignatureCheck;
    if (run.state !== 'running') throw new Error(`the check started ${run.state}`);
    expect(run.startedBy).toEqual({ id: ids.audit, name: 'Helen Park' });
    const joined = await t.app.inject({
      method: 'POST',
      url: CHECK_SIGNATURES,
      headers: auth.factory,
    });
    expect(joined.statusCode).toBe(202);
    expect(joined.json()).toMatchObject({
      state: 'running',
      startedAt: run.startedAt,
      startedBy: { id: ids.audit },
    });
    const following = (await get('factory', CHECK_SIGNATURES)).json() as SignatureCheck;
    expect(following).toMatchObject({ state: 'running', startedAt: run.startedAt });
    const done = await checkSignatures('admin');
    // The admin's start came after the end, so it may be a run of its own; it is finished.
    expect(done).toMatchObject({ state: 'finished', checked: signed, total: signed });
    if (done.state !== 'finished') throw new Error('not finished');
    expect(Date.parse(done.finishedAt)).toBeGreaterThanOrEqual(Date.parse(done.startedAt));
    // The last run's outcome stays readable.
    expect((await get('audit', CHECK_SIGNATURES)).json()).toEqual(done);
  });

  it('takes no heavy-work turn: it finishes while other work holds both', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const turns = [inTurn(t.app, () => held), inTurn(t.app, () => held)];
    try {
      const done = await checkSignatures('audit');
      expect(done.state).toBe('finished');
    } finally {
      release();
      await Promise.all(turns);
    }
  });
});

describe('/reports', () => {
  it('lists each role’s scope, filtered, newest first, in keyset pages', async () => {
    const list = async (who: string, query = '') =>
      (await get(who, `/api/reports?${query}`)).json() as ReportPage;
    // The demo's and the six the tests above added (a legacy one, three submits around the late
    // limit, one without a path, the manager's own).
    expect((await list('admin')).rows).toHaveLength(dataset.inspections.length + 6);
    expect((await list('audit')).rows).toHaveLength(dataset.inspections.length + 6);
    const mine = (await list('operator')).rows;
    expect(mine.every((row) => row.operatorId === ids.operator)).toBe(true);
    const lc2 = (await list('lcmanager2')).rows;
    expect(lc2.every((row) => row.lineName === 'Bottling Line 2')).toBe(true);
    const all = (await list('admin')).rows.map((row) => row.startTime);
    expect(all).toEqual([...all].sort().reverse());

    const first = await list('admin', 'limit=3');
    expect(first.rows).toHaveLength(3);
    const second = await list('admin', `limit=3&after=${first.next}`);
    expect(second.rows[0]?.startTime.localeCompare(first.rows[2]?.startTime ?? '')).toBeLessThan(0);
    const oldest = await list('admin', 'sort=startTime&limit=1');
    expect(oldest.rows[0]?.startTime).toBe(all[all.length - 1]);

    const approved = (await list('admin', 'status=approved')).rows;
    expect(approved.every((row) => row.status === 'approved')).toBe(true);
    expect(approved.find((row) => row.inspectionId === inspectionIds['insp-lc2-2'])).toMatchObject({
      signerName: 'Daniel Okafor',
    });
    const flagged = (await list('admin', 'flagged=true')).rows;
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged.every((row) => (row.flags ?? 0) > 0)).toBe(true);
    const range = (await list('admin', 'from=2026-11-10T00:00:00.000Z&to=2026-11-15T00:00:00.000Z'))
      .rows;
    expect(
      range.every((row) => row.startTime >= '2026-11-10' && row.startTime < '2026-11-15'),
    ).toBe(true);
    const bad = await get('admin', '/api/reports?status=done');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^query\.status /);
    const beyondDates = await get('admin', `/api/reports?after=8640000000000001_${'f'.repeat(24)}`);
    expect(beyondDates.statusCode).toBe(400);
    expect(beyondDates.json().message).toBe(
      'query.after must be the `next` cursor of the previous page',
    );
  });

  it('gives the total that matches the filters, the same on every page', async () => {
    const list = async (who: string, query: string) =>
      (await get(who, `/api/reports?${query}`)).json() as ReportPage;
    for (const [who, query] of [
      ['admin', ''],
      ['admin', 'status=pending'],
      ['admin', 'status=pending&flagged=true&sort=startTime'],
      ['lcmanager2', 'status=approved'],
      ['operator', ''],
    ] as const) {
      const all = await list(who, `${query}&limit=200`);
      expect(all.next).toBeNull();
      expect(all.total).toEqual({ count: all.rows.length, more: false });
      // A later page of the same filters counts them all, not what is left after its cursor.
      const first = await list(who, `${query}&limit=1`);
      const second = await list(who, `${query}&limit=1&after=${first.next}`);
      expect(first.total).toEqual(all.total);
      if (first.next) expect(second.total).toEqual(all.total);
    }
    expect((await list('admin', 'status=pending')).total.count).toBeGreaterThan(0);
  });

  it('offers as filter choices only the lines and operators of the caller’s reports', async () => {
    // An operator who inspected only the other line: not a choice for Bottling Line 2's manager.
    const newcomer = await createUser(t, 'filters-newcomer', ['operator']);
    await addInspection('newcomer', eq(lineClearances.name, 'Blister Line 1'), {
      operatorId: newcomer.id,
      startTime: new Date('2026-10-27T09:00:00Z'),
    });
    const filters = async (who: string) =>
      (await get(who, '/api/reports/filters')).json() as ReportFilters;
    const inScope = async (who: string) =>
      (await get(who, '/api/reports?limit=200')).json() as ReportPage;
    for (const who of ['admin', 'audit', 'lcmanager2', 'operator']) {
      const { rows } = await inScope(who);
      const choices = await filters(who);
      const distinct = (pairs: [string, string][]) =>
        [...new Map(pairs).entries()]
          .map(([id, name]) => ({ id, name }))
          .sort((a, b) => a.name.localeCompare(b.name));
      expect(choices.lines).toEqual(
        distinct(rows.map((row) => [row.lineClearanceId, row.lineName])),
      );
      expect(choices.operators).toEqual(
        distinct(rows.map((row) => [row.operatorId, row.operatorName])),
      );
    }
    // An LC manager is offered its line and the operators who inspected it, not everyone.
    const lc2 = await filters('lcmanager2');
    expect(lc2.lines.map((line) => line.name)).toEqual(['Bottling Line 2']);
    expect((await filters('admin')).operators.map((o) => o.id)).toContain(newcomer.id);
    expect(lc2.operators.map((o) => o.id)).not.toContain(newcomer.id);
    expect((await filters('operator')).operators.map((o) => o.id)).toEqual([ids.operator]);
  });

  it('exports CSV per RFC 4180 with formula cells neutralised', async () => {
    const [line] = await t.services.ctx.db
      .update(lineClearances)
      .set({ name: '=HYPERLINK("http://x","a, b")' })
      .where(eq(lineClearances.name, 'Blister Line 1'))
      .returning();
    const res = await get('admin', `/api/reports.csv?lineClearanceId=${line?.id}`);
    expect(res.headers['content-type']).toContain('text/csv');
    // A byte order mark first, so that Excel reads the names as UTF-8.
    expect(res.body.startsWith('\ufeff')).toBe(true);
    const lines = res.body.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'Inspection,Start (UTC),End (UTC),Received (UTC),Line,Operator,Product leaving,Batch leaving,Product coming,Batch coming,Operator notes,Status,Flags,Critical or high flags,Video SHA-256,Signed by,Signer email,Signed at (UTC),Meaning,Signature notes,Signed record hash,Changed after signing',
    );
    expect(lines[1]).toContain(`,"'=HYPERLINK(""http://x"",""a, b"")",`);
    expect(lines.at(-1)).toBe('');
    // A signed record says whether it changed (no), a pending one says nothing: it signed nothing.
    const rows = lines.slice(1, -1);
    const lastCell = (status: string) =>
      rows.filter((row) => row.split(',').includes(status)).map((row) => row.split(',').at(-1));
    const signed = [...lastCell('approved'), ...lastCell('rejected')];
    expect(signed.length).toBeGreaterThan(0);
    for (const cell of signed) expect(['no', 'yes']).toContain(cell);
    for (const cell of lastCell('pending')) expect(cell).toBe('');
    // A signed row is the signature as the report shows it: signer, meaning, notes and hash.
    const [signature] = await t.services.ctx.db
      .select()
      .from(signatures)
      .innerJoin(inspections, eq(inspections.id, signatures.inspectionId))
      .where(eq(inspections.lineClearanceId, line?.id ?? ''))
      .limit(1);
    const signedRow = rows.find((row) => row.startsWith(signature?.inspections.id ?? '-')) ?? '';
    expect(signedRow.split(',')[3]).toBe(signature?.inspections.receivedAt?.toISOString());
    for (const field of ['signerEmail', 'statement', 'recordHash'] as const) {
      expect(signedRow).toContain(signature?.signatures[field]);
    }
  });
});

describe('/reports total at plant scale', () => {
  it('counts up to the cap and then says there are more', async () => {
    const app = await build();
    try {
      const admin = await createUser(app, 'total-admin', ['admin']);
      const { db } = app.services.ctx;
      await db.execute(sql`
        insert into line_clearances (id, name) values (lpad('1', 24, '0'), 'Line 1')`);
      const insert = (from: number, to: number, status: string) =>
        db.execute(sql`
          insert into inspections (id, line_clearance_id, operator_id, start_time, status)
          select lpad(to_hex(1000000 + i), 24, '0'), lpad('1', 24, '0'), ${admin.id},
            timestamptz '2024-01-01' + i * interval '7 minutes', ${status}
          from generate_series(${from}::int, ${to}::int) i`);
      await insert(1, TOTAL_CAP + 1, 'pending');
      await insert(TOTAL_CAP + 2, TOTAL_CAP + 11, 'approved');
      const total = async (query: string) =>
        (
          (
            await app.app.inject({ url: `/api/reports?${query}`, headers: admin.auth })
          ).json() as ReportPage
        ).total;
      expect(await total('status=pending')).toEqual({ count: TOTAL_CAP, more: true });
      expect(await total('limit=5')).toEqual({ count: TOTAL_CAP, more: true });
      expect(await total('status=approved&limit=5')).toEqual({ count: 10, more: false });

      // The CSV holds every match, read a batch at a time: none lost or repeated across batches.
      await insert(TOTAL_CAP + 12, CSV_BATCH + 5, 'rejected');
      const csv = await app.app.inject({
        url: '/api/reports.csv?sort=startTime',
        headers: admin.auth,
      });
      const ids = csv.body
        .split('\r\n')
        .slice(1, -1)
        .map((row) => row.split(',')[0]);
      expect(ids).toHaveLength(CSV_BATCH + 5);
      expect(new Set(ids).size).toBe(CSV_BATCH + 5);
      expect(ids).toEqual([...ids].sort());
    } finally {
      await app.close();
    }
  });
});

describe('the audit trail', () => {
  it('is a hash chain that concurrent writers cannot fork', async () => {
    await Promise.all(
      Array.from({ length: 12 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: 'nobody@example.com', password: 'wrong-password' },
        }),
      ),
    );
    const res = await get('audit', '/api/audit-log/verify');
    expect(res.json()).toMatchObject({ ok: true, firstBroken: null });
    expect(res.json().checked).toBeGreaterThan(20);
    const page = (await get('audit', '/api/audit-log?limit=2')).json();
    expect(page[0].prevHash).toBe(page[1].hash);
    expect((await get('lcmanager', '/api/audit-log/verify')).statusCode).toBe(403);
  });

  it('filters by actor, action, object and time, and exports CSV', async () => {
    const inspectionId = inspectionIds['insp-lc2-2'] ?? '';
    const entries = (
      await get(
        'audit',
        `/api/audit-log?actor=${encodeURIComponent('LCManager2@example.com')}&entity=inspection&entityId=${inspectionId}`,
      )
    ).json() as { action: string }[];
    expect(entries.map((e) => e.action).sort()).toEqual([
      'approve',
      'disposition',
      'disposition',
      'disposition',
      // Its tries on the record once signed (a disposition, a second signature).
      'evidence.protected',
      'evidence.protected',
      // The PDF it printed of the record.
      'export',
      'signature.failed',
    ]);
    // Part of the email finds the same entries; LIKE's wildcards typed match only themselves.
    const byPart = await get(
      'audit',
      `/api/audit-log?actor=MANAGER2&entity=inspection&entityId=${inspectionId}`,
    );
    expect(byPart.json()).toHaveLength(entries.length);
    for (const wildcard of ['%', '_cmanager2', 'lcmanager\\']) {
      const none = await get('audit', `/api/audit-log?actor=${encodeURIComponent(wildcard)}`);
      expect(none.json(), wildcard).toEqual([]);
    }
    const future = await get('audit', '/api/audit-log?from=2999-01-01T00:00:00.000Z');
    expect(future.json()).toEqual([]);
    const csv = await get('audit', `/api/audit-log.csv?action=approve`);
    expect(csv.body.split('\r\n')[0]).toMatch(/^\ufeffid,at \(UTC\),actor id,actor email,action,/);
  });

  it('reports the first row edited behind the server’s back', async () => {
    const { db } = t.services.ctx;
    // The check of docs/audit-trail.md, in SQL alone.
    const sqlCheck = async () =>
      (
        (await db.execute(sql`
          select id from (
            select id, hash, prev_hash,
              lag(hash, 1, repeat('0', 64)) over (order by id) as expected_prev,
              encode(sha256(convert_to(prev_hash || audit_log_canonical(a), 'UTF8')), 'hex') as recomputed
            from audit_log a) t
          where prev_hash <> expected_prev or hash <> recomputed
          order by id limit 1`)) as unknown as { rows: { id: string }[] }
      ).rows.map((row) => Number(row.id));
    expect(await sqlCheck()).toEqual([]);
    const [target] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'approve')));
    await db.transaction(async (tx) => {
      // As a database superuser could: with triggers off, the append-only guard does not fire.
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(
        sql`update audit_log set new_value = '{"status":"rejected"}' where id = ${target?.id}`,
      );
    });
    const res = await get('audit', '/api/audit-log/verify');
    expect(res.json()).toMatchObject({
      ok: false,
      firstBroken: { id: target?.id, problem: 'hash' },
    });
    expect(await sqlCheck()).toEqual([target?.id]);
    // The record's PDF marks the edited entry in its history, and says so above it.
    const text = (
      await pdfPages((await get('audit', `/api/reports/${target?.entityId}/pdf`)).rawPayload)
    )
      .join('\n')
      .replace(/\n/g, ' ');
    expect(text).toContain(
      "WARNING: 1 of these entries does not verify against the audit trail's hash chain",
    );
    expect(text).toMatch(
      new RegExp(
        `approve inspection \\(entry ${target?.id}\\) NOT VERIFIED: its content no longer matches its hash`,
      ),
    );
  });

  it('counts every entry that does not verify, past the first break', async () => {
    const { db } = t.services.ctx;
    const ids = (await db.select({ id: auditLog.id }).from(auditLog).orderBy(auditLog.id)).map(
      (row) => row.id,
    );
    // The approve entry edited above; now a later entry edited, and one removed.
    const [edited, removed] = [ids.at(-3) ?? 0, ids.at(-2) ?? 0];
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(
        sql`update audit_log set actor_email = 'x@example.com' where id = ${edited}`,
      );
      await tx.execute(sql`delete from audit_log where id = ${removed}`);
    });
    const res = (await get('audit', '/api/audit-log/verify')).json();
    expect(res).toMatchObject({
      ok: false,
      checked: ids.length - 1,
      headHash: null,
      brokenCount: 3,
      broken: [
        { id: res.firstBroken.id, problem: 'hash' },
        { id: edited, problem: 'hash' },
        // The entry after the removed one no longer links to the entry before it.
        { id: ids.at(-1), problem: 'link' },
      ],
    });
  });
});
