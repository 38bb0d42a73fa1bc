import type { Prediction } from '../../types/api.ts';

/** One detected object: its class label, confidence (0..1) and box as image fractions. */
export interface DetectedObject {
  label: string;
  /** Null when the prediction lists fewer confidences than labels. */
  confidence: number | null;
  /** [x1, y1, x2, y2] as fractions of the image; null when the prediction has no box for it. */
  box: readonly [number, number, number, number] | null;
}

/** A keyframe with detections (one prediction record). */
export interface Detection {
  id: string;
  /** Seconds, from the file name (`12.500.png` → 12.5). */
  time: number;
  /** The file name's timestamp as written (`12.500`). */
  stamp: string;
  filename: string;
  subfolder: string;
  objects: readonly DetectedObject[];
}

const pngSuffix = /\.png$/i;

/** The keyframe timestamp a prediction's or keyframe image's file name carries. */
export function frameTime(filename: string): number {
  return Number.parseFloat(filename);
}

function toBox(value: readonly number[] | undefined): DetectedObject['box'] {
  if (value?.length !== 4 || !value.every(Number.isFinite)) return null;
  const [x1, y1, x2, y2] = value as [number, number, number, number];
  return [x1, y1, x2, y2];
}

/**
 * Spec §7: predictions sorted by the numeric value of their file name (the server sorts too; a
 * GMP review must not depend on it). Records whose file name carries no number are dropped.
 */
export function toDetections(predictions: readonly Prediction[]): Detection[] {
  return predictions
    .map((prediction) => ({
      id: prediction._id,
      time: frameTime(prediction.filename),
      stamp: prediction.filename.replace(pngSuffix, ''),
      filename: prediction.filename,
      subfolder: prediction.subfolder,
      objects: prediction.class_labels.map((label, index) => ({
        label,
        confidence: Number.isFinite(prediction.confs[index])
          ? (prediction.confs[index] as number)
          : null,
        box: toBox(prediction.boxes_normalized[index]),
      })),
    }))
    .filter((detection) => Number.isFinite(detection.time))
    .sort((a, b) => a.time - b.time);
}

/** Spec §9: the list shows the first confidence as a percent with 0 decimals. */
export function listConfidence(confidence: number | null): string {
  return confidence === null ? '' : `${(confidence * 100).toFixed(0)}%`;
}

/** Spec §9: boxes show their confidence as a percent with 1 decimal. */
export function boxConfidence(confidence: number | null): string {
  return confidence === null ? '' : `${(confidence * 100).toFixed(1)}%`;
}

/** The list line of a detection: its time, first class label and that label's confidence. */
export function detectionSummary(detection: Detection): { label: string; confidence: string } {
  const first = detection.objects[0];
  return {
    label: first?.label ?? 'Unlabelled',
    confidence: listConfidence(first?.confidence ?? null),
  };
}

/**
 * The confidence threshold (0..1) filters objects; a detection left without objects is hidden.
 * 0 shows everything as recorded, objects without a confidence included.
 */
export function aboveThreshold(detections: readonly Detection[], threshold: number): Detection[] {
  if (threshold <= 0) return [...detections];
  return detections.flatMap((detection) => {
    const objects = detection.objects.filter(
      (object) => object.confidence !== null && object.confidence >= threshold,
    );
    return objects.length ? [{ ...detection, objects }] : [];
  });
}

/** Two keyframe times are the same frame within spec §9's timestamp tolerance. */
export const sameFrameSeconds = 0.001;

/** The detection of the keyframe image at `time`, if it has one. */
export function detectionAt(detections: readonly Detection[], time: number): Detection | null {
  return (
    detections.find((detection) => Math.abs(detection.time - time) <= sameFrameSeconds) ?? null
  );
}

/** N / P: the first detection after, or the last before, `time` (a frame apart, not the same). */
export function adjacentDetection(
  detections: readonly Detection[],
  time: number,
  direction: -1 | 1,
): Detection | null {
  if (direction > 0) {
    return detections.find((detection) => detection.time > time + sameFrameSeconds) ?? null;
  }
  return detections.findLast((detection) => detection.time < time - sameFrameSeconds) ?? null;
}
