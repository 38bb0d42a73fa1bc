// Builds the whole demo dataset in memory: the records (dataset.json), the keyframes text files,
// the floor-plan and keyframe images, and the plans the video frames are rendered from. Pure and
// seeded, so the generator and the tests get identical output.
import type {
  DemoDataset,
  DemoDetector,
  DemoFloorplanConfig,
  DemoInspection,
  DemoPrediction,
  DemoVideo,
} from '../../server/demo/dataset-types.ts';
import { buildCapture } from './demo-capture.ts';
import { blisterLine, bottlingLine, drawFloorplan, type LineLayout } from './demo-floorplans.ts';
import {
  DETECTION_CLASSES,
  RoutePath,
  renderScene,
  type SceneObject,
  type SceneSet,
  sceneSet,
  Walk,
} from './demo-scene.ts';
import { Prng } from './prng.ts';
import type { Raster } from './raster.ts';
import { applyTransform, fitAffine, fitHomography, type Matrix3, type Point } from './transform.ts';

export const VIDEO_SIZE = { width: 480, height: 270 } as const;
export const VIDEO_FPS = 15;
const KEYFRAME_IMAGE_SIZE = { width: 320, height: 180 } as const;
/** The calibrator shows the floor plan scaled to fit 800 on its longer side (spec §9). */
const CALIBRATOR_FIT = 800;
const PIXELS_PER_METER = 50;
/** Confidences of the demo's detections are drawn from here up to 0.98. */
const MIN_CONFIDENCE = 0.55;
/**
 * Who made the completed videos' results (their analysisVersion and the predictions' detector):
 * this generator, standing in for an external SLAM and detector whose results were ingested.
 */
export const DEMO_ANALYSIS_VERSION = 'lc-demo-generator/1';
export const DEMO_DETECTOR: DemoDetector = {
  name: 'lc-demo-generator',
  version: '1',
  threshold: MIN_CONFIDENCE,
};
export interface VideoPlan {
  key: string;
  /** File base name: the video file, keyframes file and keyframe image folder are named after it. */
  base: string;
  layout: LineLayout;
  userKey: string;
  deviceKey: string;
  timestamp: string;
  /** Seconds; a whole number of frames at VIDEO_FPS. */
  duration: number;
  route: Point[];
  /** Indices into the line's tags where the operator stops for 1.5 s. */
  pauseAtTags: number[];
  /**
   * The results the video arrives with (status `completed`): keyframe lines, every Nth naming a
   * keyframe image. Null: none yet (status `pending`, its analysis queued).
   */
  results: { keyframeLines: number; imageEvery: number } | null;
  objectCount: number;
  /** Whether the operator's phone recorded QR scans and motion beside the video. */
  capture: boolean;
  seed: number;
}

const videoPlans: VideoPlan[] = [
  {
    key: 'video-lc1-1',
    base: 'lc1-20261103-081500',
    layout: blisterLine,
    userKey: 'operator',
    deviceKey: 'hc-01',
    timestamp: '2026-11-03T08:15:00.000Z',
    duration: 40,
    route: blisterLine.route,
    pauseAtTags: [0, 2, 4],
    results: { keyframeLines: 3000, imageEvery: 100 },
    objectCount: 7,
    capture: false,
    seed: 11,
  },
  {
    key: 'video-lc1-2',
    base: 'lc1-20261110-140500',
    layout: blisterLine,
    userKey: 'operator2',
    deviceKey: 'tablet-02',
    timestamp: '2026-11-10T14:05:00.000Z',
    duration: 30,
    // Front aisle out and back only: the rear of the line was never walked.
    route: [
      [60, 370],
      [130, 430],
      [1110, 430],
      [130, 430],
      [60, 370],
    ],
    pauseAtTags: [1],
    results: { keyframeLines: 2400, imageEvery: 80 },
    objectCount: 9,
    capture: false,
    seed: 23,
  },
  {
    key: 'video-lc2-1',
    base: 'lc2-20261112-063000',
    layout: bottlingLine,
    userKey: 'operator2',
    deviceKey: 'hc-01',
    timestamp: '2026-11-12T06:30:00.000Z',
    duration: 34,
    route: bottlingLine.route,
    pauseAtTags: [1, 3],
    results: { keyframeLines: 6800, imageEvery: 200 },
    objectCount: 6,
    capture: false,
    seed: 37,
  },
  {
    key: 'video-lc2-2',
    base: 'lc2-20261118-221500',
    layout: bottlingLine,
    userKey: 'operator',
    deviceKey: 'tablet-02',
    timestamp: '2026-11-18T22:15:00.000Z',
    duration: 32,
    route: bottlingLine.route,
    pauseAtTags: [2],
    results: { keyframeLines: 2600, imageEvery: 80 },
    objectCount: 10,
    capture: false,
    seed: 41,
  },
  {
    key: 'video-lc1-3',
    base: 'lc1-20261120-101000',
    layout: blisterLine,
    userKey: 'operator',
    deviceKey: 'hc-01',
    timestamp: '2026-11-20T10:10:00.000Z',
    duration: 38,
    route: blisterLine.route,
    pauseAtTags: [3, 5],
    // Uploaded and verified; the server's own analysis is queued (the runner takes it on start).
    results: null,
    objectCount: 4,
    capture: true,
    seed: 53,
  },
];

export const paths = {
  floorplan: (layout: LineLayout) => `floorplans/${layout.imageName}`,
  video: (plan: VideoPlan) => `videos/${plan.base}.mp4`,
  keyframes: (plan: VideoPlan) => `keyframes/${plan.base}.txt`,
  capture: (plan: VideoPlan) => `captures/${plan.base}.json`,
  keyframeImage: (plan: VideoPlan, timestamp: string) => `${plan.base}/${timestamp}.png`,
};

/**
 * The ground truth inverted: image pixels to map units (after yAxisFlip). Fitting the reverse
 * direction from the same pairs is exact for both the affine and the 4-point perspective lines.
 */
function imageToMap(layout: LineLayout): Matrix3 {
  return layout.forceAffine
    ? fitAffine(layout.floorplanPoints, layout.slamPoints)
    : fitHomography(layout.floorplanPoints, layout.slamPoints);
}

function displayScale(layout: LineLayout): number {
  return CALIBRATOR_FIT / Math.max(layout.width, layout.height);
}

const round = (v: number, decimals: number) => {
  const f = 10 ** decimals;
  // `|| 0` turns -0 into 0 so files never hold '-0.000'.
  return Math.round(v * f) / f || 0;
};

function floorplanConfig(layout: LineLayout, name: string): DemoFloorplanConfig {
  const k = displayScale(layout);
  const d = (v: number) => round(v * k, 2);
  return {
    lineKey: layout.lineKey,
    floorplanKey: `fp-${layout.lineKey}`,
    name: `${name} Floorplan Configuration`,
    configuration: {
      floorplanImage: paths.floorplan(layout),
      displaySize: { width: d(layout.width), height: d(layout.height) },
      hotZones: layout.hotZones.map(({ rect, ...zone }) => ({
        x: d(rect.x),
        y: d(rect.y),
        width: d(rect.w),
        height: d(rect.h),
        ...zone,
      })),
      tags: layout.tags.map(({ at, ...tag }) => ({ x: d(at[0]), y: d(at[1]), ...tag })),
      cameras: layout.cameras.map(({ at, ...camera }) => ({ x: d(at[0]), y: d(at[1]), ...camera })),
      coordinateSystem: {
        useSimpleMapping: true,
        sourceImageWidth: layout.width,
        sourceImageHeight: layout.height,
        pixelsPerMeter: PIXELS_PER_METER,
      },
      slamPoints: layout.slamPoints.map(([x, y]) => [x, y]),
      floorplanPoints: layout.floorplanPoints.map(([x, y]) => [x, y]),
      forceAffine: layout.forceAffine,
      yAxisFlip: layout.yAxisFlip,
    },
  };
}

/** Places the things left on the line: spaced along the route so no two overlap in view. */
function placeObjects(route: RoutePath, count: number, prng: Prng): SceneObject[] {
  const objects: SceneObject[] = [];
  while (objects.length < count) {
    const s = Math.round(prng.range(80, route.length - 80));
    const label = DETECTION_CLASSES[Math.floor(prng.next() * DETECTION_CLASSES.length)]!;
    const lane =
      label === 'carton' || label === 'debris' || (label === 'tool' && prng.next() < 0.5)
        ? 'floor'
        : 'belt';
    if (objects.every((o) => Math.abs(o.s - s) >= 70)) objects.push({ s, label, lane });
  }
  return objects.sort((a, b) => a.s - b.s);
}

export interface VideoBuild {
  plan: VideoPlan;
  walk: Walk;
  scene: SceneSet;
}

export interface DemoBuild {
  dataset: DemoDataset;
  /** Relative to server/demo/files/. */
  textFiles: Map<string, string>;
  images: Map<string, Raster>;
  videos: VideoBuild[];
}

function buildVideo(
  plan: VideoPlan,
  textFiles: Map<string, string>,
  images: Map<string, Raster>,
): { row: DemoVideo; build: VideoBuild } {
  const prng = new Prng(plan.seed);
  const route = new RoutePath(plan.route);
  const pauses = plan.pauseAtTags.map((i) => {
    const tag = plan.layout.tags[i];
    if (!tag) throw new Error(`Video ${plan.key}: no tag ${i} on ${plan.layout.lineKey}`);
    return { s: route.nearest(tag.at).s, seconds: 1.5 };
  });
  const walk = new Walk({ route, duration: plan.duration, pauses, seed: plan.seed });
  const scene = sceneSet(plan.layout, route, placeObjects(route, plan.objectCount, prng));
  const toMap = imageToMap(plan.layout);
  const results =
    plan.results && buildResults(plan, plan.results, walk, scene, toMap, prng, images);
  if (results) textFiles.set(paths.keyframes(plan), results.keyframes);
  if (plan.capture) {
    const capture = buildCapture({
      layout: plan.layout,
      walk,
      timestamp: plan.timestamp,
      duration: plan.duration,
      toMetres: (p) => applyTransform(toMap, p),
      seed: plan.seed,
    });
    textFiles.set(paths.capture(plan), `${JSON.stringify(capture)}\n`);
  }
  const row: DemoVideo = {
    key: plan.key,
    filename: `${plan.base}.mp4`,
    lineKey: plan.layout.lineKey,
    userKey: plan.userKey,
    deviceKey: plan.deviceKey,
    timestamp: plan.timestamp,
    status: results ? 'completed' : 'pending',
    duration: plan.duration,
    file: paths.video(plan),
    keyframesFile: results ? paths.keyframes(plan) : null,
    keyframeImagesDir: results ? plan.base : null,
    analysisVersion: results ? DEMO_ANALYSIS_VERSION : null,
    detector: results ? DEMO_DETECTOR : null,
    predictions: results?.predictions ?? [],
  };
  return { row, build: { plan, walk, scene } };
}

/**
 * A completed video's results: the keyframes text (the walk in map units, as a SLAM writes it),
 * its keyframe images and the predictions on them.
 */
function buildResults(
  plan: VideoPlan,
  { keyframeLines, imageEvery }: { keyframeLines: number; imageEvery: number },
  walk: Walk,
  scene: SceneSet,
  toMap: Matrix3,
  prng: Prng,
  images: Map<string, Raster>,
): { keyframes: string; predictions: DemoPrediction[] } {
  const flip = plan.layout.yAxisFlip ? -1 : 1;
  const lines: string[] = [];
  const predictions: DemoPrediction[] = [];
  const step = plan.duration / (keyframeLines - 1);
  for (let i = 0; i < keyframeLines; i++) {
    // SLAM keyframes are not evenly spaced: jitter inside the step keeps them strictly increasing.
    const jitter = i === 0 || i === keyframeLines - 1 ? 0 : prng.range(-0.25, 0.25) * step;
    const t = round(i * step + jitter, 3);
    const timestamp = t.toFixed(3);
    const [px, py] = walk.position(t);
    const noisy: Point = [px + prng.range(-0.3, 0.3), py + prng.range(-0.3, 0.3)];
    const [mx, my] = applyTransform(toMap, noisy);
    const fields = [String(i), round(mx, 3).toFixed(3), round(flip * my, 3).toFixed(3), timestamp];
    if (i % imageEvery === 0) {
      fields.push(`${timestamp}.png`);
      const { frame, visible } = renderScene(
        scene,
        walk.arcLength(t),
        KEYFRAME_IMAGE_SIZE.width,
        KEYFRAME_IMAGE_SIZE.height,
      );
      images.set(paths.keyframeImage(plan, timestamp), frame);
      if (visible.length > 0) {
        predictions.push({
          filename: `${timestamp}.png`,
          subfolder: plan.base,
          class_labels: visible.map((v) => v.label),
          confs: visible.map(() => round(prng.range(MIN_CONFIDENCE, 0.98), 3)),
          boxes_normalized: visible.map((v) => v.box),
        });
      }
    }
    lines.push(fields.join(' '));
  }
  return { keyframes: `${lines.join('\n')}\n`, predictions };
}

/** One frame of a video: the same scene the keyframe images show, at VIDEO_SIZE. */
export function renderVideoFrame(video: VideoBuild, frame: number): Raster {
  const t = frame / VIDEO_FPS;
  return renderScene(video.scene, video.walk.arcLength(t), VIDEO_SIZE.width, VIDEO_SIZE.height)
    .frame;
}

/** An inspection as planned; its end time and capture file follow from its video's plan. */
type InspectionPlan = Omit<DemoInspection, 'endTime' | 'captureFile'>;

const products = {
  paracetamolTablets: 'Paracetamol 500 mg tablets',
  ibuprofenTablets: 'Ibuprofen 400 mg film-coated tablets',
  cetirizineTablets: 'Cetirizine 10 mg film-coated tablets',
  guaifenesinSolution: 'Guaifenesin 100 mg/5 mL oral solution',
  paracetamolSuspension: 'Paracetamol 250 mg/5 mL oral suspension',
  ibuprofenSuspension: 'Ibuprofen 100 mg/5 mL oral suspension',
};

// Each changeover's coming batch is the next one's leaving batch on the same line.
const inspectionPlans: InspectionPlan[] = [
  {
    key: 'insp-lc1-1',
    lineKey: blisterLine.lineKey,
    operatorKey: 'operator',
    videoKey: 'video-lc1-1',
    pendingUpload: null,
    startTime: '2026-11-03T08:10:00.000Z',
    productLeaving: products.paracetamolTablets,
    batchLeaving: 'PA2611-014',
    productComing: products.ibuprofenTablets,
    batchComing: 'IB2611-022',
    status: 'approved',
    operatorNotes:
      'Changeover from batch PA2611-014. Removed one leftover label at the sealing station.',
    reviewerKey: 'lcmanager',
    reviewNotes:
      'The leftover label was removed at the sealing station, as the video shows; the flagged cartons are outside the line.',
  },
  {
    key: 'insp-lc1-2',
    lineKey: blisterLine.lineKey,
    operatorKey: 'operator2',
    videoKey: 'video-lc1-2',
    pendingUpload: null,
    startTime: '2026-11-10T14:00:00.000Z',
    productLeaving: products.ibuprofenTablets,
    batchLeaving: 'IB2611-022',
    productComing: products.cetirizineTablets,
    batchComing: 'CE2611-007',
    status: 'rejected',
    operatorNotes: 'Front aisle checked; rear access was blocked by a pallet.',
    reviewerKey: 'lcmanager',
    reviewNotes:
      'Rear access not inspected (blocked by a pallet): move the pallet and inspect the rear again.',
  },
  {
    key: 'insp-lc2-1',
    lineKey: bottlingLine.lineKey,
    operatorKey: 'operator2',
    videoKey: 'video-lc2-1',
    pendingUpload: null,
    startTime: '2026-11-12T06:25:00.000Z',
    productLeaving: products.guaifenesinSolution,
    batchLeaving: 'GU2611-203',
    productComing: products.paracetamolSuspension,
    batchComing: 'PS2611-118',
    status: 'approved',
    operatorNotes: 'Line clear after batch GU2611-203. Caps chute emptied.',
    reviewerKey: 'lcmanager2',
    reviewNotes:
      'Flagged detections checked on the video: reflections on the capper guard; the line is clear.',
  },
  {
    key: 'insp-lc2-2',
    lineKey: bottlingLine.lineKey,
    operatorKey: 'operator',
    videoKey: 'video-lc2-2',
    pendingUpload: null,
    startTime: '2026-11-18T22:10:00.000Z',
    productLeaving: products.paracetamolSuspension,
    batchLeaving: 'PS2611-118',
    productComing: products.ibuprofenSuspension,
    batchComing: 'IS2611-054',
    status: 'pending',
    operatorNotes: 'Night shift changeover. Two cartons found near the case packer and removed.',
    reviewerKey: null,
    reviewNotes: null,
  },
  {
    key: 'insp-lc1-3',
    lineKey: blisterLine.lineKey,
    operatorKey: 'operator',
    videoKey: 'video-lc1-3',
    pendingUpload: null,
    startTime: '2026-11-20T10:05:00.000Z',
    productLeaving: products.cetirizineTablets,
    batchLeaving: 'CE2611-007',
    productComing: products.paracetamolTablets,
    batchComing: 'PA2611-041',
    status: 'pending',
    operatorNotes: 'Changeover to batch PA2611-041.',
    reviewerKey: null,
    reviewNotes: null,
  },
  {
    key: 'insp-lc2-3',
    lineKey: bottlingLine.lineKey,
    operatorKey: 'operator2',
    videoKey: null,
    // Submitted from the tablet (Chrome records WebM); the file waits on the device for Wi-Fi.
    pendingUpload: { container: 'webm', duration: 36, deviceKey: 'tablet-02' },
    startTime: '2026-11-21T07:00:00.000Z',
    productLeaving: products.ibuprofenSuspension,
    batchLeaving: 'IS2611-054',
    productComing: products.guaifenesinSolution,
    batchComing: 'GU2611-219',
    status: 'pending',
    operatorNotes: 'Walk done; the video upload is waiting for Wi-Fi.',
    reviewerKey: null,
    reviewNotes: null,
  },
];

/**
 * Ends with its recording: its video's, or, for a file not uploaded yet, the one the submit
 * declared, which started with the inspection. The phone's capture if any.
 */
function inspectionRecord(inspection: InspectionPlan): DemoInspection {
  const plan = videoPlans.find((p) => p.key === inspection.videoKey);
  const { key, lineKey, operatorKey, videoKey, pendingUpload, startTime, ...rest } = inspection;
  let end: number;
  if (plan) end = Date.parse(plan.timestamp) + plan.duration * 1000;
  else if (pendingUpload) end = Date.parse(startTime) + pendingUpload.duration * 1000;
  else throw new Error(`Inspection ${key} has no video: a submit always creates one`);
  return {
    key,
    lineKey,
    operatorKey,
    videoKey,
    pendingUpload,
    startTime,
    endTime: new Date(end).toISOString(),
    ...rest,
    captureFile: plan?.capture ? paths.capture(plan) : null,
  };
}

export function buildDemo(): DemoBuild {
  const textFiles = new Map<string, string>();
  const images = new Map<string, Raster>();
  for (const layout of [blisterLine, bottlingLine])
    images.set(paths.floorplan(layout), drawFloorplan(layout));
  const built = videoPlans.map((plan) => buildVideo(plan, textFiles, images));
  const dataset: DemoDataset = {
    users: [
      { key: 'admin', name: 'Adriana Novak', email: 'admin@example.com', roles: ['admin'] },
      {
        key: 'factory',
        name: 'Martin Keller',
        email: 'factory@example.com',
        roles: ['factory_manager'],
      },
      {
        key: 'lcmanager',
        name: 'Sofia Lindqvist',
        email: 'lcmanager@example.com',
        roles: ['lc_manager'],
      },
      {
        key: 'lcmanager2',
        name: 'Daniel Okafor',
        email: 'lcmanager2@example.com',
        roles: ['lc_manager'],
      },
      { key: 'audit', name: 'Helen Park', email: 'audit@example.com', roles: ['audit'] },
      { key: 'operator', name: 'Tomás Rivera', email: 'operator@example.com', roles: ['operator'] },
      { key: 'operator2', name: 'Priya Nair', email: 'operator2@example.com', roles: ['operator'] },
    ],
    lineClearances: [
      {
        key: blisterLine.lineKey,
        name: 'Blister Line 1',
        description:
          'Thermoform blister packaging: forming, feeding, sealing, cutting, cartoning, case packing.',
        location: 'Building B, Packaging Hall 1',
        status: 'active',
        managerKey: 'lcmanager',
        operatorKeys: ['operator', 'operator2'],
      },
      {
        key: bottlingLine.lineKey,
        name: 'Bottling Line 2',
        description:
          'Oral liquids: unscrambling, rinsing, filling, capping, labelling, checkweighing, case packing.',
        location: 'Building B, Packaging Hall 2',
        status: 'active',
        managerKey: 'lcmanager2',
        operatorKeys: ['operator2', 'operator'],
      },
      {
        key: 'sachet-line-3',
        name: 'Sachet Line 3',
        description: 'Powder sachets; being requalified after a sealing-jaw replacement.',
        location: 'Building C, Packaging Hall 3',
        status: 'maintenance',
        managerKey: 'lcmanager',
        operatorKeys: [],
      },
    ],
    devices: [
      { key: 'hc-01', name: 'Handheld Camera HC-01', type: 'camera', status: 'active' },
      { key: 'tablet-02', name: 'Inspection Tablet TB-02', type: 'camera', status: 'active' },
      { key: 'monitor-03', name: 'Line Monitor LM-03', type: 'monitor', status: 'maintenance' },
    ],
    floorplans: [
      {
        layout: blisterLine,
        name: 'Blister Line 1 floor plan',
        createdAt: '2026-10-20T09:00:00.000Z',
      },
      {
        layout: bottlingLine,
        name: 'Bottling Line 2 floor plan',
        createdAt: '2026-10-21T13:30:00.000Z',
      },
    ].map(({ layout, name, createdAt }) => ({
      key: `fp-${layout.lineKey}`,
      name,
      lineKey: layout.lineKey,
      file: paths.floorplan(layout),
      width: layout.width,
      height: layout.height,
      createdAt,
    })),
    floorplanConfigs: [
      floorplanConfig(blisterLine, 'Blister Line 1'),
      floorplanConfig(bottlingLine, 'Bottling Line 2'),
    ],
    videos: built.map((b) => b.row),
    inspections: inspectionPlans.map(inspectionRecord),
  };
  return { dataset, textFiles, images, videos: built.map((b) => b.build) };
}
