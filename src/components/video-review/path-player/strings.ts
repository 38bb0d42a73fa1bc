import type { TransformKind, TransformResult } from '../../../../workers/path-types.ts';
import type { ScanSource } from './tag-scan.ts';

/** Spec §8: the path player's messages, word for word (which situation shows which: docs/path-player.md). */
export const pathPlayerMessages = {
  noKeyframesPath: 'No keyframesPath provided.',
  missingConfiguration:
    'Missing floorplan configuration. Please configure the floorplan mapping first.',
  keyframesFetchFailed: (status: number, statusText: string) =>
    `Failed to fetch keyframes data: ${status} ${statusText}`.trimEnd(),
  keyframesEmpty: 'Keyframes file is empty.',
  keyframesError: 'Error loading keyframes data.',
  configurationNotFound: (videoId: string) =>
    `No floorplan configuration found for video: ${videoId}`,
  configurationFailed: 'Failed to load floorplan configuration from API.',
  configurationUnavailable: 'No floorplan configuration available.',
  noPathPoints: 'No path points loaded.',
} as const;

const transformNames: Record<TransformKind, string> = {
  perspective: 'perspective transform',
  affine: 'affine transform',
  simple: 'simple scaling by pixels per meter (approximate)',
  none: 'no transform: map units drawn as pixels (approximate)',
};

/** The path player's own words (beyond the spec). */
export const pathPlayerStrings = {
  region: 'Floor-plan path',
  loading: 'Loading the path…',
  canvas: 'Floor plan with the inspection path',
  canvasHelp:
    'Click a path point to open its keyframe; the large dot is the current keyframe. ' +
    'Press Enter to open the current keyframe. Tags are listed below.',
  awaitingUpload: 'No path yet: the analysis makes it once the video file has arrived.',
  /** Beside the spec §8 message when no path loaded: the analysis's reason, as the server says it. */
  pathMissingReason: (reason: string) =>
    `The analysis made no path for this recording: ${reason.replace(/: no path\.?$/, '')}.`,
  /** Beside spec §8 'Missing floorplan configuration…', which the player shows of a drawn path. */
  calibrationHelp:
    "The line's floor plan is configured; this recording has fewer than 3 calibration points " +
    'to map its path exactly, so it is drawn by the plan’s scale. The analysis places them where ' +
    'tags were scanned: scan 3 or more tags at different places while recording.',
  noKeyframe: 'Path point – · – s',
  keyframe: (index: number, seconds: number) => `Path point ${index} · ${seconds.toFixed(2)} s`,
  transform: (transform: TransformResult) => {
    const worst = Math.max(0, ...transform.pointErrorsPx);
    const points = transform.pointErrorsPx.length;
    const accuracy =
      transform.kind === 'perspective' || transform.kind === 'affine'
        ? ` from ${points} calibration points, largest error ${worst.toFixed(1)} px`
        : '';
    return `Path mapped with ${transformNames[transform.kind]}${accuracy}.`;
  },
  badLines: (count: number, firstLine: number) =>
    `${count} malformed keyframe ${count === 1 ? 'line was' : 'lines were'} skipped (first: line ${firstLine}).`,
  reordered: 'The keyframes were not in time order in the file; they are shown sorted by time.',
  clamped: (count: number) =>
    `${count} ${count === 1 ? 'point lies' : 'points lie'} far outside the floor plan and ${count === 1 ? 'was' : 'were'} moved to its edge.`,
  imageFailed: 'The floor-plan image could not be loaded; the path is drawn without it.',
  tagsHeading: (scanned: number, total: number) => `Tags: ${scanned} of ${total} scanned`,
  scanned: 'Scanned',
  notScanned: 'Not scanned',
  /** A scanned tag's state when the QR scans are known too (the inspection report). */
  scannedBy: {
    path: 'Scanned (path)',
    qr: 'Scanned (QR code)',
    both: 'Scanned (QR code and path)',
  } satisfies Record<ScanSource, string>,
  /** `state` is the text the button shows after the name ('Scanned (QR code)'). */
  tagButton: (name: string, state: string) =>
    `${name}, ${state.charAt(0).toLowerCase()}${state.slice(1)}: show details`,
  qrUnmatched: (names: readonly string[]) =>
    `Scanned by QR code but not among this floor plan's tags as the checklist lists them, so not counted here: ${names.join(', ')}.`,
  legend: 'Legend',
  legendPath: 'Path up to the current time',
  legendCurrent: 'Current keyframe',
  legendHighlight: 'Selected detection',
  legendHotZone: 'Hot zone',
  legendCamera: 'Camera',
} as const;
