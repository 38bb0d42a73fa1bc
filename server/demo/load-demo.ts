// Loads the demo dataset (server/demo/dataset.json + files/) into an empty database and storage.
// Entities refer to each other by key; every key is resolved before anything is written, and the
// rows go in one transaction after the files are stored. The records come out as the product
// writes them, step by step with their audit entries, each dated when it would have happened
// (record-story.ts): the submit (video and inspection, pending, with its checklist snapshot), the
// capture, the video's tus upload and verification, its results ingested or its analysis queued,
// and the signature; a video whose file has not arrived stops after the submit.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkKeyframes } from '../analysis/keyframes-check.ts';
import { audit } from '../audit/audit.ts';
import type { AppContext } from '../context.ts';
import {
  devices,
  floorplanConfigs,
  floorplans,
  lineClearances,
  type videos,
} from '../db/schema.ts';
import { newId } from '../ids.ts';
import { summarizeMissing } from '../reports/report.ts';
import type { ChecklistSnapshot } from '../schemas/capture.ts';
import { arrivedFileKey, checklistFor, submittedVideo } from '../services/capture.ts';
import { floorplanImageUrl, newFloorplanImageKey } from '../services/floorplan-images.ts';
import { sniffImage } from '../services/image-type.ts';
import { insertUser } from '../services/users.ts';
import type { DemoCapture, DemoDataset, DemoInspection } from './dataset-types.ts';
import {
  type Actor,
  AFTER_SUBMIT_MS,
  after,
  arrivalSteps,
  type DemoUpload,
  type IngestedResults,
  inspectionSteps,
  inTimeOrder,
  type PlannedInspection,
  type StoryStep,
  submitVideo,
} from './record-story.ts';

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

/** When a reviewed demo inspection was signed: a while after it ended. */
function demoReviewedAt(inspection: DemoInspection): Date | null {
  if (inspection.status === 'pending') return null;
  return after(new Date(inspection.endTime), AFTER_SUBMIT_MS.signed);
}

/** A video file's container, as a tus upload declares it (its Upload-Metadata filetype). */
function containerOf(file: string): DemoUpload['container'] {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.mp4' || ext === '.webm') return ext.slice(1) as DemoUpload['container'];
  throw new Error(`Demo dataset: ${file} is not an MP4 or WebM video`);
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

  // Each video is submitted (no file), then its file arrives by a tus upload and is verified; a
  // completed one's results are then ingested, a pending one's analysis is queued.
  const arriving: {
    row: typeof videos.$inferInsert & { id: string; userId: string };
    upload: DemoUpload;
    ingested: IngestedResults | null;
    /** When its recording ended: when it is submitted if no inspection names it. */
    recorded: Date;
  }[] = [];
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
    const container = containerOf(video.file);
    const uploadId = newId();
    const fileKey = arrivedFileKey(id, uploadId, `.${container}`);
    const videoBytes = await fs.readFile(file(video.file));
    const { size } = await ctx.storage.put(fileKey, videoBytes);
    const userId = userIds.get(video.userKey, where);
    const timestamp = new Date(video.timestamp);
    const submitted = submittedVideo(id, {
      userId,
      deviceId: deviceIds.get(video.deviceKey, where),
      lineClearanceId: lineIds.get(video.lineKey, where),
      startTime: timestamp,
      container,
      duration: video.duration,
    });
    const upload = {
      id: uploadId,
      userId,
      size,
      // The device's hash, which the server's matches: the SHA-256 of the bytes stored.
      sha256: createHash('sha256').update(videoBytes).digest('hex'),
      container,
      filename: video.filename,
      fileKey,
    };
    // Named and timed as the recording is, not after its id and its inspection's start.
    const row = { ...submitted, filename: video.filename, subfolder };
    const recorded = after(timestamp, video.duration * 1000);
    if (video.status === 'pending') {
      arriving.push({ row, upload, ingested: null, recorded });
      continue;
    }
    if (!video.keyframesFile || !video.keyframeImagesDir || !video.analysisVersion) {
      throw new Error(
        `Demo dataset: completed ${where} needs keyframesFile, keyframeImagesDir and analysisVersion`,
      );
    }
    const keyframesKey = `keyframes/${id}.txt`;
    const keyframes = await fs.readFile(file(video.keyframesFile));
    // Checked as the ingestion API checks posted keyframes.
    const { points, badLineCount } = await checkKeyframes(keyframes);
    if (badLineCount > 0) throw new Error(`Demo dataset: ${video.keyframesFile} is malformed`);
    await ctx.storage.put(keyframesKey, keyframes);
    const imagesPrefix = `keyframe-images/${subfolder}`;
    let images = 0;
    for (const name of await fs.readdir(file(video.keyframeImagesDir))) {
      if (!name.endsWith('.png')) continue;
      const bytes = await fs.readFile(path.join(file(video.keyframeImagesDir), name));
      await ctx.storage.put(`${imagesPrefix}/${name}`, bytes);
      images++;
    }
    const results = {
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
    };
    arriving.push({ row, upload, ingested: { results, points, images }, recorded });
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

  // Every inspection is submitted pending with its video: one of the dataset's or, when its file
  // has not arrived, the row the submit creates from its declaration (submittedVideo).
  const planned: (PlannedInspection & {
    submittedAt: Date;
    waiting: ReturnType<typeof submittedVideo> | null;
  })[] = [];
  for (const inspection of dataset.inspections) {
    const where = `inspection '${inspection.key}'`;
    const lineClearanceId = lineIds.get(inspection.lineKey, where);
    const operatorId = userIds.get(inspection.operatorKey, where);
    const startTime = new Date(inspection.startTime);
    const endTime = new Date(inspection.endTime);
    const pending = inspection.pendingUpload;
    let videoId: string;
    let waiting: ReturnType<typeof submittedVideo> | null = null;
    if (inspection.videoKey && !pending) videoId = videoIds.get(inspection.videoKey, where);
    else if (pending && !inspection.videoKey) {
      videoId = newId();
      waiting = submittedVideo(videoId, {
        userId: operatorId,
        deviceId: pending.deviceKey ? deviceIds.get(pending.deviceKey, where) : null,
        lineClearanceId,
        startTime,
        container: pending.container,
        duration: pending.duration,
      });
    } else {
      throw new Error(`Demo dataset: ${where} needs either a videoKey or a pendingUpload`);
    }
    const reviewedAt = demoReviewedAt(inspection);
    if (inspection.status !== 'pending' && !inspection.reviewerKey) {
      throw new Error(`Demo dataset: ${where} is ${inspection.status} but names no reviewerKey`);
    }
    planned.push({
      row: {
        id: newId(),
        lineClearanceId,
        operatorId,
        videoId,
        startTime,
        endTime,
        productLeaving: inspection.productLeaving,
        batchLeaving: inspection.batchLeaving,
        productComing: inspection.productComing,
        batchComing: inspection.batchComing,
        operatorNotes: inspection.operatorNotes,
      },
      duration: (waiting ?? arriving.find((v) => v.row.id === videoId)?.row)?.duration ?? 0,
      capture: inspection.captureFile
        ? (JSON.parse(await fs.readFile(file(inspection.captureFile), 'utf8')) as DemoCapture)
        : null,
      review:
        inspection.status !== 'pending' && inspection.reviewerKey && reviewedAt
          ? {
              signerId: userIds.get(inspection.reviewerKey, where),
              meaning: inspection.status,
              notes: (inspection.reviewNotes ?? '').trim(),
              at: reviewedAt,
            }
          : null,
      // The phone submits as the recording ends.
      submittedAt: endTime,
      waiting,
    });
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
    const actor = (userId: string): Actor => {
      const user = byId.get(userId);
      return {
        user: user ? { id: userId, name: user.name, email: user.email, roles: user.roles } : null,
      };
    };
    // The completed videos' results come from outside (a SLAM, a detector), posted through the
    // ingestion API by an admin (the demo has no service account).
    const admin = dataset.users.find((user) => user.roles.includes('admin'));
    const ingester = admin ? actor(userIds.get(admin.key, 'users')) : null;
    // Each inspection is checked against its line's checklist as it stood when it began.
    const checklists = new Map<string, ChecklistSnapshot>();
    for (const line of lineRows) checklists.set(line.id, await checklistFor(tx, line.id));

    // A video is submitted with the (first) inspection that names it, else when its recording ends.
    const submittedAt = new Map<string, Date>();
    for (const { row, submittedAt: at } of planned) {
      const first = submittedAt.get(row.videoId ?? '');
      if (row.videoId && (!first || at < first)) submittedAt.set(row.videoId, at);
    }
    const steps: StoryStep[] = [];
    for (const { row, upload, ingested, recorded } of arriving) {
      const at = submittedAt.get(row.id) ?? recorded;
      const recorder = actor(row.userId);
      steps.push(
        submitVideo(row, recorder, at),
        ...arrivalSteps(ctx, row.id, upload, ingested, { recorder, ingester }, at),
      );
    }
    for (const inspection of planned) {
      const { waiting, submittedAt: at } = inspection;
      if (waiting) steps.push(submitVideo(waiting, actor(waiting.userId), at));
      const checklist = checklists.get(inspection.row.lineClearanceId) ?? null;
      steps.push(...inspectionSteps(ctx, inspection, checklist, actor, at));
    }
    // In time order, so that the trail's ids (its chain order) and its times agree.
    for (const step of inTimeOrder(steps)) await step.write(tx);
    await audit(tx, null, {
      action: 'demo.load',
      entity: 'system',
      newValue: {
        users: dataset.users.length,
        lineClearances: lineRows.length,
        videos: arriving.length + planned.filter((inspection) => inspection.waiting).length,
        inspections: planned.length,
      },
    });
  });
  // The queued analysis starts once the runner does (or now, if it already runs).
  ctx.analysis.wake();
  // The demo's reports, built once so /reports shows their flags from the first start.
  await summarizeMissing(ctx);
}
