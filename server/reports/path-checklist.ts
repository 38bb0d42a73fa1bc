// The checklist as the path shows it (docs/reports.md): the keyframes mapped onto the floor plan by
// the path core's Node entry, the same transform and the same spec §4 tag-scan rule as the path
// player, then hot-zone visits from the mapped points inside each rectangle and the gaps in time.
import {
  calibrationOf,
  calibrationPairs,
  imageSizeOf,
  layoutToImage,
  MIN_CALIBRATION_PAIRS,
} from '../../workers/floor-plan-scene.ts';
import { createNodePathEngine, type PathEngine } from '../../workers/path-engine.node.ts';
import { knownImage, TAG_SCAN_RADIUS_PX } from '../../workers/path-engine.ts';
import type { ImageSize, XY } from '../../workers/path-types.ts';
import type { FloorplanConfiguration, HotZone, Tag } from '../schemas/floorplan-configs.ts';

/**
 * Why the report has no path. Where the keyframes file loaded, the spec §8 path player wording, so
 * the report says what the video analysis page says; without one, a reviewer's words for why
 * (the spec's 'No keyframesPath provided.' is a player's state, and told a reviewer nothing).
 */
export const pathMessages = {
  noVideo: 'No video was recorded for this inspection.',
  notAnalysed: 'No path yet: the video has not been analysed.',
  noReason: 'No path: the analysis made none and recorded no reason.',
  missingConfiguration:
    'Missing floorplan configuration. Please configure the floorplan mapping first.',
  empty: 'Keyframes file is empty.',
  noPoints: 'No path points loaded.',
  /** The page's own words for a video whose file has not arrived (nothing analysed yet). */
  awaitingUpload: 'No path yet: the analysis makes it once the video file has arrived.',
} as const;

/** The analysis's reason as a sentence: its reasons end in ': no path', said here first. */
const analysisFound = (reason: string) =>
  `No path: the analysis found ${reason.replace(/: no path$/, '')}.`;

/**
 * Why a video has no keyframes file (docs/reports.md): its file has not arrived or never will, it
 * has not been analysed yet, or the analysis's own reason (the video's status reason, as /analysis
 * shows it).
 */
export function missingPath(video: {
  status: string;
  statusReason: string | null;
  sha256: string | null;
}): {
  message: string;
  reason: string | null;
} {
  if (!video.sha256) {
    // A recording given up (discarded on the device, refused at ingest) never arrives.
    if (video.status !== 'error') return { message: pathMessages.awaitingUpload, reason: null };
    const reason = video.statusReason;
    return { message: `No video file: ${reason ?? 'no reason recorded'}.`, reason };
  }
  if (video.status === 'pending' || video.status === 'processing') {
    // A queued run's 'retrying: …' is why it runs again, not why there is no path.
    return { message: pathMessages.notAnalysed, reason: null };
  }
  const reason = video.statusReason;
  if (video.status === 'error') {
    return { message: `No path: the analysis failed (${reason ?? 'no reason recorded'}).`, reason };
  }
  return { message: reason ? analysisFound(reason) : pathMessages.noReason, reason };
}

/** The coverage picture keeps points about this fraction of the image's longer side apart. */
const COVERAGE_SPACING = 1 / 150;

export interface PathTimes {
  /** Time-sorted path in image pixels. */
  t: Float64Array;
  x: Float64Array;
  y: Float64Array;
}

export interface TagOnPath {
  scanned: boolean;
  /** Time of the path point nearest the tag. */
  closestTime: number;
}

export interface ZoneOnPath {
  visited: boolean;
  secondsInside: number;
  /** First time inside, else the time of the closest approach. */
  time: number;
}

export interface PathChecklist {
  image: ImageSize;
  /** Layout (calibrator) pixels to image pixels. */
  layoutScale: { x: number; y: number };
  tags: TagOnPath[];
  zones: ZoneOnPath[];
  /** [start, end] times of consecutive points further apart than the gap threshold. */
  gaps: [number, number][];
  coveragePath: [number, number][];
  bounds: { min: number; max: number };
}

let engine: Promise<PathEngine> | null = null;
/** One engine per process: its calls are synchronous, so concurrent reports never interleave. */
function pathEngine(): Promise<PathEngine> {
  engine ??= createNodePathEngine().catch((error: unknown) => {
    engine = null;
    throw error;
  });
  return engine;
}

/** Spec §7: the keyframe image names ('{timestamp}.png') the keyframes file lists. */
export async function keyframeImageNames(keyframes: Uint8Array): Promise<string[]> {
  return (await pathEngine()).keyframeImageNames(keyframes);
}

function sortedByTime(t: Float64Array, x: Float64Array, y: Float64Array): PathTimes {
  const order = Array.from(t.keys()).sort((a, b) => (t[a] as number) - (t[b] as number));
  const pick = (column: Float64Array) => Float64Array.from(order, (i) => column[i] as number);
  return { t: pick(t), x: pick(x), y: pick(y) };
}

function nearestTime(path: PathTimes, px: number, py: number): number {
  let best = Number.POSITIVE_INFINITY;
  let time = path.t[0] ?? 0;
  for (let i = 0; i < path.t.length; i++) {
    const d = ((path.x[i] as number) - px) ** 2 + ((path.y[i] as number) - py) ** 2;
    if (d < best) {
      best = d;
      time = path.t[i] as number;
    }
  }
  return time;
}

function zoneOnPath(path: PathTimes, zone: { x: number; y: number; w: number; h: number }) {
  const inside = (i: number) => {
    const x = path.x[i] as number;
    const y = path.y[i] as number;
    return x >= zone.x && x <= zone.x + zone.w && y >= zone.y && y <= zone.y + zone.h;
  };
  let first = -1;
  let secondsInside = 0;
  for (let i = 0; i < path.t.length; i++) {
    if (!inside(i)) continue;
    if (first < 0) first = i;
    if (i + 1 < path.t.length && inside(i + 1)) {
      secondsInside += (path.t[i + 1] as number) - (path.t[i] as number);
    }
  }
  const visited = first >= 0;
  const time = visited
    ? (path.t[first] as number)
    : nearestTime(path, zone.x + zone.w / 2, zone.y + zone.h / 2);
  return { visited, secondsInside, time };
}

export interface PathChecklistInput {
  keyframes: Uint8Array;
  configuration: FloorplanConfiguration;
  /** The floor-plan image's size from its header; null: the configuration's source size. */
  imageSize: ImageSize | null;
  tags: readonly Tag[];
  zones: readonly HotZone[];
  gapSeconds: number;
}

/** The checklist from the path, or a spec §8 message saying why there is no path. */
export async function pathChecklist(
  input: PathChecklistInput,
): Promise<{ ok: true; value: PathChecklist } | { ok: false; message: string }> {
  const calibration = calibrationOf(input.configuration);
  if (calibrationPairs(calibration) < MIN_CALIBRATION_PAIRS) {
    return { ok: false, message: pathMessages.missingConfiguration };
  }
  const image = knownImage(imageSizeOf(input.imageSize, input.configuration));
  const core = await pathEngine();
  const points = core.residentKeyframes(input.keyframes);
  try {
    if (points.report.empty) return { ok: false, message: pathMessages.empty };
    if (points.count === 0) return { ok: false, message: pathMessages.noPoints };
    const transform = core.solveTransform(calibration, image);
    points.mapToImage(transform, image);
    const layoutScale = layoutToImage(input.configuration, image);
    const tagPixels: XY[] = input.tags.map((tag) => [tag.x * layoutScale.x, tag.y * layoutScale.y]);
    const scan = points.scanTags(tagPixels, TAG_SCAN_RADIUS_PX);
    const spacing = Math.max(image.width, image.height) * COVERAGE_SPACING;
    const kept = points.thin(spacing);
    const columns = points.readColumns();
    const path = sortedByTime(columns.t, columns.x, columns.y);
    const scanned = new Set(scan.indices);
    const tags = tagPixels.map(([x, y], i) => ({
      scanned: scanned.has(i),
      closestTime: nearestTime(path, x, y),
    }));
    const zones = input.zones.map((zone) =>
      zoneOnPath(path, {
        x: zone.x * layoutScale.x,
        y: zone.y * layoutScale.y,
        w: zone.width * layoutScale.x,
        h: zone.height * layoutScale.y,
      }),
    );
    const gaps: [number, number][] = [];
    for (let i = 1; i < path.t.length; i++) {
      const from = path.t[i - 1] as number;
      const to = path.t[i] as number;
      if (to - from > input.gapSeconds) gaps.push([from, to]);
    }
    const coveragePath = Array.from(kept, (i): [number, number] => [
      round(columns.x[i] as number),
      round(columns.y[i] as number),
    ]);
    const bounds = { min: path.t[0] as number, max: path.t[path.t.length - 1] as number };
    return { ok: true, value: { image, layoutScale, tags, zones, gaps, coveragePath, bounds } };
  } finally {
    points.dispose();
  }
}

const round = (value: number) => Math.round(value * 10) / 10;
