// The path engine: a platform-neutral class over the WebAssembly path core (assembly/index.ts).
// It validates arguments (clear Errors naming the bad one), copies arrays in and out of linear
// memory and keeps one loaded path resident for O(log n) scrub queries. No DOM, no Node APIs:
// workers/path.worker.ts exposes it to the app, workers/path-engine.node.ts creates it in Node.
// Rules and decisions: docs/path-core.md.

import type {
  Calibration,
  DisplayGeometry,
  ImageSize,
  KeyframeColumns,
  LoadedPath,
  LoadPathRequest,
  ParseReport,
  PathQuery,
  ScrubAnswer,
  TagScan,
  TransformResult,
  XY,
} from './path-types.ts';
import {
  imageMapping,
  mapToImageInPlace,
  solveTransform,
  type TransformExports,
} from './transform-codec.ts';

/** Spec §9: the image size assumed while no floor-plan image is known. */
export const DEFAULT_IMAGE: ImageSize = { width: 800, height: 600 };
/** Spec §4: drawn path points are at least this many display pixels apart. */
export const THIN_DISTANCE_PX = 12;
/** Spec §4: within 0.1 measured as distance / 100, i.e. 10 image pixels. */
export const TAG_SCAN_RADIUS_PX = 10;
/** Spec §9: a keyframe matches a time when their difference is at most this (seconds). */
export const TIME_MATCH_TOLERANCE_S = 0.001;
// Decimal times are not exact in doubles (0.501 − 0.5 = 0.0010000000000000009): a nanosecond of
// slack keeps a difference that is 0.001 on paper a match.
const TIME_MATCH_SLACK_S = 1e-9;
/**
 * Parse in chunks this big: V8 tiers a long first call up only after it returns (toolchain.md), and
 * a chunk, its bit maps and the columns it fills stay in a 2 MiB L2 cache (512 KiB measured 5–10%
 * faster than 1 or 2 MiB).
 */
export const DEFAULT_CHUNK_BYTES = 1 << 19;
// A file's first chunks are smaller, doubling up to chunkBytes: V8 swaps in optimised code only
// between calls, so a fresh engine leaves its baseline tier after a few short calls, not a long one.
const FIRST_CHUNK_BYTES = 1 << 16;
// A new engine parses this many copies of a typical line once: enough for V8 to optimise the
// parser (about 600 lines in Node 20), so that stall happens at creation, not in the first parse.
const WARM_UP_LINES = 2048;
const WARM_UP_LINE = '1024 12.345 -6.789 3.250\n';

// Bytes the core may write or read after a chunk's end: the \n sentinel and 64-byte line reads.
const CHUNK_PADDING = 80;

// The copying calls (mapToImage, thin, scanTags) stream arrays through one reused scratch area (x,
// y and 4 output bytes a point), a chunk at a time. Mapping copies every chunk back out: 16,384
// points (256 KiB of x and y) keep its way in and out in the L2 cache (the fastest of 4,096 to
// 65,536). Thinning and tag scanning only copy in, and a copy from memory streams faster in long
// runs: 65,536 points (1.25 MiB) were 7–19% faster than 8,192.
export const MAP_CHUNK_POINTS = 1 << 14;
export const READ_CHUNK_POINTS = 1 << 16;
// The scratch columns start SCRATCH_ALIGNMENT_OFFSET bytes past a SCRATCH_ALIGNMENT boundary.
// memmove (TypedArray.set) runs about 15% faster when its source and destination agree modulo 64,
// and Node gives an ArrayBuffer above glibc's mmap threshold (the large arrays whose copy costs
// most) an address 16 bytes past a page. Smaller buffers land anywhere 16-byte aligned, where no
// fixed choice is worse than another.
const SCRATCH_ALIGNMENT = 64;
export const SCRATCH_ALIGNMENT_OFFSET = 16;
const STREAM_SCRATCH_BYTES = 20 * READ_CHUNK_POINTS + SCRATCH_ALIGNMENT + SCRATCH_ALIGNMENT_OFFSET;
// Two f64 columns of this many points take 2 GiB, half of what 32-bit linear memory can hold.
const MAX_RESIDENT_POINTS = 2 ** 27;

export interface PathEngineOptions {
  /** Keyframe bytes handed to the core per call; tests vary it to move chunk boundaries. */
  chunkBytes?: number;
}

export interface TimeBounds {
  min: number;
  max: number;
}

/** The core's exports (assembly/index.ts) the engine uses, plus the transform kernels. */
export interface CoreExports extends TransformExports {
  parseBegin(expectedPoints: number): void;
  parseChunk(ptr: number, len: number, final: number): number;
  parsePointCount(): number;
  parseLineCount(): number;
  parseBadLineCount(): number;
  parseFirstBadLine(): number;
  parseColumn(which: number): number;
  parseTake(): void;
  parseRewind(): void;
  namesReset(): void;
  namesChunk(ptr: number, len: number, base: number, final: number): number;
  namesCount(): number;
  namesPointer(): number;
  displayScale(width: number, height: number): number;
  scaleColumns(xPtr: number, yPtr: number, n: number, scale: number): void;
  timeRange(tPtr: number, n: number, out: number): void;
  isSortedByTime(tPtr: number, n: number): number;
  sortByTime(tPtr: number, xPtr: number, yPtr: number, extra: number, n: number): void;
  thinGreedy(
    xPtr: number,
    yPtr: number,
    n: number,
    minDistance: number,
    out: number,
    base: number,
    lastX: number,
    lastY: number,
  ): number;
  gatherF64(src: number, indices: number, count: number, out: number): void;
  gatherF32(src: number, indices: number, count: number, out: number): void;
  timeIndexBuild(
    tPtr: number,
    xPtr: number,
    yPtr: number,
    n: number,
    kept: number,
    keptCount: number,
  ): void;
  timeIndexRelease(): void;
  timeQuery(time: number): number;
  timeQueryResult(): number;
  tagGridBuild(tags: number, tagCount: number, radius: number, flags: number): void;
  tagGridScan(xPtr: number, yPtr: number, n: number): number;
  tagGridRelease(): void;
}

// Checked at instantiation so a stale build/path-core.wasm fails with a clear message.
const REQUIRED_EXPORTS = [
  'memory',
  'alloc',
  'free',
  'parseBegin',
  'parseChunk',
  'parsePointCount',
  'parseLineCount',
  'parseBadLineCount',
  'parseFirstBadLine',
  'parseColumn',
  'parseTake',
  'parseRewind',
  'namesReset',
  'namesChunk',
  'namesCount',
  'namesPointer',
  'displayScale',
  'scaleColumns',
  'timeRange',
  'isSortedByTime',
  'sortByTime',
  'thinGreedy',
  'gatherF64',
  'gatherF32',
  'timeIndexBuild',
  'timeIndexRelease',
  'timeQuery',
  'timeQueryResult',
  'tagGridBuild',
  'tagGridScan',
  'tagGridRelease',
  'transformMatrix',
  'transformSolve',
  'transformMapClamp',
] as const;

/**
 * Points copied into linear memory once, for kernels that then run in place on them (what loadPath
 * does with a parsed path): `PathEngine.resident(x, y)`. Call dispose() to free them.
 */
export interface ResidentPoints {
  /** How many points are resident. */
  readonly count: number;
  /** Maps the points in place from map units to image pixels with the spec §5 clamp. */
  mapToImage(transform: TransformResult, image: ImageSize): { clamped: number };
  /** Copies of the points as they are now. */
  read(): { x: Float64Array; y: Float64Array };
  /** Greedy thinning from the first point (spec §4); the kept indices in order. */
  thin(minDistance: number): Int32Array;
  /** Spec §4 tag scanning, the points taken as image pixels; radius in image pixels. */
  scanTags(tags: readonly XY[], radiusPx?: number): TagScan;
  /** Frees the points; later calls on this object throw. */
  dispose(): void;
}

/**
 * A keyframes file parsed into linear memory as loadPath parses it (`PathEngine.residentKeyframes`):
 * x and y are the resident points (map units until mapToImage), index and t stay beside them.
 */
export interface ResidentKeyframes extends ResidentPoints {
  /** The parse report, as parseKeyframes gives it. */
  readonly report: ParseReport;
  /** Copies of the four columns in file order; x and y as they are now (mapToImage changes them). */
  readColumns(): KeyframeColumns;
}

/** Caller-provided arrays for a copying call's result: written in place, no new arrays. */
export interface PointsOut {
  x: Float64Array;
  y: Float64Array;
}

/** Views over linear memory; rebuilt whenever memory has grown (its buffer is then replaced). */
interface Views {
  u8: Uint8Array;
  i32: Int32Array;
  u32: Uint32Array;
  f64: Float64Array;
}

/** The loaded path's own memory besides the core's time index (which holds t, x and y). */
interface Resident {
  /** Field 1 of each time-sorted point (its keyframe index), for scrub(). */
  keyframe: number;
}

/** A spec §9 time outside the bounds resets to the minimum (NaN counts as outside). */
export function clampTime(time: number, bounds: TimeBounds): number {
  return time >= bounds.min && time <= bounds.max ? time : bounds.min;
}

/** Spec §4: the maximum becomes the video duration once it is known (a positive finite number). */
export function applyDuration(bounds: TimeBounds, duration?: number): TimeBounds {
  if (duration === undefined) return bounds;
  if (typeof duration !== 'number') {
    throw new TypeError(`timeBounds: duration must be a number of seconds, got ${typeof duration}`);
  }
  // A media element reports NaN before metadata and Infinity for streams: not known yet.
  return Number.isFinite(duration) && duration > 0 ? { min: bounds.min, max: duration } : bounds;
}

/** The image the path is drawn on: a missing, zero, negative or non-finite size means unknown → 800×600. */
export function knownImage(image: ImageSize | null | undefined, what = 'image'): ImageSize {
  if (image === null || image === undefined) return DEFAULT_IMAGE;
  if (typeof image !== 'object') throw new TypeError(`${what} must be {width, height} or null`);
  const { width, height } = image;
  if (typeof width !== 'number' || typeof height !== 'number') {
    throw new TypeError(`${what}.width and ${what}.height must be numbers`);
  }
  const usable = Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0;
  return usable ? { width, height } : DEFAULT_IMAGE;
}

function requireF64(method: string, name: string, value: unknown): Float64Array {
  if (!(value instanceof Float64Array)) {
    throw new TypeError(`${method}: ${name} must be a Float64Array`);
  }
  return value;
}

function requireXY(method: string, x: unknown, y: unknown): [Float64Array, Float64Array] {
  const xs = requireF64(method, 'x', x);
  const ys = requireF64(method, 'y', y);
  if (xs.length !== ys.length) {
    throw new RangeError(`${method}: x and y differ in length (${xs.length} vs ${ys.length})`);
  }
  return [xs, ys];
}

function requireOut(method: string, out: unknown, length: number): [Float64Array, Float64Array] {
  if (typeof out !== 'object' || out === null) {
    throw new TypeError(`${method}: out must be {x, y} with two Float64Arrays`);
  }
  const { x, y } = out as Partial<PointsOut>;
  const [xs, ys] = requireXY(`${method}: out`, x, y);
  if (xs.length !== length) {
    throw new RangeError(`${method}: out holds ${xs.length} points, the input ${length}`);
  }
  return [xs, ys];
}

function requireBytes(method: string, text: unknown): Uint8Array {
  if (!(text instanceof Uint8Array)) throw new TypeError(`${method}: text must be a Uint8Array`);
  return text;
}

function requireTags(method: string, tags: unknown): readonly XY[] {
  if (!Array.isArray(tags)) throw new TypeError(`${method}: tags must be an array of [x, y]`);
  tags.forEach((tag: unknown, i) => {
    const ok = Array.isArray(tag) && Number.isFinite(tag[0]) && Number.isFinite(tag[1]);
    if (!ok) throw new TypeError(`${method}: tags[${i}] must be [x, y] with finite numbers`);
  });
  return tags as readonly XY[];
}

function requireMinDistance(method: string, minDistance: unknown): number {
  if (typeof minDistance !== 'number' || !Number.isFinite(minDistance) || minDistance < 0) {
    throw new RangeError(`${method}: minDistance must be a finite number ≥ 0, got ${minDistance}`);
  }
  return minDistance;
}

function requirePositive(method: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${method}: ${name} must be a positive finite number, got ${value}`);
  }
  return value;
}

export class PathEngine {
  private core: CoreExports;
  private views: Views;
  private answer: { f64: Float64Array; i32: Int32Array };
  private loaded: Resident | null = null;
  // The streaming scratch area (STREAM_SCRATCH_BYTES), allocated on first use; 0 until then.
  private scratch = 0;
  private disposed = false;
  private readonly decoder = new TextDecoder();

  private constructor(
    private readonly module: WebAssembly.Module,
    private readonly chunkBytes: number,
  ) {
    this.core = PathEngine.instantiate(module);
    this.views = this.makeViews();
    this.answer = this.makeAnswerViews();
    this.warmUp();
  }

  /**
   * Prepares the first parse (docs/path-core.md, first call): V8 optimises the parser only after
   * it has run a while (a stall of a few ms), and fresh linear memory page-faults on first touch.
   * Both now, at creation, rather than in the first keyframe file's parse.
   */
  private warmUp(): void {
    this.parse(new TextEncoder().encode(WARM_UP_LINE.repeat(WARM_UP_LINES)), WARM_UP_LINES, null);
    // The first parse's chunk buffer and columns (about 2 chunks) reuse this block once freed.
    const bytes = 2 * Math.min(this.chunkBytes, DEFAULT_CHUNK_BYTES) + CHUNK_PADDING;
    const block = this.core.alloc(bytes) >>> 0;
    this.view().u8.fill(0, block, block + bytes);
    this.core.free(block);
  }

  /** Compiles (unless given a Module) and instantiates the core; the module has no imports. */
  static async create(
    wasm: WebAssembly.Module | BufferSource,
    options: PathEngineOptions = {},
  ): Promise<PathEngine> {
    const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    if (!Number.isInteger(chunkBytes) || chunkBytes < 1 || chunkBytes > 1 << 30) {
      throw new RangeError(
        `PathEngine: chunkBytes must be an integer in 1..2^30, got ${chunkBytes}`,
      );
    }
    const module = wasm instanceof WebAssembly.Module ? wasm : await WebAssembly.compile(wasm);
    return new PathEngine(module, chunkBytes);
  }

  private static instantiate(module: WebAssembly.Module): CoreExports {
    // Synchronous instantiation: the module is small (≤ 32 KB) and needs no imports.
    const exports = new WebAssembly.Instance(module, {}).exports;
    for (const name of REQUIRED_EXPORTS) {
      if (!(name in exports)) {
        throw new Error(`path core lacks the export '${name}': rebuild it with npm run build:wasm`);
      }
    }
    return exports as unknown as CoreExports;
  }

  private makeViews(): Views {
    const buffer = this.core.memory.buffer;
    return {
      u8: new Uint8Array(buffer),
      i32: new Int32Array(buffer),
      u32: new Uint32Array(buffer),
      f64: new Float64Array(buffer),
    };
  }

  /** Current views; any core call that allocates may have replaced the memory's buffer. */
  private view(): Views {
    if (this.views.u8.buffer !== this.core.memory.buffer) this.views = this.makeViews();
    return this.views;
  }

  /**
   * Runs `work` with an allocator whose buffers are freed afterwards. A trap (the only one possible
   * is running out of linear memory) leaves the instance unusable: it is replaced by a fresh one and
   * the resident path is dropped.
   */
  private run<T>(method: string, work: (take: (bytes: number) => number) => T): T {
    if (this.disposed) throw new Error(`${method}: the path engine has been disposed`);
    const core = this.core;
    const taken: number[] = [];
    try {
      return work((bytes) => {
        // Pointers come back as i32: ≥ 2 GiB they read negative until made unsigned.
        const ptr = core.alloc(bytes) >>> 0;
        taken.push(ptr);
        return ptr;
      });
    } catch (error) {
      if (!(error instanceof WebAssembly.RuntimeError)) throw error;
      this.core = PathEngine.instantiate(this.module);
      this.views = this.makeViews();
      this.answer = this.makeAnswerViews();
      this.loaded = null;
      this.scratch = 0;
      throw new Error(`${method}: the path core ran out of memory (${error.message})`);
    } finally {
      if (this.core === core) for (const ptr of taken) core.free(ptr);
    }
  }

  private copyIn(take: (bytes: number) => number, values: Float64Array): number {
    const ptr = take(values.byteLength);
    this.view().f64.set(values, ptr / 8);
    return ptr;
  }

  /**
   * Feeds the text to a chunk scanner (parseChunk, namesChunk). Each call gets one chunk after the
   * previous call's unconsumed tail (its unfinished last line or token); a tail that fills the whole
   * buffer (one very long line) doubles the buffer.
   */
  private feedChunks(
    text: Uint8Array,
    scan: (ptr: number, len: number, base: number, final: boolean) => number,
  ): void {
    const core = this.core;
    let capacity = Math.max(1, Math.min(this.chunkBytes, text.length));
    let buffer = core.alloc(capacity + CHUNK_PADDING) >>> 0;
    try {
      let carried = 0;
      let offset = 0;
      let window = Math.min(FIRST_CHUNK_BYTES, capacity);
      for (;;) {
        const take = Math.min(window - carried, text.length - offset);
        this.view().u8.set(text.subarray(offset, offset + take), buffer + carried);
        offset += take;
        const length = carried + take;
        const final = offset === text.length;
        const consumed = scan(buffer, length, offset - length, final);
        if (final) return;
        carried = length - consumed;
        this.view().u8.copyWithin(buffer, buffer + consumed, buffer + length);
        if (carried === capacity) {
          const larger = core.alloc(capacity * 2 + CHUNK_PADDING) >>> 0;
          this.view().u8.copyWithin(larger, buffer, buffer + carried);
          core.free(buffer);
          buffer = larger;
          capacity *= 2;
        }
        window = Math.min(window * 2, capacity);
      }
    } finally {
      if (this.core === core) core.free(buffer);
    }
  }

  /**
   * Runs the parser over the text. With `drain`, each chunk's points are handed over and the
   * core's columns rewound, so linear memory stays chunk-sized; without, they accumulate there.
   */
  private parse(
    text: Uint8Array,
    expectedPoints: number,
    drain: ((columns: Float64Array[], count: number) => void) | null,
  ): ParseReport {
    const core = this.core;
    core.parseBegin(expectedPoints);
    let drained = 0;
    this.feedChunks(text, (ptr, len, _base, final) => {
      const consumed = core.parseChunk(ptr, len, final ? 1 : 0);
      const count = core.parsePointCount();
      if (drain !== null && count > 0) {
        const f64 = this.view().f64;
        drain(
          [0, 1, 2, 3].map((which) => {
            const at = (core.parseColumn(which) >>> 0) / 8;
            return f64.subarray(at, at + count);
          }),
          count,
        );
        drained += count;
        core.parseRewind();
      }
      return consumed;
    });
    const lines = core.parseLineCount();
    return {
      lines,
      points: drain === null ? core.parsePointCount() : drained,
      badLines: core.parseBadLineCount(),
      firstBadLine: core.parseFirstBadLine(),
      empty: lines === 0,
    };
  }

  /** Parses the keyframes and hands the four column buffers to the caller (who frees them). */
  private parseResident(text: Uint8Array): { report: ParseReport; columns: number[] } {
    // Typical lines are 30–60 bytes: a generous first guess saves most of the growing copies.
    const report = this.parse(text, Math.ceil(text.length / 32), null);
    const columns = [0, 1, 2, 3].map((which) => this.core.parseColumn(which) >>> 0);
    this.core.parseTake();
    return { report, columns };
  }

  /** Spec §3 keyframes file → columns in file order, with the count of skipped malformed lines. */
  parseKeyframes(text: Uint8Array): { columns: KeyframeColumns; report: ParseReport } {
    const bytes = requireBytes('parseKeyframes', text);
    return this.run('parseKeyframes', () => {
      // Points leave linear memory chunk by chunk: a fresh engine then touches (page-faults in)
      // about one chunk's worth of new memory instead of the whole file's columns, and the
      // output exists once, in JS.
      let capacity = Math.ceil(bytes.length / 32);
      let out = [0, 1, 2, 3].map(() => new Float64Array(capacity));
      let count = 0;
      const report = this.parse(
        bytes,
        Math.ceil(Math.min(bytes.length, this.chunkBytes) / 32),
        (chunk, n) => {
          if (count + n > capacity) {
            capacity = Math.max(2 * capacity, count + n);
            out = out.map((column) => {
              const grown = new Float64Array(capacity);
              grown.set(column.subarray(0, count));
              return grown;
            });
          }
          chunk.forEach((column, which) => {
            out[which]!.set(column, count);
          });
          count += n;
        },
      );
      const [index, x, y, t] = out.map((column) => column.subarray(0, count)) as [
        Float64Array,
        Float64Array,
        Float64Array,
        Float64Array,
      ];
      return { report, columns: { index, x, y, t } };
    });
  }

  /** Spec §7: the keyframes file read as a list of names — every token ending in `.png`, in order. */
  keyframeImageNames(text: Uint8Array): string[] {
    const bytes = requireBytes('keyframeImageNames', text);
    return this.run('keyframeImageNames', () => {
      const core = this.core;
      core.namesReset();
      this.feedChunks(bytes, (ptr, len, base, final) =>
        core.namesChunk(ptr, len, base, final ? 1 : 0),
      );
      const count = core.namesCount();
      const at = (core.namesPointer() >>> 0) / 4;
      const pairs = this.view().u32.slice(at, at + 2 * count);
      core.namesReset();
      const names: string[] = new Array(count);
      for (let i = 0; i < count; i++) {
        names[i] = this.decoder.decode(bytes.subarray(pairs[2 * i], pairs[2 * i + 1]));
      }
      return names;
    });
  }

  /** Spec §5: which transform maps map units to image pixels, and why stronger ones were rejected. */
  solveTransform(calibration: Calibration | null, image: ImageSize): TransformResult {
    return this.run('solveTransform', () => solveTransform(this.core, calibration, image));
  }

  /**
   * Copies x and y through the scratch area in chunks and runs `kernel` on each chunk in place, with
   * room at `out` for 4 bytes a point. It runs at least once, so an empty input still has its
   * arguments checked; `kernel` returns false to stop early.
   */
  private stream(
    xs: Float64Array,
    ys: Float64Array,
    chunkPoints: number,
    kernel: (xPtr: number, yPtr: number, start: number, count: number, out: number) => boolean,
  ): void {
    if (this.scratch === 0) this.scratch = this.core.alloc(STREAM_SCRATCH_BYTES) >>> 0;
    const xPtr =
      Math.ceil(this.scratch / SCRATCH_ALIGNMENT) * SCRATCH_ALIGNMENT + SCRATCH_ALIGNMENT_OFFSET;
    const yPtr = xPtr + 8 * chunkPoints;
    const out = yPtr + 8 * chunkPoints;
    let start = 0;
    do {
      const end = Math.min(start + chunkPoints, xs.length);
      const f64 = this.view().f64;
      f64.set(xs.subarray(start, end), xPtr / 8);
      f64.set(ys.subarray(start, end), yPtr / 8);
      if (!kernel(xPtr, yPtr, start, end - start, out)) return;
      start = end;
    } while (start < xs.length);
  }

  /**
   * Maps map-unit points to image pixels with the spec §5 clamp. The result goes to new arrays, or
   * into `out` when given (its arrays as long as x and y; they may be x and y themselves, which then
   * map in place); otherwise the inputs are not modified.
   */
  mapToImage(
    transform: TransformResult,
    x: Float64Array,
    y: Float64Array,
    image: ImageSize,
    out?: PointsOut,
  ): { x: Float64Array; y: Float64Array; clamped: number } {
    const [xs, ys] = requireXY('mapToImage', x, y);
    const [outX, outY] =
      out === undefined
        ? [new Float64Array(xs.length), new Float64Array(ys.length)]
        : requireOut('mapToImage', out, xs.length);
    return this.run('mapToImage', () => {
      let clamped = 0;
      const mapChunk = imageMapping(this.core, transform, image);
      this.stream(xs, ys, MAP_CHUNK_POINTS, (xPtr, yPtr, start, count) => {
        clamped += mapChunk(xPtr, yPtr, count);
        const f64 = this.view().f64;
        outX.set(f64.subarray(xPtr / 8, xPtr / 8 + count), start);
        outY.set(f64.subarray(yPtr / 8, yPtr / 8 + count), start);
        return true;
      });
      return { x: outX, y: outY, clamped };
    });
  }

  /** Spec §9: display size and scale for an image (800×600 when unknown), ≤ 700×650, never upscaled. */
  displayGeometry(image: ImageSize | null): DisplayGeometry {
    const { width, height } = knownImage(image);
    const scale = this.run('displayGeometry', () => this.core.displayScale(width, height));
    return { width: width * scale, height: height * scale, scale };
  }

  /** Greedy thinning from the first point (spec §4); returns the kept indices in order. */
  thin(x: Float64Array, y: Float64Array, minDistance: number): Int32Array {
    const [xs, ys] = requireXY('thin', x, y);
    const distance = requireMinDistance('thin', minDistance);
    return this.run('thin', () => {
      let kept = new Int32Array(1024);
      let count = 0;
      this.stream(xs, ys, READ_CHUNK_POINTS, (xPtr, yPtr, start, n, out) => {
        // Each chunk continues from the last point kept so far (point 0 starts the path).
        const last = count > 0 ? kept[count - 1]! : 0;
        const found = this.core.thinGreedy(
          xPtr,
          yPtr,
          n,
          distance,
          out,
          start,
          xs[last]!,
          ys[last]!,
        );
        if (count + found > kept.length) {
          const grown = new Int32Array(Math.max(2 * kept.length, count + found));
          grown.set(kept.subarray(0, count));
          kept = grown;
        }
        kept.set(this.view().i32.subarray(out / 4, out / 4 + found), count);
        count += found;
        return true;
      });
      return kept.slice(0, count);
    });
  }

  /** Thins points resident in linear memory; the kept indices are left at the returned pointer. */
  private thinAt(
    take: (bytes: number) => number,
    xPtr: number,
    yPtr: number,
    n: number,
    minDistance: number,
  ): { ptr: number; count: number } {
    const ptr = take(4 * n);
    return { ptr, count: this.core.thinGreedy(xPtr, yPtr, n, minDistance, ptr, 0, 0, 0) };
  }

  /** Spec §4 tag scanning over image-pixel points; radius in image pixels (10 = "within 0.1"). */
  scanTags(
    x: Float64Array,
    y: Float64Array,
    tags: readonly XY[],
    radiusPx: number = TAG_SCAN_RADIUS_PX,
  ): TagScan {
    const [xs, ys] = requireXY('scanTags', x, y);
    const checkedTags = requireTags('scanTags', tags);
    const radius = requirePositive('scanTags', 'radiusPx', radiusPx);
    return this.run('scanTags', (take) =>
      this.scanWith(take, checkedTags, radius, (scan) =>
        this.stream(
          xs,
          ys,
          READ_CHUNK_POINTS,
          (xPtr, yPtr, _start, n) => scan(xPtr, yPtr, n) < checkedTags.length,
        ),
      ),
    );
  }

  /**
   * Bins the tags in the core's grid, lets `feed` pass the points to `scan` (which returns how many
   * tags are scanned so far) and reads the result.
   */
  private scanWith(
    take: (bytes: number) => number,
    tags: readonly XY[],
    radius: number,
    feed: (scan: (xPtr: number, yPtr: number, n: number) => number) => void,
  ): TagScan {
    const core = this.core;
    const tagPtr = take(16 * tags.length);
    this.view().f64.set(tags.flat(), tagPtr / 8);
    const flags = take(tags.length);
    core.tagGridBuild(tagPtr, tags.length, radius, flags);
    let scanned = 0;
    try {
      feed((xPtr, yPtr, n) => {
        scanned = core.tagGridScan(xPtr, yPtr, n);
        return scanned;
      });
    } finally {
      if (this.core === core) core.tagGridRelease();
    }
    const marks = this.view().u8.subarray(flags, flags + tags.length);
    const indices: number[] = [];
    marks.forEach((mark, i) => {
      if (mark) indices.push(i);
    });
    return { scanned, total: tags.length, indices };
  }

  /**
   * Copies the points into linear memory once; the kernels of the returned object then run on them
   * in place, as loadPath's do, with no copies per call. Free them with its dispose().
   */
  resident(x: Float64Array, y: Float64Array): ResidentPoints {
    const [xs, ys] = requireXY('resident', x, y);
    const count = xs.length;
    if (count > MAX_RESIDENT_POINTS) {
      throw new RangeError(`resident: at most ${MAX_RESIDENT_POINTS} points fit, got ${count}`);
    }
    const { core, xPtr, yPtr } = this.run('resident', () => {
      // Not from `take`: these buffers outlive the call (a trap replaces the whole instance).
      const xPtr = this.core.alloc(8 * count) >>> 0;
      const yPtr = this.core.alloc(8 * count) >>> 0;
      const f64 = this.view().f64;
      f64.set(xs, xPtr / 8);
      f64.set(ys, yPtr / 8);
      return { core: this.core, xPtr, yPtr };
    });
    return this.residentHandle('resident', core, count, xPtr, yPtr, [xPtr, yPtr]).points;
  }

  /**
   * Parses the keyframes into linear memory exactly as loadPath does and leaves them there: x and y
   * become resident points for the in-place kernels (no copy in), index and t stay beside them.
   * Nothing is copied out unless asked (read, readColumns). Call dispose() to free them.
   */
  residentKeyframes(text: Uint8Array): ResidentKeyframes {
    const bytes = requireBytes('residentKeyframes', text);
    const { core, report, columns } = this.run('residentKeyframes', () => ({
      core: this.core,
      ...this.parseResident(bytes),
    }));
    const [index = 0, x = 0, y = 0, t = 0] = columns;
    const count = report.points;
    const { points, within } = this.residentHandle('residentKeyframes', core, count, x, y, columns);
    return {
      ...points,
      report,
      readColumns: () =>
        within('readColumns', () => {
          const f64 = this.view().f64;
          const copy = (ptr: number) => f64.slice(ptr / 8, ptr / 8 + count);
          return { index: copy(index), x: copy(x), y: copy(y), t: copy(t) };
        }),
    };
  }

  /**
   * The methods of `count` resident points at xPtr/yPtr in `core`'s memory; dispose() frees the
   * `owned` buffers. `within` guards further methods the same way: it refuses disposed points and
   * points lost with a replaced instance.
   */
  private residentHandle(
    prefix: string,
    core: CoreExports,
    count: number,
    xPtr: number,
    yPtr: number,
    owned: readonly number[],
  ): {
    points: ResidentPoints;
    within: <T>(method: string, work: (take: (bytes: number) => number) => T) => T;
  } {
    let live = true;
    const within = <T>(method: string, work: (take: (bytes: number) => number) => T): T => {
      const name = `${prefix}.${method}`;
      if (!live) throw new Error(`${name}: these resident points have been disposed`);
      // Running out of memory replaces the instance the points lived in.
      if (this.core !== core) {
        throw new Error(
          `${name}: the resident points were lost when the path core ran out of memory`,
        );
      }
      return this.run(name, work);
    };
    const points: ResidentPoints = {
      count,
      mapToImage: (transform, image) =>
        within('mapToImage', () => ({
          clamped: mapToImageInPlace(core, transform, xPtr, yPtr, count, image),
        })),
      read: () =>
        within('read', () => {
          const f64 = this.view().f64;
          return {
            x: f64.slice(xPtr / 8, xPtr / 8 + count),
            y: f64.slice(yPtr / 8, yPtr / 8 + count),
          };
        }),
      thin: (minDistance) => {
        const distance = requireMinDistance(`${prefix}.thin`, minDistance);
        return within('thin', (take) => {
          const kept = this.thinAt(take, xPtr, yPtr, count, distance);
          return this.view().i32.slice(kept.ptr / 4, kept.ptr / 4 + kept.count);
        });
      },
      scanTags: (tags, radiusPx = TAG_SCAN_RADIUS_PX) => {
        const checkedTags = requireTags(`${prefix}.scanTags`, tags);
        const radius = requirePositive(`${prefix}.scanTags`, 'radiusPx', radiusPx);
        return within('scanTags', (take) =>
          this.scanWith(take, checkedTags, radius, (at) => at(xPtr, yPtr, count)),
        );
      },
      dispose: () => {
        if (!live) return;
        live = false;
        if (this.core === core) for (const ptr of owned) core.free(ptr);
      },
    };
    return { points, within };
  }

  /** Spec §4 time bounds: min and max timestamp, max replaced by a known video duration. */
  timeBounds(t: Float64Array, duration?: number): TimeBounds {
    const times = requireF64('timeBounds', 't', t);
    const bounds = this.run('timeBounds', (take) => {
      const tPtr = this.copyIn(take, times);
      const out = take(16);
      this.core.timeRange(tPtr, times.length, out);
      return this.rangeAt(out);
    });
    return applyDuration(bounds, duration);
  }

  private rangeAt(out: number): TimeBounds {
    const f64 = this.view().f64;
    const min = f64[out / 8] ?? Number.NaN;
    const max = f64[out / 8 + 1] ?? Number.NaN;
    // No keyframes: an empty 0..0 range rather than NaN, so a slider stays well defined.
    return Number.isNaN(min) ? { min: 0, max: 0 } : { min, max };
  }

  /**
   * Parses, sorts by time, solves the transform, maps and clamps, scans tags, scales to display
   * pixels, thins and indexes the path, which then stays resident for query().
   */
  loadPath(request: LoadPathRequest): LoadedPath {
    if (typeof request !== 'object' || request === null) {
      throw new TypeError('loadPath: request must be {text, calibration, image, tags}');
    }
    const text = requireBytes('loadPath', request.text);
    const tags = requireTags('loadPath', request.tags);
    const image = knownImage(request.image, 'loadPath: image');
    this.release();
    return this.run('loadPath', (take) => {
      const core = this.core;
      const { report, columns } = this.parseResident(text);
      const [keyframe = 0, x = 0, y = 0, t = 0] = columns;
      const resident: Resident = { keyframe };
      try {
        const n = report.points;
        const reordered = !core.isSortedByTime(t, n);
        core.sortByTime(t, x, y, keyframe, n);
        const transform = solveTransform(core, request.calibration, image);
        const clamped = mapToImageInPlace(core, transform, x, y, n, image);
        const scan = this.scanWith(take, tags, TAG_SCAN_RADIUS_PX, (at) => at(x, y, n));
        const scale = core.displayScale(image.width, image.height);
        core.scaleColumns(x, y, n, scale);
        const { ptr: keptPtr, count: keptCount } = this.thinAt(take, x, y, n, THIN_DISTANCE_PX);
        const kept = this.gatherKept(take, { t, x, y, keyframe }, keptPtr, keptCount);
        const out = take(16);
        core.timeRange(t, n, out);
        const bounds = this.rangeAt(out);
        // Last: the index copies t, x and y into records of its own (16 bytes a point instead of
        // 24), so the columns are freed below; the keyframe column stays for scrub().
        core.timeIndexBuild(t, x, y, n, keptPtr, keptCount);
        this.loaded = resident;
        const display = { width: image.width * scale, height: image.height * scale, scale };
        return { report, transform, display, bounds, clamped, reordered, kept, scan };
      } finally {
        if (this.core === core) {
          for (const ptr of [x, y, t]) core.free(ptr);
          if (this.loaded !== resident) core.free(keyframe);
        }
      }
    });
  }

  private gatherKept(
    take: (bytes: number) => number,
    columns: { t: number; x: number; y: number; keyframe: number },
    keptPtr: number,
    count: number,
  ): LoadedPath['kept'] {
    const core = this.core;
    const xOut = take(4 * count);
    const yOut = take(4 * count);
    const tOut = take(8 * count);
    const keyframeOut = take(8 * count);
    core.gatherF32(columns.x, keptPtr, count, xOut);
    core.gatherF32(columns.y, keptPtr, count, yOut);
    core.gatherF64(columns.t, keptPtr, count, tOut);
    core.gatherF64(columns.keyframe, keptPtr, count, keyframeOut);
    const buffer = this.view().u8.buffer;
    return {
      x: new Float32Array(buffer.slice(xOut, xOut + 4 * count)),
      y: new Float32Array(buffer.slice(yOut, yOut + 4 * count)),
      t: new Float64Array(buffer.slice(tOut, tOut + 8 * count)),
      index: new Int32Array(buffer.slice(keptPtr, keptPtr + 4 * count)),
      keyframe: new Float64Array(buffer.slice(keyframeOut, keyframeOut + 8 * count)),
    };
  }

  /** Spec §4 scrub query against the resident path: kept points up to `time` plus the nearest point. */
  query(time: number): PathQuery {
    return this.answerAt('query', time, false);
  }

  /** query() plus field 1 of the nearest point, which the UI shows and opens (spec §3). */
  scrub(time: number): ScrubAnswer {
    return this.answerAt('scrub', time, true);
  }

  /**
   * The query's answer, with the nearest keyframe's number when `withKeyframe`. One object literal
   * of one shape per kind: spreading the query's answer into a second object cost the scrub about
   * 4 µs a call, ten times the query.
   */
  private answerAt(method: string, time: number, withKeyframe: false): PathQuery;
  private answerAt(method: string, time: number, withKeyframe: true): ScrubAnswer;
  private answerAt(method: string, time: number, withKeyframe: boolean): PathQuery | ScrubAnswer {
    if (this.disposed) throw new Error(`${method}: the path engine has been disposed`);
    const resident = this.loaded;
    if (resident === null) throw new Error(`${method}: no path is loaded; call loadPath first`);
    if (typeof time !== 'number' || !Number.isFinite(time)) {
      throw new RangeError(`${method}: time must be a finite number of seconds, got ${time}`);
    }
    const nearest = this.core.timeQuery(time);
    // A view over a detached buffer (memory grew since) reads as empty: rebuild it then.
    if (this.answer.f64.length === 0) this.answer = this.makeAnswerViews();
    const { f64, i32 } = this.answer;
    const drawCount = i32[1]!;
    const nearestX = f64[1]!;
    const nearestY = f64[2]!;
    const nearestT = f64[0]!;
    const exact = Math.abs(nearestT - time) <= TIME_MATCH_TOLERANCE_S + TIME_MATCH_SLACK_S;
    if (!withKeyframe) return { drawCount, nearest, nearestX, nearestY, nearestT, exact };
    if (this.views.f64.length === 0) this.views = this.makeViews();
    const nearestKeyframe =
      nearest >= 0 ? this.views.f64[resident.keyframe / 8 + nearest]! : Number.NaN;
    return { drawCount, nearest, nearestX, nearestY, nearestT, exact, nearestKeyframe };
  }

  /** Views over the core's query answer: f64 t, x, y then i32 position, draw count. */
  private makeAnswerViews(): { f64: Float64Array; i32: Int32Array } {
    const at = this.core.timeQueryResult() >>> 0;
    const buffer = this.core.memory.buffer;
    return { f64: new Float64Array(buffer, at, 3), i32: new Int32Array(buffer, at + 24, 2) };
  }

  /** Frees the resident path: the core's time index and the keyframe column. */
  private release(): void {
    const resident = this.loaded;
    if (resident === null) return;
    this.loaded = null;
    this.core.timeIndexRelease();
    this.core.free(resident.keyframe);
  }

  /** Frees the resident path and the scratch area; the engine refuses further calls. */
  dispose(): void {
    if (this.disposed) return;
    this.release();
    this.core.free(this.scratch);
    this.scratch = 0;
    this.disposed = true;
  }
}
