// A reviewer's decision on a detection is never silently lost when the analysis is replaced (QA):
// ingested results with the same detection carry the decision over; a decision whose detection is
// gone stays with the detection as it was, in the report, its flags, the trail, the PDF and the
// signed hash. PGlite by default, PostgreSQL with TEST_DATABASE_URL.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfPages } from '../../tests/support/pdf-text.ts';
import { makeTestVideo } from '../../tests/support/test-video.ts';
import { auditLog, dispositions, videos } from '../db/schema.ts';
import type { InspectionReport, ReplacedDetection } from '../schemas/reports.ts';
import { createLine, createRecordedInspection } from '../test/analysis-fixtures.ts';
import { build, type TestApp } from '../test/build.ts';
import { createRoleUsers, PASSWORD, type RoleUsers } from '../test/fixtures.ts';

let t: TestApp;
let people: RoleUsers;
let key: string;
let videoId: string;
let inspectionId: string;
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const debris = {
  filename: '1.000.png',
  class_labels: ['debris'],
  confs: [0.97],
  boxes_normalized: [[0.1, 0.2, 0.3, 0.4]],
};
const tool = {
  filename: '2.000.png',
  class_labels: ['tool', 'carton'],
  confs: [0.8, 0.75],
  boxes_normalized: [
    [0.5, 0.5, 0.6, 0.7],
    [0.1, 0.1, 0.2, 0.2],
  ],
};
const results = (analysisVersion: string, predictions: object[]) => ({
  analysisVersion,
  keyframes: '0 1.0 2.0 1.000 1.000.png\n1 1.5 2.0 2.000 2.000.png\n',
  predictions,
  images: ['1.000.png', '2.000.png'].map((filename) => ({
    filename,
    data: PNG_1PX.toString('base64'),
  })),
});

beforeAll(async () => {
  t = await build();
  people = await createRoleUsers(t);
  const lineId = await createLine(t, people.lc.id, people.operator.id);
  const file = makeTestVideo(3, { dir: t.dataDir });
  ({ videoId, inspectionId } = await createRecordedInspection(t, {
    lineId,
    operatorId: people.operator.id,
    file,
  }));
  // The file as verified on arrival: an approval checks it against its SHA-256.
  const sha256 = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  await t.services.ctx.db.update(videos).set({ sha256 }).where(eq(videos.id, videoId));
  const account = await t.app.inject({
    method: 'POST',
    url: '/api/service-accounts',
    headers: people.admin.auth,
    payload: { name: 'External detector' },
  });
  key = account.json().key;
});
afterAll(() => t?.close());

const ingest = async (body: object) => {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/ingest/videos/${videoId}/analysis`,
    headers: { authorization: `Bearer ${key}` },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  const [entry] = await t.services.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'analysis.ingest'), eq(auditLog.entityId, videoId)))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return entry?.newValue as { decisions?: unknown } | undefined;
};
const report = async () =>
  (
    await t.app.inject({ url: `/api/reports/${inspectionId}`, headers: people.lc.auth })
  ).json() as InspectionReport;
const dispose = (predictionId: string, payload: object) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/inspections/${inspectionId}/dispositions/${predictionId}`,
    headers: people.lc.auth,
    payload,
  });
const byFile = (r: InspectionReport, filename: string) =>
  r.detections.find((d) => d.filename === filename);

const CONFIRMED = 'Loose debris on the conveyor belt, removed by the operator';
const DISMISSED = 'Reflection on the guard rail, not an object';

describe('decisions when the analysis is replaced', () => {
  let debrisId = '';
  let toolId = '';

  it('moves a decision to the same detection of new results, and the trail names it', async () => {
    await ingest(results('detector 1', [debris, tool]));
    const first = await report();
    debrisId = byFile(first, '1.000.png')?.predictionId ?? '';
    toolId = byFile(first, '2.000.png')?.predictionId ?? '';
    expect(
      (await dispose(debrisId, { disposition: 'confirmed', reason: CONFIRMED })).statusCode,
    ).toBe(200);
    expect(
      (await dispose(toolId, { disposition: 'dismissed', reason: DISMISSED })).statusCode,
    ).toBe(200);

    const entry = await ingest(results('detector 1', [debris, tool]));
    const again = await report();
    const [newDebris, newTool] = [byFile(again, '1.000.png'), byFile(again, '2.000.png')];
    expect(newDebris?.predictionId).not.toBe(debrisId);
    expect(newDebris?.disposition).toMatchObject({
      predictionId: newDebris?.predictionId,
      disposition: 'confirmed',
      reason: CONFIRMED,
      reviewerId: people.lc.id,
    });
    expect(newTool?.disposition).toMatchObject({ disposition: 'dismissed', reason: DISMISSED });
    expect(again.replacedDecisions).toEqual([]);
    expect(again.flags.some((f) => f.kind === 'replaced-finding')).toBe(false);
    const who = { inspectionId, reviewerId: people.lc.id, reviewerName: 'Test lc' };
    expect(entry?.decisions).toEqual({
      carriedOver: expect.arrayContaining([
        { ...who, predictionId: debrisId, to: newDebris?.predictionId, disposition: 'confirmed' },
        { ...who, predictionId: toolId, to: newTool?.predictionId, disposition: 'dismissed' },
      ]),
      replaced: [],
    });
    debrisId = newDebris?.predictionId ?? '';
    toolId = newTool?.predictionId ?? '';
  });

  it('keeps a decision whose detection is gone with it: shown, flagged first and in the trail', async () => {
    // The detector's new version scores the debris lower: another detection, undecided.
    const entry = await ingest(results('detector 2', [{ ...debris, confs: [0.95] }, tool]));
    const r = await report();
    expect(byFile(r, '1.000.png')?.disposition).toBeNull();
    expect(byFile(r, '2.000.png')?.disposition).toMatchObject({ disposition: 'dismissed' });
    expect(r.replacedDecisions).toEqual([
      {
        predictionId: debrisId,
        disposition: 'confirmed',
        reason: CONFIRMED,
        reviewerId: people.lc.id,
        reviewerName: 'Test lc',
        at: expect.any(String),
        detection: {
          filename: '1.000.png',
          subfolder: videoId,
          labels: ['debris'],
          confs: [0.97],
          boxes: [[0.1, 0.2, 0.3, 0.4]],
          time: 1,
          analysisVersion: 'detector 1',
          replacedAt: expect.any(String),
        },
      },
    ]);
    // A reviewer sees it before anything else that does not block an approval.
    expect(r.flags[0]).toEqual({
      kind: 'replaced-finding',
      severity: 'high',
      text: 'Confirmed finding on a replaced detection: debris 97% at 1.00 s, confirmed by Test lc; the current analysis no longer holds it',
      time: 1,
      ref: debrisId,
      decision: 'confirmed',
    });
    // Open among the missed tags of a record without a path, and counted as a finding.
    expect(r.approvalExceptions).toMatch(/flags are open \(1 detection confirmed as a finding\)$/);
    const who = { inspectionId, reviewerId: people.lc.id, reviewerName: 'Test lc' };
    expect(entry?.decisions).toEqual({
      carriedOver: [
        {
          ...who,
          predictionId: toolId,
          to: byFile(r, '2.000.png')?.predictionId,
          disposition: 'dismissed',
        },
      ],
      replaced: [
        {
          ...who,
          predictionId: debrisId,
          disposition: 'confirmed',
          keyframe: '1.000.png',
          labels: ['debris'],
        },
      ],
    });
    // Still replaced after one more run: it stays as it was kept.
    await ingest(results('detector 2', [{ ...debris, confs: [0.95] }, tool]));
    expect((await report()).replacedDecisions[0]?.detection?.analysisVersion).toBe('detector 1');
  });

  it('signs the replaced decisions with the record, and prints them', async () => {
    const { db } = t.services.ctx;
    const r = await report();
    const kept = r.replacedDecisions[0]?.detection as ReplacedDetection;
    const row = and(
      eq(dispositions.inspectionId, inspectionId),
      eq(dispositions.predictionId, debrisId),
    );
    // The hash covers what the reviewer is shown of it.
    await db
      .update(dispositions)
      .set({ replaced: { ...kept, confs: [0.5] } })
      .where(row);
    expect((await report()).recordHash).not.toBe(r.recordHash);
    await db.update(dispositions).set({ replaced: kept }).where(row);
    expect((await report()).recordHash).toBe(r.recordHash);

    const approve = (notes: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/inspections/${inspectionId}/approve`,
        headers: people.lc.auth,
        payload: { notes, userId: people.lc.email, password: PASSWORD, recordHash: r.recordHash },
      });
    const bare = await approve('Approved by LC Manager');
    expect(bare.statusCode).toBe(400);
    expect(bare.json().message).toContain('(1 detection confirmed as a finding)');
    const signed = await approve('The debris was removed and the line checked clear again');
    expect(signed.statusCode, signed.body).toBe(200);
    const after = await report();
    expect(after.signature?.recordHash).toBe(after.recordHash);
    expect(after.unchangedSinceSigning).toBe(true);
    expect(after.replacedDecisions).toHaveLength(1);

    const pdf = await t.app.inject({
      url: `/api/reports/${inspectionId}/pdf`,
      headers: people.lc.auth,
    });
    const text = (await pdfPages(pdf.rawPayload)).join('\n').replace(/\n/g, ' ');
    expect(text).toContain('Decisions on replaced detections (1)');
    expect(text).toContain('debris 97% at 1.00 s (1.000.png; from analysis detector 1, replaced');
    expect(text).toContain(`Confirmed finding by Test lc`);

    // Changed behind the server's back after signing: the record no longer matches its signature.
    await db
      .update(dispositions)
      .set({ replaced: { ...kept, labels: ['carton'] } })
      .where(row);
    expect((await report()).unchangedSinceSigning).toBe(false);
  });
});
