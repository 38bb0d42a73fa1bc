// The path player's stacked layers for one load, driven without React: the floor is drawn once,
// the tags once per scan shown; every animation frame after the clock moved asks the path worker
// for the scrub answer (the worker paints the path layer itself, into the canvas the load handed
// over), then moves the markers and updates the keyframe readout. One request is in flight at a
// time; a time that moves meanwhile is picked up when it returns, so a frame never queues behind
// stale ones.

import { subscribeKey } from 'valtio/utils';
import {
  type AxisScale,
  layoutToDisplay,
  type PathTag,
} from '../../../../workers/floor-plan-scene.ts';
import type { DisplayGeometry, PathFrame, ScrubAnswer } from '../../../../workers/path-types.ts';
import { canvasSize } from '../../../../workers/path-view.ts';
import { setLiveText } from '../../../lib/live-text.ts';
import { hitTestPath, pathFrame, scrubPath } from '../../../lib/path-client.ts';
import type { PlaybackClock } from '../playback-clock.ts';
import {
  CURRENT_MARKER_RADIUS,
  drawFloor,
  drawTags,
  markerTransform,
  POINT_MARKER_RADIUS,
  type Point,
  paintStatic,
  planLabels,
  tagAt,
} from './draw.ts';
import type { LabelLayout } from './label-layout.ts';
import { PATH_COMPLETE_MARK, PATH_DRAWN_MARK, type PathPlayerLoad } from './load-path-player.ts';
import { pathPlayerStrings as s } from './strings.ts';

/** One User Timing measure per frame for the UI bench: request to drawn, main-thread time in detail. */
export const FRAME_MEASURE = 'path-player:frame';
/** While the worker still stamps the path's raster, a frame is asked for this often to learn when it is done. */
const COMPLETION_POLL_MS = 250;

export interface StageElements {
  floor: HTMLCanvasElement;
  /** Holds the path layer's canvas (PathPlayerLoad.pathCanvas, painted by the worker). */
  pathHost: HTMLElement;
  tags: HTMLCanvasElement;
  /** Marker layers as large as the stage (see markerTransform), hidden until placed. */
  currentMarker: HTMLElement;
  highlightMarker: HTMLElement;
}

/** A keyframe of the path: its timestamp and its index (field 1 of the keyframes file). */
export interface KeyframePoint {
  time: number;
  index: number;
}

export type StageHit = { kind: 'keyframe'; point: KeyframePoint } | { kind: 'tag'; tag: PathTag };

const noLayout: AxisScale = { x: 1, y: 1 };

export class PathStage {
  private readonly display: DisplayGeometry;
  private readonly layout: AxisScale;
  /** Where the tags' and zones' names are drawn, worked out once for the load. */
  private readonly labels: LabelLayout;
  private readonly pathHost: HTMLElement;
  private readonly currentMarker: HTMLElement;
  private readonly highlightMarker: HTMLElement;
  private answer: ScrubAnswer | null = null;
  /** The transform each marker was last given (null: hidden). */
  private readonly placed = new Map<HTMLElement, string | null>();
  private highlight: Point | null = null;
  private highlightRequest = 0;
  private frameScheduled = false;
  private inFlight = false;
  private stale = false;
  private disposed = false;
  private complete = false;
  private completionPoll = 0;
  private readonly unsubscribe: () => void = () => {};
  private readonly tagsLayer: {
    canvas: HTMLCanvasElement;
    size: { width: number; height: number };
    pixelRatio: number;
  };
  /** The scanned tags the tags layer shows. */
  private scannedShown: ReadonlySet<number> | null = null;

  constructor(
    elements: StageElements,
    private readonly load: PathPlayerLoad & { display: DisplayGeometry },
    private readonly clock: PlaybackClock,
    pixelRatio: number,
    private readonly readout: HTMLElement | null,
    scanned: ReadonlySet<number>,
  ) {
    this.display = load.display;
    const { configuration } = load;
    this.layout = configuration
      ? layoutToDisplay(configuration, load.imageSize, this.display)
      : noLayout;
    const size = canvasSize(this.display, pixelRatio);
    const hotZones = configuration?.hotZones ?? [];
    this.labels = planLabels(this.display, hotZones, load.tags, this.layout);
    paintStatic(elements.floor, size, pixelRatio, (ctx) =>
      drawFloor(ctx, {
        display: this.display,
        image: load.image,
        hotZones,
        cameras: configuration?.cameras ?? [],
        layout: this.layout,
        labels: this.labels.zones,
      }),
    );
    this.tagsLayer = { canvas: elements.tags, size, pixelRatio };
    this.showScanned(scanned);
    this.currentMarker = elements.currentMarker;
    this.highlightMarker = elements.highlightMarker;
    this.placeMarkers();
    this.pathHost = elements.pathHost;
    if (load.path && load.pathCanvas && load.firstFrame) {
      // The worker has painted the first frame into this canvas already.
      this.pathHost.replaceChildren(load.pathCanvas);
      this.show(load.firstFrame);
      performance.mark(PATH_DRAWN_MARK);
      this.unsubscribe = subscribeKey(clock, 'time', () => this.schedule());
      // The clock may have moved since the first frame was rendered.
      this.schedule();
    }
  }

  /** The keyframe the current time shows (spec §4: nearest to it), or null before the first frame. */
  currentKeyframe(): KeyframePoint | null {
    const answer = this.answer;
    if (answer === null || answer.nearest < 0) return null;
    return { time: answer.nearestT, index: answer.nearestKeyframe };
  }

  /**
   * Draws the tags with these scanned (indices into the load's tags); the same set again draws
   * nothing (a reloaded report hands the same QR scans again).
   */
  showScanned(scanned: ReadonlySet<number>): void {
    const shown = this.scannedShown;
    if (shown && shown.size === scanned.size && [...scanned].every((i) => shown.has(i))) return;
    this.scannedShown = new Set(scanned);
    const { canvas, size, pixelRatio } = this.tagsLayer;
    const { display, layout } = this;
    const labels = this.labels.tags;
    paintStatic(canvas, size, pixelRatio, (ctx) =>
      drawTags(ctx, { display, tags: this.load.tags, scanned, layout, labels }),
    );
  }

  /** Rings the path point nearest `time` (a hovered or selected detection); null removes it. */
  setHighlight(time: number | null): void {
    const request = ++this.highlightRequest;
    if (time === null || !this.load.path || !Number.isFinite(time)) {
      this.highlight = null;
      this.placeMarkers();
      return;
    }
    scrubPath(time).then(
      (answer) => {
        if (this.disposed || request !== this.highlightRequest) return;
        this.highlight = answer.nearest >= 0 ? { x: answer.nearestX, y: answer.nearestY } : null;
        this.placeMarkers();
      },
      (error: unknown) => console.error('Could not locate the highlighted time on the path', error),
    );
  }

  /**
   * What a click at a display-pixel point hits, topmost first: the current keyframe's marker, a
   * tag, then the nearest drawn path point within its marker radius.
   */
  async hitAt(point: Point): Promise<StageHit | null> {
    const current = this.currentKeyframe();
    const answer = this.answer;
    if (current && answer) {
      const distance = Math.hypot(point.x - answer.nearestX, point.y - answer.nearestY);
      if (distance <= CURRENT_MARKER_RADIUS) return { kind: 'keyframe', point: current };
    }
    const tag = tagAt(this.load.tags, this.layout, point);
    if (tag >= 0) return { kind: 'tag', tag: this.load.tags[tag]! };
    const path = this.load.path;
    if (!path || !answer || answer.drawCount === 0) return null;
    const hit = await hitTestPath(point.x, point.y, POINT_MARKER_RADIUS, answer.drawCount);
    if (hit < 0 || this.disposed) return null;
    return {
      kind: 'keyframe',
      point: { time: path.kept.t[hit]!, index: path.kept.keyframe[hit]! },
    };
  }

  dispose(): void {
    this.disposed = true;
    this.unsubscribe();
    clearTimeout(this.completionPoll);
    this.pathHost.replaceChildren();
  }

  private schedule(): void {
    if (this.frameScheduled || this.disposed) return;
    this.frameScheduled = true;
    requestAnimationFrame(() => {
      this.frameScheduled = false;
      this.requestFrame();
    });
  }

  private requestFrame(): void {
    if (this.disposed) return;
    if (this.inFlight) {
      this.stale = true;
      return;
    }
    const time = this.clock.time;
    if (!Number.isFinite(time)) return;
    const started = performance.now();
    this.inFlight = true;
    const request = pathFrame(time);
    const requestMs = performance.now() - started;
    request
      .then(
        (frame) => this.apply(frame, started, requestMs),
        (error: unknown) => {
          if (!this.disposed) console.error('The path worker could not draw the path', error);
        },
      )
      .finally(() => {
        this.inFlight = false;
        if (this.stale) {
          this.stale = false;
          this.schedule();
        }
      });
  }

  /** Draws a requested frame and records its timing for the UI bench. */
  private apply(frame: PathFrame, started: number, requestMs: number): void {
    const received = performance.now();
    this.show(frame);
    if (this.disposed) return;
    const end = performance.now();
    performance.measure(FRAME_MEASURE, {
      start: started,
      end,
      detail: {
        drawCount: frame.answer.drawCount,
        keptCount: this.load.path?.kept.t.length ?? 0,
        mainThreadMs: requestMs + (end - received),
      },
    });
    // Observers have the entry; the timeline buffer need not grow with every frame.
    performance.clearMeasures(FRAME_MEASURE);
  }

  /** Draws the markers and the readout for a frame (the worker has painted its path layer). */
  private show(frame: PathFrame): void {
    if (this.disposed) return;
    const { answer } = frame;
    this.answer = answer;
    this.placeMarkers();
    if (this.readout) {
      setLiveText(
        this.readout,
        answer.nearest >= 0 ? s.keyframe(answer.nearestKeyframe, answer.nearestT) : s.noKeyframe,
      );
    }
    if (frame.complete && !this.complete) {
      this.complete = true;
      performance.mark(PATH_COMPLETE_MARK);
    } else if (!frame.complete) {
      clearTimeout(this.completionPoll);
      this.completionPoll = window.setTimeout(() => this.schedule(), COMPLETION_POLL_MS);
    }
  }

  private placeMarkers(): void {
    const answer = this.answer;
    this.place(
      this.currentMarker,
      answer && answer.nearest >= 0 ? { x: answer.nearestX, y: answer.nearestY } : null,
    );
    this.place(this.highlightMarker, this.highlight);
  }

  /** Moves or hides a marker, writing nothing when it stays (a same-value write still restyles). */
  private place(marker: HTMLElement, point: Point | null): void {
    const transform = point ? markerTransform(point, this.display) : null;
    if (this.placed.get(marker) === transform) return;
    this.placed.set(marker, transform);
    marker.hidden = transform === null;
    if (transform !== null) marker.style.transform = transform;
  }
}
