// The path engine's module worker. It only exposes the API: src/lib/path-client.ts owns the worker
// and is the one place the app talks to it. Big arrays cross by transfer in both directions.
import * as Comlink from 'comlink';
import wasmUrl from '../build/path-core.wasm?url';
import { PathEngine, type TimeBounds } from './path-engine.ts';
import type {
  Calibration,
  ImageSize,
  LoadedPath,
  LoadPathRequest,
  PathQuery,
  TagScan,
  TransformResult,
  XY,
} from './path-types.ts';

// Compiled and instantiated once. The module is ~20 KB, so streaming compilation would buy
// nothing, and fetch + compile does not depend on the server sending application/wasm.
const engine: Promise<PathEngine> = fetch(wasmUrl)
  .then((response) => {
    if (!response.ok) throw new Error(`cannot load the path core (${response.status} ${wasmUrl})`);
    return response.arrayBuffer();
  })
  .then((bytes) => PathEngine.create(bytes));

// Methods await the engine themselves: exposing before it is ready would lose no call, whereas
// awaiting before Comlink.expose() could drop the first message (toolchain.md).
const api = {
  /** Parses, maps, thins and indexes the keyframes (text transferred in, kept arrays out). */
  async loadPath(request: LoadPathRequest): Promise<LoadedPath> {
    const path = (await engine).loadPath(request);
    const { x, y, t, index } = path.kept;
    return Comlink.transfer(path, [x.buffer, y.buffer, t.buffer, index.buffer]);
  },

  /** The scrub query against the path loadPath left resident. */
  async query(time: number): Promise<PathQuery> {
    return (await engine).query(time);
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
