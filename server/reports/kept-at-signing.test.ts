// What a signature keeps (docs/signatures.md): a signed record is redrawn on the floor plan and
// configuration it was signed on, and prints the operator's and line's names it was signed with,
// however they change later; the kept image is served and never deleted; a change to what was kept,
// behind the server's back, shows as a change since signing; and an analysed video's own
// calibration maps the report's path as the path player maps it.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfPages } from '../../tests/support/pdf-text.ts';
import {
  auditLog,
  devices,
  inspections,
  lineClearances,
  signatures,
  users,
  videos,
} from '../db/schema.ts';
import { DEMO_PASSWORD, loadDemo } from '../demo/load-demo.ts';
import type { FloorplanConfig, FloorplanConfiguration } from '../schemas/floorplan-configs.ts';
import type { InspectionReport, ReportRow } from '../schemas/reports.ts';
import { build, type TestApp } from '../test/build.ts';
import { dataset, files } from '../test/demo-dataset.ts';
import { multipartBody } from '../test/multipart.ts';
import { layoutDigest, recordLayout } from './layout.ts';
import { readRecord, recordHash } from './record.ts';

const otherPlan = fs.readFileSync(
  new URL('../demo/files/floorplans/bottling-line-2.png', import.meta.url),
);

let t: TestApp;
const auth: Record<string, { authorization: string }> = {};

beforeAll(async () => {
  t = await build();
  await loadDemo(t.services.ctx, dataset, files);
  for (const who of ['admin', 'lcmanager', 'lcmanager2', 'audit']) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: `${who}@example.com`, password: DEMO_PASSWORD },
    });
    auth[who] = { authorization: `Bearer ${res.json().token}` };
  }
});
afterAll(() => t.close());

const get = (url: string, who = 'audit') => t.app.inject({ url, headers: auth[who] });
const reportOf = async (id: string) => (await get(`/api/reports/${id}`)).json() as InspectionReport;
/** The checklist and coverage as drawn: what must not move once signed. */
const drawn = (r: InspectionReport) => ({ checklist: r.checklist, coverage: r.coverage });

async function lineByName(name: string) {
  const [line] = await t.services.ctx.db
    .select()
    .from(lineClearances)
    .where(eq(lineClearances.name, name));
  if (!line) throw new Error(`no line ${name}`);
  return line;
}

/** A line's inspection with a video, in the given status. */
async function inspectionOf(lineId: string, status: string) {
  const rows = await t.services.ctx.db
    .select()
    .from(inspections)
    .where(eq(inspections.lineClearanceId, lineId));
  const row = rows.find((r) => r.status === status && r.videoId);
  if (!row?.videoId) throw new Error(`no ${status} inspection with a video`);
  return { id: row.id, videoId: row.videoId };
}

describe('the layout a signature keeps', () => {
  it('redraws a signed record on the plan it was signed on after the line’s plan changes', async () => {
    const line = await lineByName('Blister Line 1');
    const signed = await inspectionOf(line.id, 'approved');
    const before = await reportOf(signed.id);
    expect(before.unchangedSinceSigning).toBe(true);
    const keptUrl = before.coverage?.imageUrl;
    expect(keptUrl).toMatch(/^\/api\/floorplans\/[0-9a-f]{24}\.png$/);
    const keptBytes = (await get(keptUrl ?? '')).rawPayload;
    expect(before.coverage).toMatchObject({
      asSigned: true,
      floorplanSha256: createHash('sha256').update(keptBytes).digest('hex'),
    });
    const keptConfig = (await get(`/api/floorplan-configs/${signed.videoId}`)).json();
    expect(keptConfig.configuration.floorplanImage).toBe(keptUrl);

    // The manager replaces the plan and moves every zone and tag and the calibration.
    const body = multipartBody(
      { name: 'New plan', lineID: line.id },
      { field: 'image', filename: 'new.png', contentType: 'image/png', bytes: otherPlan },
    );
    const replaced = await t.app.inject({
      method: 'POST',
      url: '/api/floorplans',
      headers: { ...auth.lcmanager, ...body.headers },
      payload: body.payload,
    });
    expect(replaced.statusCode).toBe(201);
    const current = (await get(`/api/floorplan-configs/line-clearance/${line.id}`)).json();
    const { configuration } = current as FloorplanConfig;
    const moved = {
      ...configuration,
      floorplanImage: replaced.json().imagePath,
      slamPoints: configuration.slamPoints?.map(([x, y]) => [y, x]),
      hotZones: configuration.hotZones.map((z) => ({ ...z, x: z.x + 150, y: z.y + 90 })),
      tags: configuration.tags.map((tag) => ({ ...tag, x: tag.x + 150 })),
    };
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/floorplan-configs',
      headers: auth.lcmanager,
      payload: {
        lineClearanceId: line.id,
        floorplanId: replaced.json()._id,
        name: 'Moved',
        configuration: moved,
      },
    });
    expect(saved.statusCode).toBeLessThan(300);

    const after = await reportOf(signed.id);
    expect(after.unchangedSinceSigning).toBe(true);
    expect(drawn(after)).toEqual(drawn(before));
    const image = await get(keptUrl ?? '');
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.equals(keptBytes)).toBe(true);
    expect((await get(`/api/floorplan-configs/${signed.videoId}`)).json()).toEqual(keptConfig);

    // A record not yet signed is drawn on the plan as it is now.
    const pending = await reportOf((await inspectionOf(line.id, 'pending')).id);
    if (pending.coverage) {
      expect(pending.coverage).toMatchObject({
        imageUrl: replaced.json().imagePath,
        asSigned: false,
        floorplanSha256: createHash('sha256').update(otherPlan).digest('hex'),
      });
    }
    const pdf = await get(`/api/reports/${signed.id}/pdf`);
    expect((await pdfPages(pdf.rawPayload)).join(' ').replace(/\s+/g, ' ')).toContain(
      `Drawn on the floor plan kept with the signature (image SHA-256 ${before.coverage?.floorplanSha256}).`,
    );

    // Deleting the plan keeps the image a signature names and removes the one none does.
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/floorplans/${replaced.json()._id}`,
      headers: auth.lcmanager,
    });
    expect(gone.statusCode).toBe(200);
    expect((await get(replaced.json().imagePath)).statusCode).toBe(404);
    expect((await get(keptUrl ?? '')).statusCode).toBe(200);
    expect(drawn(await reportOf(signed.id))).toEqual(drawn(before));
  });

  it('shows a kept layout changed behind the server’s back as a change since signing', async () => {
    const line = await lineByName('Bottling Line 2');
    const signed = await inspectionOf(line.id, 'approved');
    const r = await reportOf(signed.id);
    expect(r.unchangedSinceSigning).toBe(true);
    const key = `floorplans/${r.coverage?.imageUrl?.split('/').pop()}`;
    const { storage, db } = t.services.ctx;
    const original = Buffer.concat(await storage.read(key).toArray());

    await storage.put(key, Buffer.concat([original, Buffer.from([0])]));
    expect((await reportOf(signed.id)).unchangedSinceSigning).toBe(false);
    await storage.put(key, original);
    expect((await reportOf(signed.id)).unchangedSinceSigning).toBe(true);

    const [row] = await db.select().from(signatures).where(eq(signatures.inspectionId, signed.id));
    await db.execute(
      sql`update signatures set kept = jsonb_set(kept, '{layout,config,configuration,displaySize,width}', '640')
          where inspection_id = ${signed.id}`,
    );
    expect((await reportOf(signed.id)).unchangedSinceSigning).toBe(false);
    await db
      .update(signatures)
      .set({ kept: row?.kept })
      .where(eq(signatures.inspectionId, signed.id));
    expect((await reportOf(signed.id)).unchangedSinceSigning).toBe(true);
  });

  it('checks a signature made before layouts were kept without one', async () => {
    const line = await lineByName('Blister Line 1');
    const signed = await inspectionOf(line.id, 'rejected');
    const { db } = t.services.ctx;
    const record = await readRecord(db, signed.id);
    const fields = record.signature;
    if (!fields) throw new Error('the demo inspection is signed');
    // Signed today: under the current rules, so no flag is newer than its signature.
    expect((await reportOf(signed.id)).flagsSinceSigning).toBeNull();
    await db
      .update(signatures)
      .set({ kept: null, recordHash: recordHash(record, fields, null) })
      .where(eq(signatures.inspectionId, signed.id));
    const r = await reportOf(signed.id);
    expect(r.signature?.recordHash).toBe(recordHash(record, fields, null));
    expect(r.unchangedSinceSigning).toBe(true);
    // 'Unchanged' covers less here, and the record says what it leaves out.
    expect(r.notCoveredBySignature).toBe(
      'Signed by an earlier release, before the operator’s and line’s names, the floor plan, the analysis’s files (path, detections, QR code scans) and the recording device’s name and id were kept with signatures: they are shown as they are now, and a change to them since signing is not detected.',
    );
    // Its signer saw the flags of the rules then (version 1): the report says which came since.
    expect(r.flagsSinceSigning).toBe(
      'Signed under earlier report rules (version 1): its signer did not see the flags added since, which this report raises: ‘Submitted late’ (received over 60 minutes after the recording ended); ‘Confirmed finding on a replaced detection’ (a finding a reviewer confirmed, no longer in the analysis); ‘Object detection was not run’ (a finished analysis whose keyframe images no detector checked).',
    );
    const pdf = await get(`/api/reports/${signed.id}/pdf`);
    const printed = (await pdfPages(pdf.rawPayload)).join(' ').replace(/\s+/g, ' ');
    expect(printed).toContain(
      'they are shown as they are now, and a change to them since signing is not detected.',
    );
    expect(printed).toContain('its signer did not see the flags added since');
  });
});

describe('the names a signature keeps', () => {
  it('prints the operator and line as signed after either is renamed', async () => {
    const line = await lineByName('Bottling Line 2');
    const signed = await inspectionOf(line.id, 'approved');
    const pending = await inspectionOf(line.id, 'pending');
    const before = await reportOf(signed.id);
    const { db } = t.services.ctx;
    const [row] = await db.select().from(inspections).where(eq(inspections.id, signed.id));
    const [operator] = await db
      .select()
      .from(users)
      .where(eq(users.id, row?.operatorId ?? ''));
    if (!operator) throw new Error('the demo inspection has an operator');
    await db.update(users).set({ name: 'Renamed Operator' }).where(eq(users.id, operator.id));
    await db
      .update(lineClearances)
      .set({ name: 'Renamed Line' })
      .where(eq(lineClearances.id, line.id));

    const after = await reportOf(signed.id);
    expect([after.operatorName, after.lineName]).toEqual([before.operatorName, before.lineName]);
    expect(after.unchangedSinceSigning).toBe(true);
    const text = (await pdfPages((await get(`/api/reports/${signed.id}/pdf`)).rawPayload)).join(
      '\n',
    );
    expect(text).toContain(before.lineName);
    expect(text).not.toContain('Renamed Line');
    expect(text).not.toContain('Renamed Operator');
    // A record not yet signed shows the names as they are now.
    expect((await reportOf(pending.id)).lineName).toBe('Renamed Line');
    // /reports and its CSV agree with the signed report.
    const rows = (await get(`/api/reports?lineClearanceId=${line.id}&limit=200`)).json()
      .rows as ReportRow[];
    const listed = (id: string) => rows.find((r) => r.inspectionId === id);
    expect(listed(signed.id)).toMatchObject({
      lineName: before.lineName,
      operatorName: before.operatorName,
    });
    expect(listed(pending.id)?.lineName).toBe('Renamed Line');
    const csv = (await get(`/api/reports.csv?lineClearanceId=${line.id}`)).body;
    const signedLine = csv.split('\r\n').find((l) => l.includes(signed.id)) ?? '';
    expect(signedLine).toContain(before.lineName);
    expect(signedLine).not.toContain('Renamed');

    // The kept names are hashed: an edit behind the server's back shows.
    await db.execute(
      sql`update signatures set kept = jsonb_set(kept, '{operatorName}', '"Someone Else"')
          where inspection_id = ${signed.id}`,
    );
    const forged = await reportOf(signed.id);
    expect(forged.operatorName).toBe('Someone Else');
    expect(forged.unchangedSinceSigning).toBe(false);
    await db.update(users).set({ name: operator.name }).where(eq(users.id, operator.id));
    await db.update(lineClearances).set({ name: line.name }).where(eq(lineClearances.id, line.id));
  });
});

describe('the device a signature keeps', () => {
  it('prints the device as signed after it is renamed, and refuses its deletion', async () => {
    // QA: an admin's rename made a signed report read 'Device: Renamed dev', still 'unchanged'.
    const line = await lineByName('Blister Line 1');
    const signed = await inspectionOf(line.id, 'approved');
    const pending = await inspectionOf(line.id, 'pending');
    const { db } = t.services.ctx;
    const [video] = await db.select().from(videos).where(eq(videos.id, signed.videoId));
    const [device] = await db
      .select()
      .from(devices)
      .where(eq(devices.id, video?.deviceId ?? ''));
    if (!device) throw new Error('the demo video names its device');
    expect((await reportOf(pending.id)).device?.id).toBe(device.id);
    const before = await reportOf(signed.id);
    expect(before).toMatchObject({
      device: { id: device.id, name: device.name },
      unchangedSinceSigning: true,
    });
    const printed = async () =>
      (await pdfPages((await get(`/api/reports/${signed.id}/pdf`)).rawPayload))
        .join(' ')
        .replace(/\s+/g, ' ');

    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${device.id}`,
      headers: auth.admin,
      payload: { name: 'Renamed dev', version: device.version },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const after = await reportOf(signed.id);
    expect(after).toMatchObject({ device: before.device, unchangedSinceSigning: true });
    const text = await printed();
    expect(text).toContain(`Device ${device.name} (${device.id})`);
    expect(text).not.toContain('Renamed dev');
    // A record not yet signed names the device as it is now.
    expect((await reportOf(pending.id)).device).toEqual({ id: device.id, name: 'Renamed dev' });

    const refused = await t.app.inject({
      method: 'DELETE',
      url: `/api/devices/${device.id}`,
      headers: auth.admin,
      payload: { reason: 'The tablet went back to the vendor' },
    });
    expect(refused.statusCode).toBe(409);
    const message =
      'This device recorded inspections or videos and cannot be deleted; set its status to inactive instead';
    expect(refused.json().message).toBe(message);
    expect((await reportOf(signed.id)).device).toEqual(before.device);
    const entries = await db.select().from(auditLog).where(eq(auditLog.entityId, device.id));
    expect(entries.at(-1)).toMatchObject({
      action: 'evidence.protected',
      entity: 'device',
      newValue: { reason: message, route: 'DELETE /api/devices/:id' },
    });

    // The kept device is hashed with the id the video names: either changed afterwards shows.
    const [other] = await db.select().from(devices).where(sql`${devices.id} <> ${device.id}`);
    await db.update(videos).set({ deviceId: other?.id }).where(eq(videos.id, signed.videoId));
    expect(await reportOf(signed.id)).toMatchObject({
      device: before.device,
      unchangedSinceSigning: false,
      changedParts: ['the recording device'],
    });
    await db.update(videos).set({ deviceId: device.id }).where(eq(videos.id, signed.videoId));
    const [row] = await db.select().from(signatures).where(eq(signatures.inspectionId, signed.id));
    await db.execute(
      sql`update signatures set kept = jsonb_set(kept, '{device,name}', '"Someone Else’s"')
          where inspection_id = ${signed.id}`,
    );
    expect((await reportOf(signed.id)).unchangedSinceSigning).toBe(false);

    // Signed before the device was kept: checked without it, shown as it is now, and said.
    const record = await readRecord(db, signed.id);
    if (!row?.kept?.evidence || !record.signature) throw new Error('a signature keeping evidence');
    const { device: _device, ...olderKept } = row.kept;
    const olderHash = recordHash(record, record.signature, {
      operatorName: olderKept.operatorName,
      lineName: olderKept.lineName,
      layout: layoutDigest(await recordLayout(t.services.ctx, record)),
      evidence: olderKept.evidence,
    });
    await db
      .update(signatures)
      .set({ kept: olderKept, recordHash: olderHash })
      .where(eq(signatures.inspectionId, signed.id));
    const older = await reportOf(signed.id);
    expect(older).toMatchObject({
      device: { id: device.id, name: 'Renamed dev' },
      recordHash: olderHash,
      unchangedSinceSigning: true,
      notCoveredBySignature:
        'Signed by an earlier release, before the recording device’s name and id were kept with signatures: they are shown as they are now, and a change to them since signing is not detected.',
    });
    await db
      .update(signatures)
      .set({ kept: row.kept, recordHash: row.recordHash })
      .where(eq(signatures.inspectionId, signed.id));
    expect((await reportOf(signed.id)).unchangedSinceSigning).toBe(true);
    await db.update(devices).set({ name: device.name }).where(eq(devices.id, device.id));
  });
});

describe('the report’s path', () => {
  it('is mapped with the analysed video’s own calibration, as the path player maps it', async () => {
    const line = await lineByName('Bottling Line 2');
    const pending = await inspectionOf(line.id, 'pending');
    const before = await reportOf(pending.id);
    const config = (await get(`/api/floorplan-configs/line-clearance/${line.id}`)).json();
    const { slamPoints, floorplanPoints, forceAffine, yAxisFlip } = (config as FloorplanConfig)
      .configuration;
    if (!slamPoints || !floorplanPoints || !before.coverage) throw new Error('a calibrated path');
    // The video's calibration: the line's pairs with every plan point 7 px right and 5 px down.
    const calibration = {
      slamPoints,
      floorplanPoints: floorplanPoints.map(([x, y]) => [(x ?? 0) + 7, (y ?? 0) + 5]),
      forceAffine,
      yAxisFlip,
    };
    await t.services.ctx.db
      .update(videos)
      .set({ calibration })
      .where(eq(videos.id, pending.videoId));
    const after = await reportOf(pending.id);
    const served = (await get(`/api/floorplan-configs/${pending.videoId}`)).json();
    expect(served.configuration.floorplanPoints).toEqual(calibration.floorplanPoints);
    const shifts = (after.coverage?.path ?? []).map(([x, y], i) => {
      const [bx, by] = before.coverage?.path[i] ?? [Number.NaN, Number.NaN];
      return [(x ?? 0) - (bx ?? 0), (y ?? 0) - (by ?? 0)];
    });
    expect(shifts.length).toBeGreaterThan(10);
    const moved = shifts.filter(
      ([dx, dy]) => Math.abs((dx ?? 0) - 7) < 1e-6 && Math.abs((dy ?? 0) - 5) < 1e-6,
    );
    // Points clamped at the plan's edge move less; the others move exactly with the calibration.
    expect(moved.length).toBeGreaterThan(shifts.length / 2);
    await t.services.ctx.db
      .update(videos)
      .set({ calibration: null })
      .where(eq(videos.id, pending.videoId));
  });

  it('is drawn, on the report, with the tags and zones the inspection was recorded against', async () => {
    // QA: after a tag was added to the line, the report's path player counted 'Tags: 7 of 9'
    // beside a checklist of 8 (the snapshot the record was made with).
    const line = await lineByName('Bottling Line 2');
    const pending = await inspectionOf(line.id, 'pending');
    const current = (await get(`/api/floorplan-configs/line-clearance/${line.id}`)).json();
    const { configuration } = current as FloorplanConfig;
    const added = { x: 40, y: 40, name: 'Added after the inspection', qrCode: 'ADDED-LATER-1' };
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/floorplan-configs',
      headers: auth.lcmanager2,
      payload: {
        lineClearanceId: line.id,
        name: current.name,
        configuration: { ...configuration, tags: [...configuration.tags, added] },
        reason: 'A checkpoint added at the new filler',
      },
    });
    expect(saved.statusCode, saved.body).toBeLessThan(300);
    const names = (served: { configuration: FloorplanConfiguration }) =>
      served.configuration.tags.map((tag) => tag.name);
    const recorded = (await get(`/api/floorplan-configs/${pending.videoId}?tags=recorded`)).json();
    const report = await reportOf(pending.id);
    expect(names(recorded)).toEqual(report.checklist.tags.map((tag) => tag.name));
    expect(names(recorded)).not.toContain(added.name);
    expect(recorded.configuration.hotZones).toHaveLength(report.checklist.zones.length);
    // /video shows the line as it is now, the tag just added with it.
    const now = (await get(`/api/floorplan-configs/${pending.videoId}`)).json();
    expect(names(now)).toContain(added.name);
  });
});
