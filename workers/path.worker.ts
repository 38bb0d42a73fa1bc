// The path engine's module worker. It only exposes the API: src/lib/path-client.ts owns the worker
// and is the one place the app talks to it. Big arrays cross by transfer in both directions.
import * as Comlink from 'comlink';
import wasmUrl from '../build/path-core.wasm?url';
import { ByteCollector } from './byte-collector.ts';
import { PathEngine, type TimeBounds } from './path-engine.ts';
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
} from './path-types.ts';
import { PathView, type PathViewSize } from './path-view.ts';

// Compiled and instantiated once. The module is ~20 KB, so streaming compilation would buy
// nothing, and fetch + compile does not depend on the server sending application/wasm.
const engine: Promise<PathEngine> = fetch(wasmUrl)
  .then((response) => {
    if (!response.ok) throw new Error(`cannot load the path core (${response.status} ${wasmUrl})`);
    return response.arrayBuffer();
  })
  .then((bytes) => PathEngine.create(bytes));

// A few ms of stamping at a pixel ratio of 1: short enough not to hold up a frame request.
const STAMP_SLICE_POINTS = 2048;

/**
 * The path player's state for the path loaded last by loadPathView: its raster and hit grid, the
 * canvas the page handed over for the path layer and the point count the page asked for last.
 * Null after a plain loadPath.
 */
interface PlayerPath {
  /** Which loadPathView this is (PathViewLoad.loadId). */
  loadId: number;
  view: PathView;
  context: OffscreenCanvasRenderingContext2D;
  /** The keyframe image names of the same file (spec §7), read after the first frame. */
  imageNames: Promise<string[]>;
  /** The count the canvas shows (−1: nothing yet). */
  paintedCount: number;
  wantedCount: number;
  /** The raster's pixels as an ImageData (made at the first paint; the pixels are reused). */
  image: ImageData | null;
}

let player: PlayerPath | null = null;

/**
 * The keyframes file downloaded last (download), kept until loadPathView takes it. One at a time:
 * the page loads one video at a time, and an untaken file is 30–300 MB.
 */
let downloaded: { id: number; bytes: Uint8Array } | null = null;
let lastDownload = 0;
let lastLoad = 0;

function takeDownload(method: string, id: number): Uint8Array {
  if (downloaded?.id !== id) {
    throw new Error(`${method}: no download ${id} (it was taken, replaced or never made)`);
  }
  const { bytes } = downloaded;
  downloaded = null;
  return bytes;
}

/**
 * Reads a response's body in the chunks it arrives in, into one buffer sized by Content-Length
 * when the server sends it.
 */
async function readBody(response: Response): Promise<Uint8Array> {
  const length = Number(response.headers.get('Content-Length'));
  const collector = new ByteCollector(Number.isSafeInteger(length) && length > 0 ? length : 0);
  if (response.body === null) return collector.take();
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return collector.take();
    collector.append(value);
  }
}

function transferPath(path: LoadedPath): LoadedPath {
  const { x, y, t, index, keyframe } = path.kept;
  return Comlink.transfer(path, [x.buffer, y.buffer, t.buffer, index.buffer, keyframe.buffer]);
}

function requirePlayer(method: string): PlayerPath {
  if (player === null) {
    throw new Error(`${method}: no path view is loaded; call loadPathView first`);
  }
  return player;
}

/**
 * Draws the path up to the wanted count into the page's canvas unless it shows that already. The
 * canvas always shows the raster's last render, so only the rows that render changed are copied.
 */
function paint(current: PlayerPath): void {
  const { view, context, wantedCount } = current;
  if (current.paintedCount === wantedCount) return;
  const { raster } = view;
  const pixels = raster.render(wantedCount);
  current.image ??= new ImageData(pixels, raster.width, raster.height);
  const { top, bottom } = raster.changedRows;
  if (bottom > top) context.putImageData(current.image, 0, 0, 0, top, raster.width, bottom - top);
  current.paintedCount = wantedCount;
}

/** The scrub answer at `time`, with the path painted up to it. */
async function frameAt(current: PlayerPath, time: number): Promise<PathFrame> {
  const answer = (await engine).scrub(time);
  current.wantedCount = answer.drawCount;
  paint(current);
  return { answer, complete: current.view.raster.complete };
}

// Methods await the engine themselves: exposing before it is ready would lose no call, whereas
// awaiting before Comlink.expose() could drop the first message (toolchain.md).
const api = {
  /** Parses, maps, thins and indexes the keyframes (text transferred in, kept arrays out). */
  async loadPath(request: LoadPathRequest): Promise<LoadedPath> {
    player = null;
    return transferPath((await engine).loadPath(request));
  },

  /**
   * Downloads a keyframes file here, so its body (10^7 lines are about 300 MB) never passes through
   * the page's thread: the page sends the URL and the headers its API client would send. Only
   * same-origin URLs and no redirects, so those headers (the bearer token) go nowhere else. A
   * failed HTTP answer comes back as such for the page's API client to handle; a network failure
   * rejects.
   */
  async download(url: string, headers: Record<string, string>): Promise<DownloadAnswer> {
    if (new URL(url).origin !== self.location.origin) {
      throw new Error(`download: ${url} is not on this origin`);
    }
    downloaded = null;
    const response = await fetch(url, { headers, credentials: 'same-origin', redirect: 'error' });
    if (!response.ok) {
      const body = await response.text().catch(() => '');
      return { ok: false, status: response.status, statusText: response.statusText, body };
    }
    const bytes = await readBody(response);
    const id = ++lastDownload;
    downloaded = { id, bytes };
    return {
      ok: true,
      value: { download: id, arrivedAt: performance.timeOrigin + performance.now() },
    };
  },

  /**
   * loadPath of a downloaded keyframes file, then the path player's raster and hit grid at the
   * page's pixel ratio, and the first frame at `time`, painted into `canvas` (the page's path
   * layer, from transferControlToOffscreen, sized with canvasSize), which every later frame paints
   * into too: the path's pixels never cross to the page's thread.
   */
  async loadPathView(
    request: PathViewRequest,
    size: PathViewSize,
    time: number,
    canvas: OffscreenCanvas,
  ): Promise<PathViewLoad> {
    player = null;
    const text = takeDownload('loadPathView', request.download);
    const core = await engine;
    const path = core.loadPath({ ...request, text });
    const view = new PathView(path, size);
    const { width, height } = view.raster;
    if (canvas.width !== width || canvas.height !== height) {
      throw new RangeError(
        `loadPathView: the canvas is ${canvas.width}×${canvas.height}, the path needs ${width}×${height}`,
      );
    }
    const context = canvas.getContext('2d');
    if (context === null) throw new Error('loadPathView: no 2D context for the path canvas');
    // After the first frame: the names are not needed to draw it.
    const imageNames = new Promise<string[]>((resolve, reject) => {
      setTimeout(() => {
        try {
          resolve(core.keyframeImageNames(text));
        } catch (error) {
          reject(error);
        }
      }, 0);
    });
    imageNames.catch(() => {});
    const loadId = ++lastLoad;
    const current: PlayerPath = {
      loadId,
      view,
      context,
      imageNames,
      paintedCount: -1,
      wantedCount: 0,
      image: null,
    };
    player = current;
    const frame = await frameAt(current, time);
    // The rest of the raster is stamped in slices, each its own task, so frame requests are
    // answered in between; a frame stamps what it needs itself. A newer load stops the slices.
    const stampSlice = () => {
      if (player === current && current.view.stampMore(STAMP_SLICE_POINTS)) {
        setTimeout(stampSlice, 0);
      }
    };
    setTimeout(stampSlice, 0);
    return { loadId, path: transferPath(path), frame };
  },

  /** Spec §7: the keyframe image names of the file of load `loadId`, while it is the current one. */
  async loadedKeyframeImageNames(loadId: number): Promise<string[]> {
    const current = requirePlayer('loadedKeyframeImageNames');
    if (current.loadId !== loadId) {
      throw new Error(`loadedKeyframeImageNames: load ${loadId} has been replaced by another`);
    }
    return current.imageNames;
  },

  /** The scrub answer at `time`; the path canvas shows the path drawn up to it. */
  async frame(time: number): Promise<PathFrame> {
    return frameAt(requirePlayer('frame'), time);
  },

  /** Spec §9 display size for a floor-plan image (800×600 when unknown), as loadPath uses. */
  async displayGeometry(image: ImageSize | null): Promise<DisplayGeometry> {
    return (await engine).displayGeometry(image);
  },

  /** Index into kept of the drawn point nearest (x, y) display px within `radius`, or −1. */
  async hitTest(x: number, y: number, radius: number, drawCount: number): Promise<number> {
    return requirePlayer('hitTest').view.hitTest(x, y, radius, drawCount);
  },

  /** The scrub query against the path loadPath left resident. */
  async query(time: number): Promise<PathQuery> {
    return (await engine).query(time);
  },

  /** query() plus the nearest point's keyframe index (field 1): what the path player shows. */
  async scrub(time: number): Promise<ScrubAnswer> {
    return (await engine).scrub(time);
  },

  async scanTags(
    x: Float64Array,
    y: Float64Array,
    tags: readonly XY[],
    radiusPx?: number,
  ): Promise<TagScan> {
    return (await engine).scanTags(x, y, tags, radiusPx);
  },

  async solveTransform(
    calibration: Calibration | null,
    image: ImageSize,
  ): Promise<TransformResult> {
    return (await engine).solveTransform(calibration, image);
  },

  async keyframeImageNames(text: Uint8Array): Promise<string[]> {
    return (await engine).keyframeImageNames(text);
  },

  async timeBounds(t: Float64Array, duration?: number): Promise<TimeBounds> {
    return (await engine).timeBounds(t, duration);
  },
};

export type PathWorkerApi = typeof api;

Comlink.expose(api);
