import { segment } from '../../lib/api-client.ts';
import type { Video } from '../../types/api.ts';
import { type Detection, frameTime, sameFrameSeconds } from './detections.ts';

/** A keyframe image named in the keyframes file (`12.500.png`) and its time in seconds. */
export interface KeyframeImage {
  name: string;
  time: number;
}

/** The images in time order (a stable sort keeps file order for equal times); unnamed times dropped. */
export function toKeyframeImages(names: readonly string[]): KeyframeImage[] {
  return names
    .map((name) => ({ name, time: frameTime(name) }))
    .filter((image) => Number.isFinite(image.time))
    .sort((a, b) => a.time - b.time);
}

/** Index of the first image whose time is ≥ `time` (images.length when none is). */
function lowerBound(images: readonly KeyframeImage[], time: number): number {
  let low = 0;
  let high = images.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((images[mid] as KeyframeImage).time < time) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The image nearest to `time`; on a tie the earlier one. Null when there are no images. */
export function nearestImage(images: readonly KeyframeImage[], time: number): KeyframeImage | null {
  const at = lowerBound(images, time);
  const after = images[at];
  const before = images[at - 1];
  if (!before) return after ?? null;
  if (!after) return before;
  return time - before.time <= after.time - time ? before : after;
}

/** ← / →: the image before or after `time`, a frame apart (not the one shown at `time`). */
export function adjacentImage(
  images: readonly KeyframeImage[],
  time: number,
  direction: -1 | 1,
): KeyframeImage | null {
  if (direction > 0) return images[lowerBound(images, time + sameFrameSeconds + 1e-9)] ?? null;
  return images[lowerBound(images, time - sameFrameSeconds) - 1] ?? null;
}

/** Position of the image being shown at `time`: the last one at or before it, -1 before the first. */
export function currentImageIndex(images: readonly KeyframeImage[], time: number): number {
  return lowerBound(images, time + sameFrameSeconds + 1e-9) - 1;
}

/**
 * The folder the keyframe images of a video are served from. Predictions name it; a video without
 * predictions uses its file name without the extension, which is how the analysis names it.
 */
export function keyframeSubfolder(video: Video, detections: readonly Detection[]): string {
  const named = detections[0]?.subfolder;
  if (named) return named;
  const dot = video.filename.lastIndexOf('.');
  return dot > 0 ? video.filename.slice(0, dot) : video.filename;
}

/** Spec §7: GET /api/keyframes/{subfolder}/{timestamp}.png. */
export function keyframeImageUrl(subfolder: string, name: string): string {
  return `/api/keyframes/${segment(subfolder)}/${segment(name)}`;
}
