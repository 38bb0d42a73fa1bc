// The demo dataset's shape: scripts/generate-demo-assets.ts writes server/demo/dataset.json and the
// files under server/demo/files/; the server's demo loader reads them into the database and storage.
// Entities refer to each other by `key` (stable, human-readable); the loader assigns real ids.
import type { MotionSamples } from '../schemas/capture.ts';

export type DemoRole = 'admin' | 'factory_manager' | 'lc_manager' | 'audit' | 'operator';

export interface DemoUser {
  key: string;
  name: string;
  email: string;
  roles: DemoRole[];
}

export interface DemoLineClearance {
  key: string;
  name: string;
  description: string;
  location: string;
  status: 'active' | 'inactive' | 'maintenance';
  managerKey: string;
  operatorKeys: string[];
}

export interface DemoDevice {
  key: string;
  name: string;
  type: 'camera' | 'sensor' | 'monitor' | 'controller';
  status: 'active' | 'inactive' | 'maintenance' | 'offline';
}

export interface DemoFloorplan {
  key: string;
  name: string;
  lineKey: string;
  /** Path under server/demo/files/. */
  file: string;
  width: number;
  height: number;
  createdAt: string;
}

export interface DemoHotZone {
  x: number;
  y: number;
  width: number;
  height: number;
  name: string;
  description: string;
  color: string;
  importance: 'low' | 'medium' | 'high' | 'critical';
}

export interface DemoTag {
  x: number;
  y: number;
  name: string;
  qrCode: string;
  color: string;
  description: string;
}

export interface DemoCamera {
  x: number;
  y: number;
  name: string;
  type: 'thermal' | 'panoramic' | 'ptz' | 'dome' | 'bullet' | 'wireless' | 'standard';
  color: string;
  description: string;
}

/** Spec §3 floor-plan configuration; positions of zones, tags and cameras are in displaySize pixels. */
export interface DemoFloorplanConfiguration {
  floorplanImage: string;
  displaySize: { width: number; height: number };
  hotZones: DemoHotZone[];
  tags: DemoTag[];
  cameras: DemoCamera[];
  coordinateSystem: {
    useSimpleMapping: boolean;
    sourceImageWidth: number;
    sourceImageHeight: number;
    pixelsPerMeter: number;
  };
  /** Map units (the keyframes' x, y), paired by index with floorplanPoints (image pixels). */
  slamPoints: [number, number][];
  floorplanPoints: [number, number][];
  forceAffine: boolean;
  yAxisFlip: boolean;
}

export interface DemoFloorplanConfig {
  lineKey: string;
  floorplanKey: string;
  name: string;
  configuration: DemoFloorplanConfiguration;
}

export interface DemoPrediction {
  /** `${timestamp}.png`, the timestamp string exactly as in the keyframes file. */
  filename: string;
  subfolder: string;
  class_labels: string[];
  confs: number[];
  boxes_normalized: [number, number, number, number][];
}

/** Which detector made a video's predictions (stored on each prediction, as the analysis does). */
export interface DemoDetector {
  name: string;
  version: string;
  threshold: number;
}

/**
 * A video arrives verified (hashed) in one of two states: `completed` with analysis results made
 * before the demo (keyframes, images, predictions; stored as the ingestion API stores results),
 * or `pending` with no results and an analysis job queued, which the server's runner then takes.
 */
export interface DemoVideo {
  key: string;
  filename: string;
  lineKey: string;
  userKey: string;
  deviceKey: string;
  timestamp: string;
  status: 'completed' | 'pending';
  /** Seconds. */
  duration: number;
  /** Paths under server/demo/files/. */
  file: string;
  /** Null for a pending video: its analysis has not run yet. */
  keyframesFile: string | null;
  /**
   * Folder under server/demo/files/ holding `${timestamp}.png` keyframe images (null for a pending
   * video); its name is the video's subfolder, else the file's base name is.
   */
  keyframeImagesDir: string | null;
  /** The system and version that made the results (the video's analysisVersion); null if pending. */
  analysisVersion: string | null;
  detector: DemoDetector | null;
  predictions: DemoPrediction[];
}

/** What the operator's phone recorded beside the video (server/schemas/capture.ts). */
export interface DemoCapture {
  /** The server decides each scan's tag from the inspection's checklist, as capture does. */
  scans: { code: string; videoTime: number; at: string }[];
  motion: MotionSamples | null;
}

/**
 * What the operator's submit declared about a recording whose file has not arrived yet
 * (POST /api/inspections `video` and `deviceId`).
 */
export interface DemoPendingUpload {
  container: 'webm' | 'mp4';
  /** Seconds of recording. */
  duration: number;
  deviceKey: string | null;
}

/**
 * An inspection always has its video, as a submit creates them together: either one of `videos`
 * (videoKey) or, when its file has not arrived, the submit's declaration (pendingUpload), from
 * which the loader creates the video row as the submit does (pending, no file, no SHA-256).
 */
export interface DemoInspection {
  key: string;
  lineKey: string;
  operatorKey: string;
  videoKey: string | null;
  pendingUpload: DemoPendingUpload | null;
  startTime: string;
  /** When the inspection ended: its recording's end. */
  endTime: string;
  /** Product and batch leaving the line and coming next, as the operator enters them. */
  productLeaving: string;
  batchLeaving: string;
  productComing: string;
  batchComing: string;
  status: 'pending' | 'approved' | 'rejected';
  operatorNotes: string;
  reviewerKey: string | null;
  reviewNotes: string | null;
  /** JSON file (a DemoCapture) under server/demo/files/ with the phone's scans and motion, if any. */
  captureFile: string | null;
}

export interface DemoDataset {
  users: DemoUser[];
  lineClearances: DemoLineClearance[];
  devices: DemoDevice[];
  floorplans: DemoFloorplan[];
  floorplanConfigs: DemoFloorplanConfig[];
  videos: DemoVideo[];
  inspections: DemoInspection[];
}
