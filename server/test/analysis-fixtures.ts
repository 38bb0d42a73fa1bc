// Rows the analysis reads, written straight into the database: a line with Blister Line 1's floor
// plan configuration, an operator's inspection with its checklist and capture (a simulated walk),
// and the video file in storage.
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { BLISTER_TAGS, type SimulatedWalk } from '../../tests/support/simulated-walk.ts';
import {
  analysisJobs,
  captures,
  floorplanConfigs,
  inspections,
  lineClearances,
  videos,
} from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { ChecklistSnapshot } from '../schemas/capture.ts';
import type { FloorplanConfiguration } from '../schemas/floorplan-configs.ts';
import type { TestApp } from './build.ts';

export const blisterConfiguration: FloorplanConfiguration = {
  displaySize: { width: 800, height: 500 },
  hotZones: [],
  tags: BLISTER_TAGS.map(([x, y], i) => ({
    x,
    y,
    name: `Tag ${i + 1}`,
    qrCode: `LC1-TAG-0${i + 1}`,
  })),
  cameras: [],
  coordinateSystem: {
    useSimpleMapping: true,
    sourceImageWidth: 1200,
    sourceImageHeight: 750,
    pixelsPerMeter: 50,
  },
};

/** A line with the configuration, managed by `managerId`, worked by `operatorId`. */
export async function createLine(t: TestApp, managerId: string | null, operatorId: string) {
  const { db } = t.services.ctx;
  const id = newId();
  await db.insert(lineClearances).values({
    id,
    name: `Line ${id.slice(-4)}`,
    managerId,
    assignedOperators: [operatorId],
  });
  await db.insert(floorplanConfigs).values({
    id: newId(),
    lineClearanceId: id,
    name: 'Blister Line 1 Floorplan Configuration',
    configuration: blisterConfiguration,
  });
  return id;
}

/** A pending video stored from `file`, with an inspection and (optionally) its capture. */
export async function createRecordedInspection(
  t: TestApp,
  options: {
    lineId: string;
    operatorId: string;
    file: string;
    walk?: Pick<SimulatedWalk, 'scans' | 'motion'> | null;
    motion?: boolean;
  },
) {
  const { db, storage } = t.services.ctx;
  const videoId = newId();
  const storageKey = `videos/${videoId}.mp4`;
  const { size } = await storage.put(storageKey, fs.readFileSync(options.file));
  await db.insert(videos).values({
    id: videoId,
    filename: `${videoId}.mp4`,
    storageKey,
    subfolder: videoId,
    userId: options.operatorId,
    lineClearanceId: options.lineId,
    timestamp: new Date('2026-11-20T08:00:00Z'),
    status: 'pending',
    size,
  });
  const inspectionId = newId();
  await db.insert(inspections).values({
    id: inspectionId,
    lineClearanceId: options.lineId,
    operatorId: options.operatorId,
    videoId,
    startTime: new Date('2026-11-20T08:00:00Z'),
    checklist: checklistFor(),
  });
  if (options.walk) {
    await db.insert(captures).values({
      inspectionId,
      ...captureFor(options.walk, options.motion !== false),
    });
  }
  return { videoId, inspectionId };
}

/** The line's tags as an inspection's checklist snapshot. */
export function checklistFor(): ChecklistSnapshot {
  return {
    floorplanConfigId: null,
    tags: blisterConfiguration.tags.map((tag, index) => ({ ...tag, index })),
    hotZones: [],
  };
}

/** A capture row's scans and motion from a simulated walk. */
export function captureFor(walk: Pick<SimulatedWalk, 'scans' | 'motion'>, withMotion = true) {
  const start = Date.parse('2026-11-20T08:00:00Z');
  const column = (values: ArrayLike<number>) => Array.from(values);
  const m = walk.motion;
  return {
    scans: walk.scans.map((scan) => ({
      code: `LC1-TAG-0${scan.tagIndex + 1}`,
      videoTime: scan.videoTime,
      at: new Date(start + scan.videoTime * 1000).toISOString(),
      tagIndex: scan.tagIndex,
    })),
    motion: withMotion
      ? {
          t: column(m.t),
          ax: column(m.ax),
          ay: column(m.ay),
          az: column(m.az),
          alpha: column(m.alpha),
          beta: column(m.beta),
          gamma: column(m.gamma),
          absolute: false,
        }
      : null,
  };
}

/** Every job of a video, oldest first. */
export const jobsOf = (t: TestApp, videoId: string) =>
  t.services.ctx.db
    .select()
    .from(analysisJobs)
    .where(eq(analysisJobs.videoId, videoId))
    .orderBy(analysisJobs.createdAt);
