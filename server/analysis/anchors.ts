// From the capture's QR scans to path anchors, and from the anchors to the video's calibration.
// The path's frame is the floor-plan image in metres (image pixels ÷ pixels per metre, y down), so
// the spec §5 rules map it with the anchors' own point pairs, and the simple-mapping fallback
// (metres × pixels per metre) lands on the same pixels when the anchors are too few or collinear.
import type { Anchor } from '../../workers/path-reconstruction.ts';
import type { VideoCalibration } from '../schemas/analysis.ts';
import type { ChecklistSnapshot, QrScan } from '../schemas/capture.ts';

export interface PlanScale {
  pixelsPerMeter: number;
  /** Floor-plan image pixels per display pixel (tag positions are display pixels). */
  imagePerDisplay: number;
}

/** Anchors (metres) from the scans of the line's tags, or why there are none. */
export function anchorsFor(
  scans: readonly QrScan[],
  checklist: ChecklistSnapshot | null,
  scale: PlanScale,
): Anchor[] | string {
  if (!checklist) return "the inspection has no checklist of the line's tags: no path";
  const anchors: Anchor[] = [];
  for (const scan of scans) {
    if (scan.tagIndex === null) continue;
    const tag = checklist.tags[scan.tagIndex];
    if (!tag) continue;
    const k = scale.imagePerDisplay / scale.pixelsPerMeter;
    anchors.push({ t: scan.videoTime, x: tag.x * k, y: tag.y * k });
  }
  return anchors;
}

/** At most this many point pairs (spec §5 uses four at most). */
const CALIBRATION_POINTS = 4;

/**
 * Point pairs from the anchors' distinct places, spread out greedily (each next point the farthest
 * from those chosen), slamPoints in metres and floorplanPoints in image pixels. Null with fewer
 * than two distinct places.
 */
export function calibrationFor(
  anchors: readonly Anchor[],
  scale: PlanScale,
): VideoCalibration | null {
  const places: [number, number][] = [];
  for (const a of anchors) {
    if (!places.some(([x, y]) => Math.hypot(x - a.x, y - a.y) < 1e-6)) places.push([a.x, a.y]);
  }
  if (places.length < 2) return null;
  const chosen: [number, number][] = [places[0] as [number, number]];
  while (chosen.length < Math.min(CALIBRATION_POINTS, places.length)) {
    let best: [number, number] | null = null;
    let bestDistance = -1;
    for (const p of places) {
      const distance = Math.min(...chosen.map(([x, y]) => Math.hypot(p[0] - x, p[1] - y)));
      if (distance > bestDistance) {
        bestDistance = distance;
        best = p;
      }
    }
    if (!best || bestDistance < 1e-6) break;
    chosen.push(best);
  }
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  return {
    slamPoints: chosen.map(([x, y]) => [round(x), round(y)]),
    floorplanPoints: chosen.map(([x, y]) => [
      round(x * scale.pixelsPerMeter),
      round(y * scale.pixelsPerMeter),
    ]),
    forceAffine: true,
    yAxisFlip: false,
  };
}
