// The detector seam (docs/analysis.md, "Plugging in a detector"): one keyframe image in, boxes out.
import type { DetectorInfo } from '../../schemas/analysis.ts';

export interface KeyframeImage {
  /** `{time}.png`, the name the keyframe and predictions routes use. */
  filename: string;
  /** The PNG on local disk. */
  file: string;
  width: number;
  height: number;
}

export interface Detection {
  label: string;
  /** 0..1 */
  conf: number;
  /** [x1, y1, x2, y2] as fractions of the image (spec §3 boxes_normalized). */
  box: [number, number, number, number];
}

export interface Detector {
  /** Name, version and threshold, recorded with every run and every prediction. */
  readonly info: DetectorInfo;
  /** False for `none`: the run records that no detections were made rather than an empty list. */
  readonly detects: boolean;
  /** Detections at or above the threshold. */
  detect(image: KeyframeImage, signal: AbortSignal): Promise<Detection[]>;
  close(): Promise<void>;
}

/** The default: no detector configured, so the job says so and writes no predictions. */
export const noDetector: Detector = {
  info: { name: 'none', version: '', threshold: 0 },
  detects: false,
  detect: async () => [],
  close: async () => {},
};
