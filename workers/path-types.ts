// Shapes shared by the path engine, its worker and the UI. The UI imports these as types only.
//
// Coordinate spaces (never mix them silently):
//   map units      — what the keyframes file and slamPoints hold (metres from the SLAM run)
//   image pixels   — the floor-plan image as stored (floorplanPoints, tag positions for scanning)
//   display pixels — image pixels × DisplayGeometry.scale (what the canvas draws, 12 px thinning)

export type XY = readonly [x: number, y: number];

export interface CoordinateSystem {
  useSimpleMapping?: boolean;
  sourceImageWidth?: number;
  sourceImageHeight?: number;
  pixelsPerMeter?: number;
}

/** Floor-plan calibration as read per video (spec §3): slamPoints in map units, floorplanPoints in image pixels. */
export interface Calibration {
  slamPoints: readonly XY[];
  floorplanPoints: readonly XY[];
  forceAffine?: boolean;
  yAxisFlip?: boolean;
  coordinateSystem?: CoordinateSystem;
}

export interface ImageSize {
  width: number;
  height: number;
}

export type TransformKind = 'perspective' | 'affine' | 'simple' | 'none';

export type RejectReason =
  | 'too-few-points'
  | 'forced-affine'
  | 'collinear'
  | 'scale-ratio'
  | 'singular'
  | 'calibration-error'
  | 'denominator'
  | 'quality';

export interface TransformResult {
  kind: TransformKind;
  /** Row-major 3×3 from map units (after yAxisFlip) to image pixels; affine and simple have last row 0 0 1. */
  matrix: number[];
  /** Why each stronger transform was not used, in the order they were tried. */
  rejected: { kind: 'perspective' | 'affine'; reason: RejectReason }[];
  /** Per calibration point: image-pixel distance between the mapped slam point and its floor-plan point. */
  pointErrorsPx: number[];
  yAxisFlip: boolean;
}

export interface ParseReport {
  /** Non-blank lines seen. */
  lines: number;
  /** Keyframes kept. */
  points: number;
  /** Malformed lines skipped (missing fields, non-numeric, NaN or Infinity). */
  badLines: number;
  /** 1-based line number of the first malformed line; 0 when there is none. */
  firstBadLine: number;
  /** The file held no keyframe line at all (UI: 'Keyframes file is empty.'). */
  empty: boolean;
}

/** Parsed keyframes, one column per field, in file order. */
export interface KeyframeColumns {
  index: Float64Array;
  x: Float64Array;
  y: Float64Array;
  t: Float64Array;
}

/** Display pixels = image pixels × scale; at most 700×650, never upscaled; 800×600 image when none is known. */
export interface DisplayGeometry {
  width: number;
  height: number;
  scale: number;
}

export interface TagScan {
  scanned: number;
  total: number;
  /** Indices into the tag list of the tags some path point came within the threshold of. */
  indices: number[];
}

export interface LoadPathRequest {
  /** The keyframes file's bytes; transferred to the worker, not cloned. */
  text: Uint8Array;
  calibration: Calibration | null;
  image: ImageSize | null;
  /** Tag positions in image pixels. */
  tags: readonly XY[];
}

export interface LoadedPath {
  report: ParseReport;
  transform: TransformResult;
  display: DisplayGeometry;
  /** Minimum and maximum keyframe timestamps (seconds). */
  bounds: { min: number; max: number };
  /** Points whose mapped position was clamped (spec §5). */
  clamped: number;
  /** The file's timestamps were out of order, so the points were sorted by time (stable). */
  reordered: boolean;
  /** The 12 px thinned path in time order, display pixels: what the canvas draws. Transferred. */
  kept: {
    x: Float32Array;
    y: Float32Array;
    t: Float64Array;
    index: Int32Array;
    /** Field 1 of each kept keyframe (its index in the file's own numbering). */
    keyframe: Float64Array;
  };
  scan: TagScan;
}

export interface PathQuery {
  /** Draw kept[0 .. drawCount): the thinned points with t ≤ time. */
  drawCount: number;
  /** The point (index into the time-sorted points) nearest to time, always drawn. */
  nearest: number;
  /** The nearest point in display pixels, at the drawn path's precision (kept.x/y are Float32). */
  nearestX: number;
  nearestY: number;
  nearestT: number;
  /** |nearestT − time| ≤ 0.001 (spec §9 timestamp match tolerance). */
  exact: boolean;
}

/** A scrub query plus the nearest point's keyframe index (field 1; NaN when no path has points). */
export interface ScrubAnswer extends PathQuery {
  nearestKeyframe: number;
}

/** One frame of the path player: the scrub answer; the worker paints the path layer itself. */
export interface PathFrame {
  answer: ScrubAnswer;
  /** Every point of the path is stamped into the raster: any frame is now one pass over pixels. */
  complete: boolean;
}

/** What loading a path for the path player answers: the path and its first frame. */
export interface PathViewLoad {
  /** Names this load for later calls about its file (loadedKeyframeImageNames). */
  loadId: number;
  path: LoadedPath;
  frame: PathFrame;
}

/** loadPathView's request: a LoadPathRequest whose text the worker downloaded itself. */
export interface PathViewRequest extends Omit<LoadPathRequest, 'text'> {
  /** The download id from a download's answer. */
  download: number;
}

/** A keyframes file the worker downloaded, kept there for loadPathView. */
export interface DownloadedFile {
  download: number;
  /** When its last byte arrived, in epoch ms (the worker's performance.timeOrigin + now()). */
  arrivedAt: number;
}

/**
 * What the worker's own download of a keyframes file answered: the file, or the failed HTTP
 * answer for the page's API client to handle (a 401 signs out there).
 */
export type DownloadAnswer =
  | { ok: true; value: DownloadedFile }
  | { ok: false; status: number; statusText: string; body: string };
