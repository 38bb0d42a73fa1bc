import {
  type CSSProperties,
  type JSX,
  type KeyboardEvent,
  type MouseEvent,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { PathTag } from '../../../../workers/floor-plan-scene.ts';
import { PATH_STYLE } from '../../../../workers/path-raster.ts';
import { useLatest } from '../../../hooks/use-latest.ts';
import { startPathWorker, terminatePathWorker } from '../../../lib/path-client.ts';
import { videoIdOf } from '../../../lib/video.ts';
import type { Video } from '../../../types/api.ts';
import type { PlaybackClock } from '../playback-clock.ts';
import { CURRENT_MARKER_RADIUS, HIGHLIGHT_RADIUS } from './draw.ts';
import { loadPathPlayer, type PathPlayerLoad } from './load-path-player.ts';
import { type KeyframePoint, PathStage, type StageElements } from './path-stage.ts';
import { pathPlayerMessages as m, pathPlayerStrings as s } from './strings.ts';
import { type QrScannedTag, tagScan } from './tag-scan.ts';
import { dispatchTagScanning, type TagScanningDetail } from './tag-scanning-event.ts';
import './path-player.css';

export type { PathTag } from '../../../../workers/floor-plan-scene.ts';
export type { QrScannedTag } from './tag-scan.ts';

/** Keyframe time bounds of the loaded path (seconds). */
export interface PathLoadInfo {
  min: number;
  max: number;
  /**
   * Spec §7: the keyframe image names of the same keyframes file, read in the path worker from
   * the bytes the player downloaded (no second download). Rejects once another video is loaded.
   */
  keyframeImageNames?: () => Promise<string[]>;
}

export interface PathPlayerProps {
  /** The selected video; a change reloads everything. */
  video: Video;
  /** Followed with valtio `subscribe` + requestAnimationFrame; React does not re-render per tick. */
  clock: PlaybackClock;
  /** Rings the path point nearest this time (radius 18), e.g. a hovered detection. */
  highlightTime: number | null;
  /** A path point was clicked: its timestamp and keyframe index (field 1). */
  onKeyframeClick(point: { time: number; index: number }): void;
  onTagClick(tag: PathTag): void;
  /** Bounds when a path loaded, null when none. */
  onLoaded(info: PathLoadInfo | null): void;
  /**
   * The inspection report's tags whose QR code was read during the recording: counted, labelled
   * and drawn as scanned beside the path's own scan. Without it (the video analysis page) the path
   * alone counts (spec §2). The 'tag-scanning-update' event reports the path's scan either way.
   */
  qrScannedTags?: readonly QrScannedTag[];
  /**
   * The inspection report's: its tags and hot zones as the inspection was recorded against them
   * (the checklist's), not the line's as they are now, so both count the same tags.
   */
  recordedChecklist?: boolean;
  /**
   * Why the analysis made no path (the server's words, e.g. the inspection report's
   * `pathMissingReason`): said beside the spec §8 message when no path loaded.
   */
  pathMissingReason?: string | null;
}

type LoadState = { status: 'loading' } | { status: 'done'; load: PathPlayerLoad };

const PATH_COLOUR = `rgb(${PATH_STYLE.fill.join(' ')})`;

/** A marker's radius (spec §9) for its stylesheet rule. */
const markerSize = (radius: number) => ({ '--marker-radius': `${radius}px` }) as CSSProperties;

/** The page's device pixel ratio, read once per load (the canvases are sized for it). */
const pixelRatio = () => Math.min(Math.max(window.devicePixelRatio || 1, 1), 4);

/**
 * Spec §2 floor-plan path player: the floor plan with hot zones, cameras and tags (scanned or
 * not), the inspection path up to the current time and the current keyframe; clicking a point
 * opens its keyframe, clicking a tag its details. Rules and decisions: docs/path-player.md.
 */
export function PathPlayer(props: PathPlayerProps): JSX.Element {
  const { video, clock, highlightTime, qrScannedTags, pathMissingReason, recordedChecklist } =
    props;
  const callbacks = useLatest(props);
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [stage, setStage] = useState<PathStage | null>(null);
  const floor = useRef<HTMLCanvasElement>(null);
  const pathHost = useRef<HTMLDivElement>(null);
  const tags = useRef<HTMLCanvasElement>(null);
  const currentMarker = useRef<HTMLDivElement>(null);
  const highlightMarker = useRef<HTMLDivElement>(null);
  const readout = useRef<HTMLSpanElement>(null);
  const lastScan = useRef<TagScanningDetail | null>(null);
  const helpId = useId();
  const captionId = useId();

  // The worker stops with the page (it holds the loaded path: up to a few hundred MB).
  useEffect(() => () => terminatePathWorker(), []);

  const videoId = videoIdOf(video);
  const keyframesPath = video.path?.keyframesData;
  const videoRef = useLatest(video);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a video is its id and keyframes path; a new object for the same video must not reload.
  useEffect(() => {
    // Started now (the page opening, or the previous load's abort having stopped it), so the
    // path core is compiled and warm when the keyframes arrive.
    startPathWorker();
    const controller = new AbortController();
    setState({ status: 'loading' });
    loadPathPlayer(
      videoRef.current,
      pixelRatio(),
      () => clock.time,
      controller.signal,
      recordedChecklist,
    ).then(
      (load) => setState({ status: 'done', load }),
      (error: unknown) => {
        if (!controller.signal.aborted) console.error('The path player failed to load', error);
      },
    );
    return () => controller.abort();
  }, [videoId, keyframesPath, clock]);

  const load = state.status === 'done' ? state.load : null;
  const scan = useMemo(
    () =>
      load
        ? tagScan(load.path?.scan.indices ?? [], load.tags, load.configuration, qrScannedTags)
        : tagScan([], [], null, undefined),
    [load, qrScannedTags],
  );
  const scanRef = useLatest(scan);

  useEffect(() => {
    if (!load) return;
    const { path, keyframeImageNames } = load;
    callbacks.current.onLoaded(path ? { ...path.bounds, keyframeImageNames } : null);
    lastScan.current = dispatchTagScanning(load, lastScan.current);
  }, [load, callbacks]);

  useEffect(() => {
    const elements = {
      floor: floor.current,
      pathHost: pathHost.current,
      tags: tags.current,
      currentMarker: currentMarker.current,
      highlightMarker: highlightMarker.current,
    };
    if (!load?.display || Object.values(elements).some((element) => element === null)) return;
    const display = load.display;
    const created = new PathStage(
      elements as StageElements,
      { ...load, display },
      clock,
      pixelRatio(),
      readout.current,
      scanRef.current.scanned,
    );
    setStage(created);
    return () => {
      created.dispose();
      setStage(null);
    };
  }, [load, clock, scanRef]);

  useEffect(() => {
    stage?.showScanned(scan.scanned);
  }, [stage, scan]);

  useEffect(() => {
    stage?.setHighlight(highlightTime);
  }, [stage, highlightTime]);

  const openKeyframe = (point: KeyframePoint | null) => {
    if (point) callbacks.current.onKeyframeClick(point);
  };

  const onCanvasClick = (event: MouseEvent<HTMLCanvasElement>) => {
    if (!stage || !load?.display) return;
    const box = event.currentTarget.getBoundingClientRect();
    // The stage may be shown smaller than its display size (narrow screens): scale back.
    const point = {
      x: ((event.clientX - box.left) * load.display.width) / box.width,
      y: ((event.clientY - box.top) * load.display.height) / box.height,
    };
    stage.hitAt(point).then(
      (hit) => {
        if (hit?.kind === 'keyframe') openKeyframe(hit.point);
        else if (hit?.kind === 'tag') callbacks.current.onTagClick(hit.tag);
      },
      (error: unknown) => console.error('Could not find the clicked path point', error),
    );
  };

  const onCanvasKeyDown = (event: KeyboardEvent<HTMLCanvasElement>) => {
    if (event.key !== 'Enter' || !stage) return;
    event.preventDefault();
    openKeyframe(stage.currentKeyframe());
  };

  // Each spec §8 message, with the player's words beside it where they say what it means.
  const messages: { text: string; detail: string | null }[] = [];
  if (load?.configurationMessage) {
    const missing = load.configurationMessage === m.missingConfiguration;
    messages.push({ text: load.configurationMessage, detail: missing ? s.calibrationHelp : null });
  }
  if (load?.pathMessage) {
    const reason = pathMissingReason ? s.pathMissingReason(pathMissingReason) : null;
    messages.push({ text: load.pathMessage, detail: reason ?? load.pathDetail ?? null });
  }
  const report = load?.path?.report;
  const notices = [
    load?.imageFailed ? s.imageFailed : null,
    report && report.badLines > 0 ? s.badLines(report.badLines, report.firstBadLine) : null,
    load?.path?.reordered ? s.reordered : null,
    load?.path && load.path.clamped > 0 ? s.clamped(load.path.clamped) : null,
    scan.unmatched.length > 0 ? s.qrUnmatched(scan.unmatched.map((tag) => tag.name)) : null,
  ].filter((text): text is string => text !== null);
  const { scanned, sources } = scan;
  const tagState = (i: number) => {
    const source = sources?.get(i);
    if (!scanned.has(i)) return s.notScanned;
    return source ? s.scannedBy[source] : s.scanned;
  };
  const display = load?.display;

  return (
    <section className="path-player" aria-label={s.region} aria-busy={state.status === 'loading'}>
      {state.status === 'loading' && (
        <p className="path-player__status" role="status">
          {s.loading}
        </p>
      )}
      {messages.map(({ text, detail }) => (
        <p key={text} className="path-player__message" role="alert">
          {text}
          {detail && <span className="path-player__message-detail"> {detail}</span>}
        </p>
      ))}
      {display && (
        <>
          <div
            className="path-player__stage"
            style={{ width: display.width, aspectRatio: `${display.width} / ${display.height}` }}
          >
            <div className="path-player__layer" aria-hidden="true">
              <canvas ref={floor} className="path-player__layer" />
              <div ref={pathHost} className="path-player__layer" />
            </div>
            <canvas
              ref={tags}
              className="path-player__layer path-player__surface"
              role="img"
              tabIndex={0}
              aria-label={s.canvas}
              aria-describedby={`${captionId} ${helpId}`}
              onClick={onCanvasClick}
              onKeyDown={onCanvasKeyDown}
            />
            <div
              ref={highlightMarker}
              className="path-player__marker path-player__marker--highlight"
              style={markerSize(HIGHLIGHT_RADIUS)}
              hidden
            >
              <span />
            </div>
            <div
              ref={currentMarker}
              className="path-player__marker path-player__marker--current"
              style={markerSize(CURRENT_MARKER_RADIUS)}
              hidden
            >
              <span />
            </div>
          </div>
          <p id={helpId} className="visually-hidden">
            {s.canvasHelp}
          </p>
        </>
      )}
      {load?.path && (
        <p className="path-player__readout">
          <span ref={readout} className="path-player__readout-text">
            {s.noKeyframe}
          </span>
        </p>
      )}
      <div id={captionId} className="path-player__caption">
        {load?.path && <p>{s.transform(load.path.transform)}</p>}
        {notices.map((notice) => (
          <p key={notice}>{notice}</p>
        ))}
      </div>
      {display && (
        <ul className="path-player__legend" aria-label={s.legend}>
          <li>
            <span className="path-player__swatch" style={{ background: PATH_COLOUR }} />
            {s.legendPath}
          </li>
          <li>
            <span className="path-player__swatch path-player__swatch--current" />
            {s.legendCurrent}
          </li>
          <li>
            <span className="path-player__swatch path-player__swatch--highlight" />
            {s.legendHighlight}
          </li>
          <li>
            <span className="path-player__swatch path-player__swatch--scanned" />
            {s.scanned}
          </li>
          <li>
            <span className="path-player__swatch path-player__swatch--not-scanned" />
            {s.notScanned}
          </li>
        </ul>
      )}
      {load && load.tags.length > 0 && (
        <div className="path-player__tags">
          <h3>{s.tagsHeading(scanned.size, load.tags.length)}</h3>
          <ul>
            {load.tags.map((tag, i) => (
              <li key={`${tag.name}@${tag.x},${tag.y}`}>
                <button
                  type="button"
                  className="path-player__tag"
                  aria-label={s.tagButton(tag.name, tagState(i))}
                  onClick={() => callbacks.current.onTagClick(tag)}
                >
                  <span
                    className={`path-player__swatch path-player__swatch--${scanned.has(i) ? 'scanned' : 'not-scanned'}`}
                    style={{
                      borderColor: tag.color || undefined,
                      background: scanned.has(i) ? tag.color || undefined : undefined,
                    }}
                  />
                  {/* The space keeps the visible text "name state", as the name reads (WCAG 2.5.3). */}
                  {tag.name} <span className="path-player__tag-state">{tagState(i)}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
