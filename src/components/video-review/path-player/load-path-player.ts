// Everything the path player shows for one video, fetched in parallel: the floor-plan
// configuration, its image and the keyframes file, which the path worker then turns into the
// thinned path, the tag scan and the path raster. Which failure shows which spec §8 message is
// decided here (docs/path-player.md, "Messages").

import {
  calibrationOf,
  calibrationPairs,
  imageSizeOf,
  MIN_CALIBRATION_PAIRS,
  type PathTag,
  tagsInImagePixels,
  tagsOf,
} from '../../../../workers/floor-plan-scene.ts';
import { imageSizeFromHeader } from '../../../../workers/image-header.ts';
import type {
  DisplayGeometry,
  ImageSize,
  LoadedPath,
  PathFrame,
  PathViewLoad,
} from '../../../../workers/path-types.ts';
import { canvasSize } from '../../../../workers/path-view.ts';
import { POINT_ERROR_WARN_PX } from '../../../../workers/transform-codec.ts';
import { getFloorplanImage } from '../../../api/get-floorplan-image.ts';
import { ApiError } from '../../../lib/api-client.ts';
import {
  displayGeometry,
  loadedKeyframeImageNames,
  loadPathView,
} from '../../../lib/path-client.ts';
import { awaitingUpload, videoIdOf } from '../../../lib/video.ts';
import type { FloorplanConfiguration, Video } from '../../../types/api.ts';
import { downloadKeyframesFile } from './api/get-keyframes-file.ts';
import { getVideoFloorplanConfig } from './api/get-video-floorplan-config.ts';
import { pathPlayerMessages as m, pathPlayerStrings as s } from './strings.ts';

/**
 * Marks for the UI bench (bench/ui.bench.ts): the bytes are here; the loaded path is on screen;
 * the whole path is ready for scrubbing (its raster fully stamped).
 */
export const KEYFRAMES_ARRIVED_MARK = 'path-player:keyframes-arrived';
export const PATH_DRAWN_MARK = 'path-player:path-drawn';
export const PATH_COMPLETE_MARK = 'path-player:path-complete';

export interface PathPlayerLoad {
  configuration: FloorplanConfiguration | null;
  /** The decoded floor-plan image; null when there is none or it failed (imageFailed). */
  image: ImageBitmap | null;
  imageFailed: boolean;
  /** The image size the path was mapped onto (null: the worker's 800×600 default). */
  imageSize: ImageSize | null;
  /** The canvas's size and scale (spec §9); null only when the path worker failed. */
  display: DisplayGeometry | null;
  tags: PathTag[];
  /**
   * A spec §8 message about the configuration; the path may still have loaded. Calibration is
   * the path's: its lack is said only of a path drawn without it.
   */
  configurationMessage: string | null;
  /** The loaded path with at least one point, else null and pathMessage says why. */
  path: LoadedPath | null;
  /** The path's first frame, drawn at the time the load started on it (with `path`). */
  firstFrame?: PathFrame;
  /** The path layer: its control is the worker's, which paints every frame into it (with `path`). */
  pathCanvas?: HTMLCanvasElement;
  /** Spec §7: the file's keyframe image names, read in the worker from the bytes it has. */
  keyframeImageNames?: () => Promise<string[]>;
  pathMessage: string | null;
  /** The server's words on a refused keyframes request (e.g. why the analysis made no path). */
  pathDetail?: string | null;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

interface ConfigurationAnswer {
  configuration: FloorplanConfiguration | null;
  message: string | null;
}

async function readConfiguration(
  videoId: string,
  signal: AbortSignal,
  recorded: boolean,
): Promise<ConfigurationAnswer> {
  try {
    const config = await getVideoFloorplanConfig(videoId, signal, recorded);
    const configuration = config?.configuration;
    if (typeof configuration !== 'object' || configuration === null) {
      return { configuration: null, message: m.configurationUnavailable };
    }
    return { configuration, message: null };
  } catch (error) {
    signal.throwIfAborted();
    if (error instanceof ApiError && error.status === 404) {
      return { configuration: null, message: m.configurationNotFound(videoId) };
    }
    console.error('Failed to load the floor-plan configuration', error);
    return { configuration: null, message: m.configurationFailed };
  }
}

interface FloorplanImage {
  /** Its size as soon as it is known: from the file header, else once decoded. */
  size: Promise<ImageSize | null>;
  /** The decoded image; null when there is none or it failed. */
  bitmap: Promise<ImageBitmap | null>;
}

/**
 * Fetches the floor-plan image and decodes it off the main thread; the size of a PNG or GIF is
 * read from its header, so mapping the path need not wait for the decode. A failure is logged
 * (the path is then drawn without the image).
 */
function readImage(
  configuration: FloorplanConfiguration | null,
  signal: AbortSignal,
): FloorplanImage {
  const path = configuration?.floorplanImage;
  if (!path) return { size: Promise.resolve(null), bitmap: Promise.resolve(null) };
  const bytes = getFloorplanImage(path, { signal });
  const bitmap = bytes
    .then((data) => createImageBitmap(new Blob([data])))
    .catch((error: unknown) => {
      if (!signal.aborted) console.error('Failed to load the floor-plan image', path, error);
      return null;
    });
  const size = bytes.then(
    async (data) => {
      const header = imageSizeFromHeader(data);
      if (header) return header;
      const decoded = await bitmap;
      return decoded && { width: decoded.width, height: decoded.height };
    },
    () => null,
  );
  return { size, bitmap };
}

/** The floor plan's display size, computed by the worker as for a path (one rule, spec §9). */
async function floorDisplay(imageSize: ImageSize | null): Promise<DisplayGeometry | null> {
  try {
    return await displayGeometry(imageSize);
  } catch (error) {
    console.error('The path worker could not size the floor plan', error);
    return null;
  }
}

/**
 * Spec §8 'Missing floorplan configuration…' for a path mapped without the 3 calibration pairs
 * a transform needs (drawn by the spec §5 fallback). Not said when there is no path: the line's
 * floor plan is there, and nothing is mapped.
 */
function calibrationMessage(configuration: FloorplanConfiguration | null): string | null {
  if (!configuration) return null;
  const pairs = calibrationPairs(calibrationOf(configuration));
  return pairs < MIN_CALIBRATION_PAIRS ? m.missingConfiguration : null;
}

/**
 * Whether the video names a keyframes file to ask for: one whose file has not arrived has not
 * been analysed (it would 404), and one with no `path.keyframesData` names none.
 */
export function namesKeyframesFile(video: Video): boolean {
  const keyframesPath = video.path?.keyframesData;
  return !awaitingUpload(video) && typeof keyframesPath === 'string' && keyframesPath.trim() !== '';
}

/** Has the path worker download the keyframes file; answers its download id. */
async function downloadKeyframes(videoId: string, signal: AbortSignal): Promise<number> {
  const { download, arrivedAt } = await downloadKeyframesFile(videoId, signal);
  // When the worker had the last byte (its clock is epoch-based, as this thread's).
  performance.mark(KEYFRAMES_ARRIVED_MARK, { startTime: arrivedAt - performance.timeOrigin });
  return download;
}

function keyframesFailure(error: unknown): Pick<PathPlayerLoad, 'pathMessage' | 'pathDetail'> {
  if (error instanceof ApiError && error.status > 0) {
    return {
      pathMessage: m.keyframesFetchFailed(error.status, error.statusText),
      pathDetail: error.serverMessage,
    };
  }
  console.error('Failed to load the keyframes', error);
  return { pathMessage: m.keyframesError };
}

/** Spec §8: calibration errors over 10 px are only warned about in the console. */
function warnAboutCalibration(path: LoadedPath): void {
  const errors = path.transform.pointErrorsPx;
  if (errors.some((error) => error > POINT_ERROR_WARN_PX)) {
    console.warn(
      `Floor-plan ${path.transform.kind} transform: calibration point errors over ${POINT_ERROR_WARN_PX} px`,
      errors.map((error) => Number(error.toFixed(2))),
      path.transform.rejected,
    );
  }
}

/**
 * Loads the path player's data for a video, with the path's first frame drawn at `timeNow()` (read
 * when the worker starts on it). Rejects only when `signal` aborts; every other failure becomes a
 * spec §8 message in the answer.
 */
export async function loadPathPlayer(
  video: Video,
  pixelRatio: number,
  timeNow: () => number,
  signal: AbortSignal,
  /** The report's: the tags and zones its inspection was recorded against (its checklist). */
  recorded = false,
): Promise<PathPlayerLoad> {
  const videoId = videoIdOf(video);
  const notArrived = awaitingUpload(video);
  const hasKeyframes = namesKeyframesFile(video);
  const none: PathPlayerLoad = {
    configuration: null,
    image: null,
    imageFailed: false,
    imageSize: null,
    display: null,
    tags: [],
    configurationMessage: null,
    path: null,
    pathMessage: notArrived ? s.awaitingUpload : m.noKeyframesPath,
  };
  if (videoId === null) return none;

  // The keyframes download is the long pole: it starts first and runs beside the rest.
  const keyframes = hasKeyframes && settle(downloadKeyframes(videoId, signal));
  const { configuration, message: configurationMessage } = await readConfiguration(
    videoId,
    signal,
    recorded,
  );
  const floorplanImage = readImage(configuration, signal);
  const imageSize = imageSizeOf(await floorplanImage.size, configuration);
  signal.throwIfAborted();
  // Asked while the keyframes download: the same rule the worker maps the path with.
  const display = await floorDisplay(imageSize);
  signal.throwIfAborted();
  // The floor plan is complete once its image has decoded (which goes on while the path loads).
  const floorPlan = async (): Promise<PathPlayerLoad> => {
    const image = await floorplanImage.bitmap;
    signal.throwIfAborted();
    const imageFailed = Boolean(configuration?.floorplanImage) && image === null;
    const tags = tagsOf(configuration);
    const floor = { configuration, image, imageFailed, imageSize, tags, display };
    return { ...none, ...floor, configurationMessage };
  };
  if (!keyframes) return floorPlan();

  const download = await keyframes;
  signal.throwIfAborted();
  if (!download.ok) return { ...(await floorPlan()), ...keyframesFailure(download.error) };
  // The worker failed even to size the floor plan: it cannot load the path either.
  if (display === null) return { ...(await floorPlan()), pathMessage: m.keyframesError };
  // The path layer's canvas: the worker paints into it from now on.
  const pathCanvas = document.createElement('canvas');
  pathCanvas.className = 'path-player__layer';
  const backing = canvasSize(display, pixelRatio);
  [pathCanvas.width, pathCanvas.height] = [backing.width, backing.height];
  let loaded: PathViewLoad;
  try {
    loaded = await loadPathView(
      {
        download: download.value,
        calibration: configuration && calibrationOf(configuration),
        image: imageSize,
        tags: configuration ? tagsInImagePixels(configuration, imageSize) : [],
      },
      { pixelRatio },
      timeNow(),
      pathCanvas.transferControlToOffscreen(),
      signal,
    );
  } catch (error) {
    signal.throwIfAborted();
    return { ...(await floorPlan()), ...keyframesFailure(error) };
  }
  const { loadId, path, frame } = loaded;
  const shown = await floorPlan();
  if (path.report.empty || path.report.points === 0) {
    return { ...shown, pathMessage: path.report.empty ? m.keyframesEmpty : m.noPathPoints };
  }
  warnAboutCalibration(path);
  const keyframeImageNames = () => loadedKeyframeImageNames(loadId);
  return {
    ...shown,
    configurationMessage: configurationMessage ?? calibrationMessage(configuration),
    path,
    firstFrame: frame,
    pathCanvas,
    keyframeImageNames,
    pathMessage: null,
  };
}
