// The one module that owns the path worker (workers/path.worker.ts). It starts the worker on the
// first call, transfers big arrays instead of copying them (the caller's buffers are detached
// afterwards), lets a load be aborted, and terminates the worker on request. The app imports the
// worker's API as a type only.
import * as Comlink from 'comlink';
import type { PathWorkerApi } from '../../workers/path.worker.ts';
import type { TimeBounds } from '../../workers/path-engine.ts';
import type {
  Calibration,
  DisplayGeometry,
  DownloadAnswer,
  ImageSize,
  LoadedPath,
  LoadPathRequest,
  PathFrame,
  PathQuery,
  PathViewLoad,
  PathViewRequest,
  ScrubAnswer,
  TagScan,
  TransformResult,
  XY,
} from '../../workers/path-types.ts';
import type { PathViewSize } from '../../workers/path-view.ts';
import { lazyWorker } from './lazy-worker.ts';

export { applyDuration, clampTime } from '../../workers/path-engine.ts';
export type { TimeBounds };

const pathWorker = lazyWorker<PathWorkerApi>(
  'path',
  () =>
    new Worker(new URL('../../workers/path.worker.ts', import.meta.url), {
      type: 'module',
      name: 'path-engine',
    }),
);

/**
 * Starts the worker now rather than at the first call (e.g. when the video page opens), so the
 * path core is compiled and warmed up by the time a keyframes file has downloaded.
 */
export const startPathWorker = (): void => pathWorker.start();

/** Stops the worker (e.g. when the video page closes); the next call starts a fresh one. */
export const terminatePathWorker = (): void => pathWorker.terminate();

/** Runs a worker call; an abort terminates the worker (a new one starts on the next call). */
const call = <T>(
  invoke: (remote: Comlink.Remote<PathWorkerApi>) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> => pathWorker.call(invoke, signal);

/** The distinct transferable buffers behind typed arrays (a buffer may be listed only once). */
function buffersOf(...arrays: ArrayBufferView[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const array of arrays) {
    if (array.buffer instanceof ArrayBuffer) buffers.add(array.buffer);
  }
  return [...buffers];
}

/**
 * Loads a keyframes file into the worker (spec §4, §5, §9): the path stays there for query().
 * request.text's buffer is transferred (detached here). Aborting terminates the worker.
 */
export function loadPath(request: LoadPathRequest, signal?: AbortSignal): Promise<LoadedPath> {
  return call(
    (remote) => remote.loadPath(Comlink.transfer(request, buffersOf(request.text))),
    signal,
  );
}

/** Thinned points up to `time` and the point nearest to it, from the last loaded path. */
export function queryPath(time: number): Promise<PathQuery> {
  return call((remote) => remote.query(time));
}

/** queryPath plus the nearest point's keyframe index (field 1 of the file). */
export function scrubPath(time: number): Promise<ScrubAnswer> {
  return call((remote) => remote.scrub(time));
}

/**
 * Has the worker download a keyframes file itself (its own fetch), so the body never passes
 * through this thread. `url` must be absolute and on this origin; `headers` are those the page's
 * API client sends. Answers the download id for loadPathView and when its last byte arrived, or
 * the failed HTTP answer. Aborting terminates the worker, and its download with it.
 */
export function downloadKeyframes(
  url: string,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<DownloadAnswer> {
  return call((remote): Promise<DownloadAnswer> => remote.download(url, headers), signal);
}

/**
 * loadPath of a downloaded keyframes file plus what the path player draws with: the path's
 * coverage raster at the page's pixel ratio and a hit grid, kept in the worker for pathFrame and
 * hitTestPath. `canvas` (from the path layer's transferControlToOffscreen, sized with canvasSize
 * for the path's display) is transferred: the worker paints the first frame at `time` into it,
 * and every later frame.
 */
export function loadPathView(
  request: PathViewRequest,
  size: PathViewSize,
  time: number,
  canvas: OffscreenCanvas,
  signal?: AbortSignal,
): Promise<PathViewLoad> {
  return call(
    (remote) => remote.loadPathView(request, size, time, Comlink.transfer(canvas, [canvas])),
    signal,
  );
}

/**
 * Spec §7: the keyframe image names of the file of a loadPathView (its loadId), read in the worker
 * from the bytes it already has; rejects once another load has replaced it.
 */
export function loadedKeyframeImageNames(loadId: number): Promise<string[]> {
  return call((remote) => remote.loadedKeyframeImageNames(loadId));
}

/** The scrub answer at `time`; the worker paints the path layer's canvas up to it. */
export function pathFrame(time: number): Promise<PathFrame> {
  return call((remote) => remote.frame(time));
}

/** Spec §9 display size for a floor-plan image (800×600 when unknown), as loadPath computes it. */
export function displayGeometry(image: ImageSize | null): Promise<DisplayGeometry> {
  return call((remote) => remote.displayGeometry(image));
}

/** Index into kept of the drawn point (below drawCount) nearest (x, y) within radius, or −1. */
export function hitTestPath(
  x: number,
  y: number,
  radius: number,
  drawCount: number,
): Promise<number> {
  return call((remote) => remote.hitTest(x, y, radius, drawCount));
}

/** Tag scanning over image-pixel points; x's and y's buffers are transferred. */
export function scanTags(
  x: Float64Array,
  y: Float64Array,
  tags: readonly XY[],
  radiusPx?: number,
): Promise<TagScan> {
  return call((remote) => remote.scanTags(Comlink.transfer(x, buffersOf(x, y)), y, tags, radiusPx));
}

export function solveTransform(
  calibration: Calibration | null,
  image: ImageSize,
): Promise<TransformResult> {
  return call((remote) => remote.solveTransform(calibration, image));
}

/** Spec §7: the keyframes file as a list of .png names; text's buffer is transferred. */
export function keyframeImageNames(text: Uint8Array): Promise<string[]> {
  return call((remote) => remote.keyframeImageNames(Comlink.transfer(text, buffersOf(text))));
}

/** Min and max timestamp, max replaced by a known duration; t's buffer is transferred. */
export function timeBounds(t: Float64Array, duration?: number): Promise<TimeBounds> {
  return call((remote) => remote.timeBounds(Comlink.transfer(t, buffersOf(t)), duration));
}
