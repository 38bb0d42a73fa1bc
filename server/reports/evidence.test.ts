// The evidence a signature covers besides the record's rows (docs/signatures.md): the path file, the
// detections and the QR scans are hashed on every read of the report, so a change to any of them
// behind the server's back shows as 'changed since signing', naming it; the video file and the
// keyframe images are hashed at signing (a video that no longer matches its SHA-256 is not signed)
// and compared on request by GET /api/reports/{id}/evidence-check. Signatures made before the
// evidence was kept verify as before.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pdfPages } from '../../tests/support/pdf-text.ts';
import { replaceResults } from '../analysis/outputs.ts';
import { captures, inspections, predictions, signatures, users, videos } from '../db/schema.ts';
import { DEMO_PASSWORD, loadDemo } from '../demo/load-demo.ts';
import type { EvidenceCheck, InspectionReport, SignatureCheck } from '../schemas/reports.ts';
import { build, type TestApp } from '../test/build.ts';
import { dataset, files } from '../test/demo-dataset.ts';
import { keyframeImagesDigest, readKeyframes } from './evidence.ts';
import { layoutDigest, recordLayout } from './layout.ts';
import { keyframeImageNames } from './path-checklist.ts';
import { readRecord, recordHash } from './record.ts';
import { writeSigned } from './signing.ts';

let t: TestApp;
const auth: Record<string, { authorization: string }> = {};
/** Demo inspection ids by key (found by start time). */
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await build();
  await loadDemo(t.services.ctx, dataset, files);
  for (const who of ['lcmanager', 'lcmanager2', 'audit', 'operator']) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: `${who}@example.com`, password: DEMO_PASSWORD },
    });
    auth[who] = { authorization: `Bearer ${res.json().token}` };
  }
  const rows = await t.services.ctx.db.select().from(inspections);
  for (const inspection of dataset.inspections) {
    const row = rows.find((r) => r.startTime.toISOString() === inspection.startTime);
    ids[inspection.key] = row?.id ?? '';
  }
});
afterAll(() => t.close());

const get = (url: string, who = 'lcmanager') => t.app.inject({ url, headers: auth[who] });
const reportOf = async (key: string, who = 'lcmanager') =>
  (await get(`/api/reports/${ids[key]}`, who)).json() as InspectionReport;
const evidenceCheck = async (key: string, who = 'lcmanager') => {
  const res = await get(`/api/reports/${ids[key]}/evidence-check`, who);
  expect(res.statusCode).toBe(200);
  return res.json() as EvidenceCheck;
};

async function videoOf(key: string) {
  const [row] = await t.services.ctx.db
    .select({ video: videos })
    .from(videos)
    .innerJoin(inspections, eq(inspections.videoId, videos.id))
    .where(eq(inspections.id, ids[key] ?? ''));
  if (!row) throw new Error(`${key} has no video`);
  return row.video;
}

/** A stored object's bytes, and a function that puts them back. */
async function stored(key: string) {
  const { storage } = t.services.ctx;
  const bytes = Buffer.concat(await storage.read(key).toArray());
  return { key, bytes, restore: () => storage.put(key, bytes) };
}

describe('the record hash covers the evidence the report is drawn from', () => {
  // insp-lc1-1: approved in the demo, with a path, keyframe images and detections.
  it('shows a path file cut short as a change, naming it, on the page, in the PDF and the check', async () => {
    expect(await reportOf('insp-lc1-1')).toMatchObject({
      unchangedSinceSigning: true,
      changedParts: [],
    });
    const video = await videoOf('insp-lc1-1');
    const keyframes = await stored(video.keyframesKey ?? '');
    const lines = keyframes.bytes.toString('utf8').split('\n');
    const cut = lines.slice(0, Math.min(1000, Math.floor(lines.length / 2))).join('\n');
    await t.services.ctx.storage.put(video.keyframesKey ?? '', Buffer.from(cut));

    const changed = await reportOf('insp-lc1-1');
    expect(changed.unchangedSinceSigning).toBe(false);
    expect(changed.changedParts).toEqual(['the path file']);
    const pdf = await get(`/api/reports/${ids['insp-lc1-1']}/pdf`);
    const text = (await pdfPages(pdf.rawPayload)).join(' ').replace(/\s+/g, ' ');
    expect(text).toContain('WARNING: the record changed after it was signed');
    expect(text).toContain('Changed since signing: the path file.');
    // 'Check signed records' finds it too.
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/reports/check-signatures',
      headers: auth.audit,
    });
    expect(started.statusCode).toBe(202);
    let check: SignatureCheck;
    do {
      await new Promise((resolve) => setTimeout(resolve, 10));
      check = (await get('/api/reports/check-signatures', 'audit')).json() as SignatureCheck;
    } while (check.state === 'running');
    expect(check).toMatchObject({ state: 'finished', inspectionIds: [ids['insp-lc1-1']] });

    await keyframes.restore();
    expect((await reportOf('insp-lc1-1')).unchangedSinceSigning).toBe(true);
  });

  it('shows a detection deleted or edited in the database as a change of the detections', async () => {
    const { db } = t.services.ctx;
    const video = await videoOf('insp-lc1-1');
    const [row] = await db.select().from(predictions).where(eq(predictions.videoId, video.id));
    if (!row) throw new Error('the demo video has detections');

    await db.delete(predictions).where(eq(predictions.id, row.id));
    const deleted = await reportOf('insp-lc1-1');
    expect(deleted.unchangedSinceSigning).toBe(false);
    expect(deleted.changedParts).toEqual(['the detections']);
    await db.insert(predictions).values(row);
    expect((await reportOf('insp-lc1-1')).unchangedSinceSigning).toBe(true);

    await db.execute(
      sql`update predictions set confs = jsonb_set(confs, '{0}', '0.01') where id = ${row.id}`,
    );
    expect((await reportOf('insp-lc1-1')).changedParts).toEqual(['the detections']);
    await db.update(predictions).set({ confs: row.confs }).where(eq(predictions.id, row.id));
    expect((await reportOf('insp-lc1-1')).unchangedSinceSigning).toBe(true);
  });

  it('shows QR scans added in the database (a tag turned "Scanned (QR code)") as a change', async () => {
    const { db } = t.services.ctx;
    const before = await reportOf('insp-lc1-1');
    const missed = before.checklist.tags.find((tag) => tag.source !== 'qr');
    if (!missed) throw new Error('the demo record has a tag not scanned by QR code');
    await db.insert(captures).values({
      inspectionId: ids['insp-lc1-1'] ?? '',
      scans: [
        { code: 'forged', videoTime: 1, at: '2026-11-03T08:15:01.000Z', tagIndex: missed.index },
      ],
    });
    const forged = await reportOf('insp-lc1-1');
    expect(forged.checklist.tags.find((tag) => tag.index === missed.index)?.source).toBe('qr');
    expect(forged.unchangedSinceSigning).toBe(false);
    expect(forged.changedParts).toEqual(['the QR code scans']);
    await db.delete(captures).where(eq(captures.inspectionId, ids['insp-lc1-1'] ?? ''));
    expect((await reportOf('insp-lc1-1')).unchangedSinceSigning).toBe(true);
  });

  it('verifies a signature kept without the evidence as before, and changes nothing else', async () => {
    // insp-lc1-2 signed as before the evidence (and the device) was kept: its hash covers names
    // and layout only.
    const { db, storage } = t.services.ctx;
    const id = ids['insp-lc1-2'] ?? '';
    const record = await readRecord(db, id);
    const { signature, kept } = record;
    if (!signature || !kept?.evidence) throw new Error('the demo signature keeps the evidence');
    const { evidence: _evidence, device: _device, ...oldKept } = kept;
    const layout = layoutDigest(await recordLayout(t.services.ctx, record));
    const oldHash = recordHash(record, signature, {
      operatorName: kept.operatorName,
      lineName: kept.lineName,
      layout,
    });
    await db
      .update(signatures)
      .set({ kept: oldKept, recordHash: oldHash })
      .where(eq(signatures.inspectionId, id));
    const r = await reportOf('insp-lc1-2');
    expect(r.signature?.recordHash).toBe(oldHash);
    expect(r).toMatchObject({ recordHash: oldHash, unchangedSinceSigning: true, changedParts: [] });
    expect(r.notCoveredBySignature).toMatch(
      /^Signed by an earlier release, before the analysis’s files \(path, detections, QR code scans\) and the recording device’s name and id were kept/,
    );
    const check = await evidenceCheck('insp-lc1-2');
    expect(check.keyframeImages).toMatchObject({ state: 'not-kept' });
    expect(check.video?.state).toBe('matches');
    // The kept layout is still checked by itself: a swapped floor-plan image is named.
    const image = `floorplans/${r.coverage?.imageUrl?.split('/').pop()}`;
    const plan = await stored(image);
    await storage.put(image, Buffer.concat([plan.bytes, Buffer.from([0])]));
    expect((await reportOf('insp-lc1-2')).changedParts).toEqual(['the floor-plan image']);
    await plan.restore();
  });
});

describe('the evidence files, checked on request', () => {
  it('answers that the video file and every keyframe image match what was signed', async () => {
    const check = await evidenceCheck('insp-lc2-1', 'lcmanager2');
    const video = await videoOf('insp-lc2-1');
    const images = await keyframeImagesDigest(
      t.services.ctx.storage,
      video,
      await readKeyframes(t.services.ctx.storage, video),
    );
    expect(images?.count).toBeGreaterThan(10);
    expect(check).toMatchObject({
      inspectionId: ids['insp-lc2-1'],
      signed: true,
      video: { sha256: video.sha256, state: 'matches' },
      keyframeImages: { state: 'matches', count: images?.count },
    });
  });

  it('finds a keyframe image overwritten, and a video file with a byte appended', async () => {
    const video = await videoOf('insp-lc2-1');
    const keyframes = await readKeyframes(t.services.ctx.storage, video);
    const [name] = await keyframeImageNames(keyframes ?? Buffer.alloc(0));
    const image = await stored(`${video.keyframeImagesPrefix}/${name}`);
    const printed = async () => {
      const pdf = await get(`/api/reports/${ids['insp-lc2-1']}/pdf`, 'lcmanager2');
      return (await pdfPages(pdf.rawPayload)).join(' ').replace(/\s+/g, ' ');
    };
    expect(await printed()).toMatch(
      /Evidence files checked when printed: the video file matches its SHA-256; the \d+ keyframe images match what was signed\./,
    );
    await t.services.ctx.storage.put(image.key, Buffer.from('not the image that was signed'));
    // The report cannot afford to read the images: its hash still matches.
    expect((await reportOf('insp-lc2-1', 'lcmanager2')).unchangedSinceSigning).toBe(true);
    expect(await evidenceCheck('insp-lc2-1', 'lcmanager2')).toMatchObject({
      video: { state: 'matches' },
      keyframeImages: { state: 'differs' },
    });
    // A printed copy leaves the system: it is checked in full as it is printed, and says so.
    const text = await printed();
    expect(text).toContain(
      'WARNING: the evidence files no longer match what they were when recorded or signed',
    );
    expect(text).toContain('the keyframe images DIFFER from those signed');
    await image.restore();

    const file = await stored(video.storageKey);
    await t.services.ctx.storage.put(
      video.storageKey,
      Buffer.concat([file.bytes, Buffer.from([0])]),
    );
    expect(await evidenceCheck('insp-lc2-1', 'lcmanager2')).toMatchObject({
      video: { state: 'differs' },
      keyframeImages: { state: 'matches' },
    });
    await t.services.ctx.storage.delete(video.storageKey);
    expect((await evidenceCheck('insp-lc2-1', 'lcmanager2')).video?.state).toBe('missing');
    await file.restore();
    expect((await evidenceCheck('insp-lc2-1', 'lcmanager2')).video?.state).toBe('matches');
  });

  it('checks only the video of a record not signed, for whoever may read its report', async () => {
    expect(await evidenceCheck('insp-lc2-2', 'operator')).toMatchObject({
      signed: false,
      video: { state: 'matches' },
      keyframeImages: null,
    });
    // The record waiting for its file has no SHA-256 to check against.
    expect((await evidenceCheck('insp-lc2-3', 'lcmanager2')).video?.state).toBe('unverified');
    // Another LC manager's line does not exist for the caller.
    const other = await get(`/api/reports/${ids['insp-lc2-2']}/evidence-check`, 'lcmanager');
    expect(other.statusCode).toBe(404);
  });
});

describe('signing hashes the evidence files', () => {
  const sign = (action: 'approve' | 'reject') =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/inspections/${ids['insp-lc2-2']}/${action}`,
      headers: auth.lcmanager2,
      payload: {
        notes: 'Evidence checked by the reviewer',
        userId: 'lcmanager2@example.com',
        password: DEMO_PASSWORD,
      },
    });

  it('keeps the digest of the files it signs, not of files hashed for another analysis', async () => {
    // A re-run between the hashing and the transaction: the hashes given are of other files.
    const { db, storage } = t.services.ctx;
    const video = await videoOf('insp-lc2-2');
    const expected = await keyframeImagesDigest(
      storage,
      video,
      await readKeyframes(storage, video),
    );
    const rollback = new Error('rolled back');
    const kept = await db
      .transaction(async (tx) => {
        const record = await readRecord(tx, ids['insp-lc2-2'] ?? '');
        const [signer] = await tx
          .select()
          .from(users)
          .where(eq(users.email, 'lcmanager2@example.com'));
        if (!signer) throw new Error('the demo has lcmanager2');
        await writeSigned(
          { db: tx, storage },
          null,
          record,
          {
            signer,
            meaning: 'rejected',
            notes: 'Evidence checked by the reviewer',
            signedAt: new Date(),
          },
          { basis: 'other files', video: 'matches', keyframeImagesSha256: 'f'.repeat(64) },
        );
        const [row] = await tx
          .select({ kept: signatures.kept })
          .from(signatures)
          .where(eq(signatures.inspectionId, record.inspection.id));
        throw Object.assign(rollback, { kept: row?.kept });
      })
      .catch((error: unknown) => {
        if (error !== rollback) throw error;
        return (error as Error & { kept: unknown }).kept;
      });
    expect(kept).toMatchObject({ evidence: { keyframeImagesSha256: expected?.sha256 } });
    expect((await reportOf('insp-lc2-2', 'lcmanager2')).signature).toBeNull();
  });

  it('refuses an approval over a video file that does not match its SHA-256; a rejection stays possible', async () => {
    const video = await videoOf('insp-lc2-2');
    const file = await stored(video.storageKey);
    const { storage, db } = t.services.ctx;
    const tamper = () =>
      storage.put(video.storageKey, Buffer.concat([file.bytes, Buffer.from([0])]));
    await tamper();
    const refused = await sign('approve');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `The video file does not match its recorded SHA-256 (${video.sha256}); it cannot be approved as clear, only rejected`,
    );
    await storage.delete(video.storageKey);
    expect((await sign('approve')).json().message).toBe(
      `The video file is missing from storage (its recorded SHA-256 is ${video.sha256}); it cannot be approved as clear, only rejected`,
    );
    expect((await reportOf('insp-lc2-2', 'lcmanager2')).status).toBe('pending');
    const [none] = await db
      .select()
      .from(signatures)
      .where(eq(signatures.inspectionId, ids['insp-lc2-2'] ?? ''));
    expect(none).toBeUndefined();

    // Evidence that no longer holds is a reason to reject, and rejecting must stay possible.
    await tamper();
    const rejected = await sign('reject');
    expect(rejected.statusCode, rejected.body).toBe(200);
    const [row] = await db
      .select({ kept: signatures.kept })
      .from(signatures)
      .where(eq(signatures.inspectionId, ids['insp-lc2-2'] ?? ''));
    expect(row?.kept?.evidence).toMatchObject({
      keyframesSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      keyframeImagesSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await evidenceCheck('insp-lc2-2', 'lcmanager2')).toMatchObject({
      video: { state: 'differs' },
      keyframeImages: { state: 'matches' },
    });
    await file.restore();
    expect(await evidenceCheck('insp-lc2-2', 'lcmanager2')).toMatchObject({
      video: { state: 'matches' },
    });
    expect((await reportOf('insp-lc2-2', 'lcmanager2')).unchangedSinceSigning).toBe(true);
  });
});

describe('one request reads the keyframes file once', () => {
  /** Counts the reads of the video's keyframes file while `request` runs. */
  async function keyframesReads(
    key: string,
    request: () => Promise<{ statusCode: number; body: string }>,
  ) {
    const { storage } = t.services.ctx;
    const read = vi.spyOn(storage, 'read');
    try {
      const res = await request();
      expect(res.statusCode, res.body).toBe(200);
      return read.mock.calls.filter(([readKey]) => readKey === key).length;
    } finally {
      read.mockRestore();
    }
  }

  it('for a signed record’s PDF: the report and the print-time check of the images share it', async () => {
    const video = await videoOf('insp-lc2-1');
    expect(
      await keyframesReads(video.keyframesKey ?? '', () =>
        get(`/api/reports/${ids['insp-lc2-1']}/pdf`, 'lcmanager2'),
      ),
    ).toBe(1);
  });

  it('for an approval: the rules, the hashing and the signature, before and under the lock', async () => {
    // insp-lc1-3's video waits for its analysis in the demo: it gets results, as by an ingestion
    // (the path of insp-lc1-1's video, which is on the same line).
    const { db, storage } = t.services.ctx;
    const video = await videoOf('insp-lc1-3');
    const analysed = await videoOf('insp-lc1-1');
    const keyframesKey = `ingest/${video.id}/copy/keyframes.txt`;
    await storage.put(keyframesKey, (await stored(analysed.keyframesKey ?? '')).bytes);
    await db.transaction((tx) =>
      replaceResults(tx, video.id, {
        keyframesKey,
        imagesPrefix: analysed.keyframeImagesPrefix,
        calibration: null,
        predictions: null,
        detector: null,
        analysisVersion: 'copy/1',
        statusReason: null,
      }),
    );
    const reads = await keyframesReads(keyframesKey, () =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/inspections/${ids['insp-lc1-3']}/approve`,
        headers: auth.lcmanager,
        payload: {
          notes: 'The flagged detections were checked on the video: the line is clear.',
          userId: 'lcmanager@example.com',
          password: DEMO_PASSWORD,
        },
      }),
    );
    expect(reads).toBe(1);
    // What is signed is what is stored: the kept digests match the files now.
    const report = await reportOf('insp-lc1-3');
    expect(report).toMatchObject({ status: 'approved', unchangedSinceSigning: true });
    expect(await evidenceCheck('insp-lc1-3')).toMatchObject({
      video: { state: 'matches' },
      keyframeImages: { state: 'matches' },
    });
  });
});
