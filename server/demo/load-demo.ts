// Loads the demo dataset (server/demo/dataset.json + files/) into an empty database and storage.
// Entities refer to each other by key; every key is resolved before anything is written, and the
// rows go in one transaction after the files are stored. The records come out as the product
// writes them: videos verified, results switched in as the analysis and ingestion switch them,
// the pending video's analysis queued, a video whose file has not arrived as the submit creates
// it, inspections with their checklist snapshot and capture.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { type AnalysisResults, replaceResults } from '../analysis/outputs.ts';
import { audit } from '../audit/audit.ts';
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/client.ts';
import {
  captures,
  devices,
  floorplanConfigs,
  floorplans,
  inspections,
  lineClearances,
  users,
  videos,
} from '../db/schema.ts';
import { newId } from '../ids.ts';
import { readRecord, signatureStatements } from '../reports/record.ts';
import { summarizeMissing } from '../reports/report.ts';
import { writeSignature } from '../reports/signing.ts';
import { toInspection } from '../routes/inspections.ts';
import type { CaptureData, ChecklistSnapshot } from '../schemas/capture.ts';
import type { SignatureMeaning } from '../schemas/signatures.ts';
import {
  checkCapture,
  checklistFor,
  NOT_UPLOADED_NOTE,
  submittedVideo,
} from '../services/capture.ts';
import { floorplanImageUrl, newFloorplanImageKey } from '../services/floorplan-images.ts';
import { sniffImage } from '../services/image-type.ts';
import { insertUser } from '../services/users.ts';
import type { Storage } from '../storage/storage.ts';
import type { DemoCapture, DemoDataset, DemoInspection } from './dataset-types.ts';

export const DEMO_PASSWORD = 'demo-password';

class KeyMap {
  private readonly ids = new Map<string, string>();
  constructor(private readonly kind: string) {}
  add(key: string): string {
    if (this.ids.has(key)) throw new Error(`Demo dataset: duplicate ${this.kind} key '${key}'`);
    const id = newId();
    this.ids.set(key, id);
    return id;
  }
  get(key: string, where: string): string {
    const id = this.ids.get(key);
    if (!id) throw new Error(`Demo dataset: ${where} names unknown ${this.kind} '${key}'`);
    return id;
  }
}

const SAFE_SEGMENT = /^[A-Za-z0-9_-]{1,100}$/;

/** How long after an inspection ends a demo reviewer signs; fixed, so nothing depends on the clock. */
const DEMO_REVIEW_DELAY_MS = 25 * 60 * 1000;

/** When a reviewed demo inspection was signed: a while after it ended. */
function demoReviewedAt(inspection: DemoInspection): Date | null {
  if (inspection.status === 'pending') return null;
  return new Date(Date.parse(inspection.endTime) + DEMO_REVIEW_DELAY_MS);
}

/** A reviewed demo inspection carries its reviewer's e-signature, as one signed in the app would. */
async function signReviewed(tx: Tx, storage: Storage, inspectionId: string): Promise<void> {
  const record = await readRecord(tx, inspectionId);
  const { status, reviewerId, reviewNotes, reviewedAt } = record.inspection;
  if ((status !== 'approved' && status !== 'rejected') || !reviewerId || !reviewedAt) return;
  const [signer] = await tx.select().from(users).where(eq(users.id, reviewerId));
  if (!signer) return;
  const fields = {
    signerId: signer.id,
    signerName: signer.name,
    signerEmail: signer.email,
    meaning: status as SignatureMeaning,
    statement: signatureStatements[status as SignatureMeaning],
    notes: reviewNotes ?? '',
    signedAt: reviewedAt.toISOString(),
  };
  const recordHash = await writeSignature({ db: tx, storage }, record, fields);
  // The entry a signing writes (server/reports/signing.ts), so the trail holds the demo's history.
  const user = { id: signer.id, name: signer.name, email: signer.email, roles: signer.roles };
  await audit(
    tx,
    { user },
    {
      action: status === 'approved' ? 'approve' : 'reject',
      entity: 'inspection',
      entityId: inspectionId,
      oldValue: { status: 'pending', reviewerId: null, reviewNotes: null, reviewedAt: null },
      newValue: {
        status,
        reviewerId,
        reviewNotes,
        reviewedAt: fields.signedAt,
        signature: { ...fields, recordHash },
      },
    },
  );
}

export async function loadDemo(ctx: AppContext, dataset: DemoDataset, filesDir: string) {
  const root = path.resolve(filesDir);
  const file = (relative: string) => {
    const full = path.resolve(root, relative);
    if (!full.startsWith(root + path.sep))
      throw new Error(`Demo dataset: path escapes files/: ${relative}`);
    return full;
  };
  const userIds = new KeyMap('user');
  const lineIds = new KeyMap('line clearance');
  const deviceIds = new KeyMap('device');
  const planIds = new KeyMap('floor plan');
  const videoIds = new KeyMap('video');

  for (const user of dataset.users) userIds.add(user.key);
  for (const line of dataset.lineClearances) lineIds.add(line.key);
  for (const device of dataset.devices) deviceIds.add(device.key);

  const lineRows = dataset.lineClearances.map((line) => ({
    id: lineIds.get(line.key, 'lineClearances'),
    name: line.name,
    description: line.description,
    location: line.location,
    status: line.status,
    managerId: userIds.get(line.managerKey, `line '${line.key}'`),
    assignedOperators: line.operatorKeys.map((key) => userIds.get(key, `line '${line.key}'`)),
  }));

  // Files first: a failure here leaves the database untouched.
  const planRows: (typeof floorplans.$inferInsert)[] = [];
  for (const plan of dataset.floorplans) {
    const bytes = await fs.readFile(file(plan.file));
    const type = sniffImage(bytes);
    if (!type) throw new Error(`Demo dataset: ${plan.file} is not a PNG, JPEG or GIF image`);
    const imageKey = newFloorplanImageKey(type);
    await ctx.storage.put(imageKey, bytes);
    planRows.push({
      id: planIds.add(plan.key),
      name: plan.name,
      imageKey,
      lineId: lineIds.get(plan.lineKey, `floorplan '${plan.key}'`),
      contentType: type.contentType,
      createdAt: new Date(plan.createdAt),
    });
  }

  // Each video arrives as a verified upload (pending); a completed one's results are then switched
  // in as the analysis and the ingestion API switch theirs, a pending one's analysis is queued.
  const videoRows: (typeof videos.$inferInsert)[] = [];
  const results = new Map<string, AnalysisResults>();
  for (const video of dataset.videos) {
    const id = videoIds.add(video.key);
    const where = `video '${video.key}'`;
    const subfolder = video.keyframeImagesDir
      ? path.basename(video.keyframeImagesDir)
      : path.basename(video.file, path.extname(video.file));
    if (!SAFE_SEGMENT.test(subfolder)) {
      throw new Error(
        `Demo dataset: subfolder name '${subfolder}' must be letters, digits, _ or -`,
      );
    }
    const ext = path.extname(video.file).toLowerCase();
    const storageKey = `videos/${id}${ext}`;
    const videoBytes = await fs.readFile(file(video.file));
    const { size } = await ctx.storage.put(storageKey, videoBytes);
    // Verified as a tus upload's finish() verifies one: the SHA-256 of the bytes stored.
    const sha256 = createHash('sha256').update(videoBytes).digest('hex');
    videoRows.push({
      id,
      filename: video.filename,
      storageKey,
      subfolder,
      userId: userIds.get(video.userKey, where),
      deviceId: deviceIds.get(video.deviceKey, where),
      lineClearanceId: lineIds.get(video.lineKey, where),
      timestamp: new Date(video.timestamp),
      status: 'pending',
      size,
      sha256,
      duration: video.duration,
    });
    if (video.status === 'pending') continue;
    if (!video.keyframesFile || !video.keyframeImagesDir || !video.analysisVersion) {
      throw new Error(
        `Demo dataset: completed ${where} needs keyframesFile, keyframeImagesDir and analysisVersion`,
      );
    }
    const keyframesKey = `keyframes/${id}.txt`;
    await ctx.storage.put(keyframesKey, await fs.readFile(file(video.keyframesFile)));
    const imagesPrefix = `keyframe-images/${subfolder}`;
    for (const name of await fs.readdir(file(video.keyframeImagesDir))) {
      if (!name.endsWith('.png')) continue;
      const bytes = await fs.readFile(path.join(file(video.keyframeImagesDir), name));
      await ctx.storage.put(`${imagesPrefix}/${name}`, bytes);
    }
    results.set(id, {
      keyframesKey,
      imagesPrefix,
      // The path is in the line's map units: the line's own calibration maps it.
      calibration: null,
      predictions: video.predictions.map((p) => ({
        filename: p.filename,
        classLabels: p.class_labels,
        confs: p.confs,
        boxesNormalized: p.boxes_normalized,
      })),
      detector: video.detector,
      analysisVersion: video.analysisVersion,
      statusReason: null,
    });
  }

  const configRows = dataset.floorplanConfigs.map((config) => {
    const plan = planRows.find(
      (row) => row.id === planIds.get(config.floorplanKey, 'floorplanConfigs'),
    );
    return {
      id: newId(),
      lineClearanceId: lineIds.get(config.lineKey, 'floorplanConfigs'),
      floorplanId: plan?.id ?? null,
      name: config.name,
      // The saved configuration points at the image as the API serves it.
      configuration: {
        ...config.configuration,
        floorplanImage: plan ? floorplanImageUrl(plan.imageKey) : undefined,
      },
    };
  });

  // A video whose file has not arrived is created as the submit creates it (submittedVideo).
  const submittedRows: ReturnType<typeof submittedVideo>[] = [];
  const inspectionRows = dataset.inspections.map((inspection) => {
    const where = `inspection '${inspection.key}'`;
    const lineClearanceId = lineIds.get(inspection.lineKey, where);
    const operatorId = userIds.get(inspection.operatorKey, where);
    const startTime = new Date(inspection.startTime);
    const pending = inspection.pendingUpload;
    let videoId: string;
    if (inspection.videoKey && !pending) videoId = videoIds.get(inspection.videoKey, where);
    else if (pending && !inspection.videoKey) {
      videoId = newId();
      submittedRows.push(
        submittedVideo(videoId, {
          userId: operatorId,
          deviceId: pending.deviceKey ? deviceIds.get(pending.deviceKey, where) : null,
          lineClearanceId,
          startTime,
          container: pending.container,
          duration: pending.duration,
        }),
      );
    } else {
      throw new Error(`Demo dataset: ${where} needs either a videoKey or a pendingUpload`);
    }
    return {
      id: newId(),
      lineClearanceId,
      operatorId,
      videoId,
      startTime,
      endTime: new Date(inspection.endTime),
      productLeaving: inspection.productLeaving,
      batchLeaving: inspection.batchLeaving,
      productComing: inspection.productComing,
      batchComing: inspection.batchComing,
      status: inspection.status,
      operatorNotes: inspection.operatorNotes,
      reviewerId: inspection.reviewerKey ? userIds.get(inspection.reviewerKey, where) : null,
      reviewNotes: inspection.reviewNotes,
      // The signature (signReviewed) takes this time as its signedAt, so both agree.
      reviewedAt: demoReviewedAt(inspection),
    };
  });
  const captureData = new Map<string, DemoCapture>();
  for (const [i, inspection] of dataset.inspections.entries()) {
    if (!inspection.captureFile) continue;
    const data = JSON.parse(await fs.readFile(file(inspection.captureFile), 'utf8')) as DemoCapture;
    captureData.set(inspectionRows[i]?.id ?? '', data);
  }

  await ctx.db.transaction(async (tx) => {
    for (const user of dataset.users) {
      const id = userIds.get(user.key, 'users');
      // Assignments mirror the lines: operators know their lines, managers their operators.
      const lines = lineRows.filter((l) => l.assignedOperators.includes(id) || l.managerId === id);
      await insertUser(tx, ctx.passwords, {
        id,
        name: user.name,
        email: user.email,
        password: DEMO_PASSWORD,
        roles: user.roles,
        lineClearanceIds: lines.map((l) => l.id),
        assignedOperators: [
          ...new Set(lines.filter((l) => l.managerId === id).flatMap((l) => l.assignedOperators)),
        ],
      });
    }
    if (lineRows.length) await tx.insert(lineClearances).values(lineRows);
    if (dataset.devices.length) {
      await tx.insert(devices).values(
        dataset.devices.map((device) => ({
          id: deviceIds.get(device.key, 'devices'),
          name: device.name,
          type: device.type,
          status: device.status,
          qrCode: `DEMO-${device.key.toUpperCase().replace(/[^A-Z0-9]/g, '-')}`,
        })),
      );
    }
    if (planRows.length) await tx.insert(floorplans).values(planRows);
    if (configRows.length) await tx.insert(floorplanConfigs).values(configRows);
    const byId = new Map(dataset.users.map((user) => [userIds.get(user.key, 'users'), user]));
    const actor = (userId: string) => {
      const user = byId.get(userId);
      return {
        user: user ? { id: userId, name: user.name, email: user.email, roles: user.roles } : null,
      };
    };
    const imported = videoRows.length ? await tx.insert(videos).values(videoRows).returning() : [];
    // Each demo video's create entry, by its recorder, with the SHA-256 its file was stored with.
    for (const video of imported) {
      await audit(tx, actor(video.userId ?? ''), {
        action: 'create',
        entity: 'video',
        entityId: video.id,
        newValue: video,
      });
    }
    for (const row of videoRows) {
      const done = results.get(row.id);
      if (done) await replaceResults(tx, row.id, done);
      else await ctx.analysis.enqueue(row.id, row.userId ?? null, tx);
    }
    // Each inspection is checked against its line's checklist as it stood when it began.
    const checklists = new Map<string, ChecklistSnapshot>();
    for (const line of lineRows) checklists.set(line.id, await checklistFor(tx, line.id));
    const rows = inspectionRows.map((row) => ({
      ...row,
      checklist: checklists.get(row.lineClearanceId) ?? null,
    }));
    // The submitted ones' videos, written and audited as the operator's submit writes them.
    for (const values of submittedRows) {
      const [video] = await tx.insert(videos).values(values).returning();
      await audit(tx, actor(values.userId), {
        action: 'create',
        entity: 'video',
        entityId: values.id,
        newValue: { ...video, note: NOT_UPLOADED_NOTE },
      });
    }
    const inserted = rows.length ? await tx.insert(inspections).values(rows).returning() : [];
    // Every inspection's create entry, by its operator, as a submit writes it.
    for (const row of inserted) {
      await audit(tx, actor(row.operatorId), {
        action: 'create',
        entity: 'inspection',
        entityId: row.id,
        newValue: toInspection(row, null),
      });
    }
    for (const row of rows) {
      const data = captureData.get(row.id);
      if (!data || !row.checklist) continue;
      const duration =
        [...videoRows, ...submittedRows].find((v) => v.id === row.videoId)?.duration ?? 0;
      // Scans get their tag from the checklist, checked as PUT /api/inspections/{id}/capture does.
      const capture: CaptureData = checkCapture(
        { scans: data.scans.map((scan) => ({ ...scan, tagIndex: null })), motion: data.motion },
        row.checklist,
        duration,
      );
      await tx.insert(captures).values({ inspectionId: row.id, ...capture });
    }
    for (const row of inspectionRows) await signReviewed(tx, ctx.storage, row.id);
    await audit(tx, null, {
      action: 'demo.load',
      entity: 'system',
      newValue: {
        users: dataset.users.length,
        lineClearances: lineRows.length,
        videos: videoRows.length + submittedRows.length,
        inspections: inspectionRows.length,
      },
    });
  });
  // The queued analysis starts once the runner does (or now, if it already runs).
  ctx.analysis.wake();
  // The demo's reports, built once so /reports shows their flags from the first start.
  await summarizeMissing(ctx);
}
