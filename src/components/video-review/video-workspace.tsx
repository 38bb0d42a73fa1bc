import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { backJumpSeconds, type VideoShortcutAction } from '../../config/video-shortcuts.ts';
import { useLatest } from '../../hooks/use-latest.ts';
import { setLiveText } from '../../lib/live-text.ts';
import { keepMediaCookieFresh } from '../../lib/media-session.ts';
import { applyDuration, clampTime, type TimeBounds } from '../../lib/path-client.ts';
import { videoDuration, videoIdOf } from '../../lib/video.ts';
import type { Video } from '../../types/api.ts';
import { getKeyframeNames } from './api/get-keyframe-names.ts';
import { getPredictions } from './api/get-predictions.ts';
import {
  aboveThreshold,
  adjacentDetection,
  type Detection,
  detectionAt,
  toDetections,
} from './detections.ts';
import { DetectionsList } from './detections-list.tsx';
import {
  adjacentImage,
  currentImageIndex,
  type KeyframeImage,
  keyframeSubfolder,
  nearestImage,
  toKeyframeImages,
} from './keyframe-images.ts';
import { type KeyframeFrame, KeyframeModal } from './keyframe-modal.tsx';
import { requestPlay } from './media-sync.ts';
import { namesKeyframesFile } from './path-player/load-path-player.ts';
import {
  type PathLoadInfo,
  PathPlayer,
  type PathTag,
  type QrScannedTag,
} from './path-player/path-player.tsx';
import { formatSeconds, type PlaybackClock, stepRate, watchClock } from './playback-clock.ts';
import { shortcutAllowed, shortcutFor, VIDEO_WORKSPACE_SELECTOR } from './shortcuts.ts';
import { videoStrings as s } from './strings.ts';
import { TagDetailsModal } from './tag-details-modal.tsx';
import { TimeSlider } from './time-slider.tsx';
import { VideoPlayer } from './video-player.tsx';

export interface VideoWorkspaceProps {
  /** The selected video; the page mounts one workspace per video (keyed by its id). */
  video: Video;
  clock: PlaybackClock;
  /** The inspection report's tags scanned by their QR code, for the path player (it counts both). */
  qrScannedTags?: readonly QrScannedTag[];
  /** Why the analysis made no path, for the path player to say (the report's `pathMissingReason`). */
  pathMissingReason?: string | null;
  /** The report's: the path player draws the tags and zones the inspection was recorded against. */
  recordedChecklist?: boolean;
  /** Why no detections say nothing (no detector looked: the report's `detectionNote`). */
  detectionNote?: string | null;
}

const noKeyframes: TimeBounds = { min: 0, max: 0 };

/** Spec §8: a failed predictions fetch leaves the list empty (and is logged). */
function useDetections(videoId: string): Detection[] {
  const [detections, setDetections] = useState<Detection[]>([]);
  useEffect(() => {
    let current = true;
    getPredictions(videoId)
      .then((predictions) => {
        if (current) setDetections(toDetections(predictions));
      })
      .catch((error: unknown) => console.error('Failed to load predictions', error));
    return () => {
      current = false;
    };
  }, [videoId]);
  return detections;
}

/**
 * The keyframe image list, read once it is needed: from the path worker, which already holds the
 * keyframes file the path player downloaded, or, when no path loaded, from the file itself; none
 * when the video names no file (its own has not arrived, nothing analysed yet; or no
 * `path.keyframesData`).
 * Spec §8: a failed fetch leaves the list empty (and is logged).
 */
function useKeyframeImages(videoId: string, namesFile: boolean) {
  const [images, setImages] = useState<KeyframeImage[] | null>(null);
  const loading = useRef<Promise<KeyframeImage[]> | null>(null);
  const fromPathWorker = useRef<(() => Promise<string[]>) | null>(null);
  const load = useCallback(() => {
    const fromFile = () => (namesFile ? getKeyframeNames(videoId) : Promise.resolve<string[]>([]));
    loading.current ??= (fromPathWorker.current?.() ?? fromFile())
      .then(toKeyframeImages)
      .catch((error: unknown) => {
        console.error('Failed to load the keyframe image list', error);
        return [];
      })
      .then((list) => {
        setImages(list);
        return list;
      });
    return loading.current;
  }, [videoId, namesFile]);
  return { images, load, fromPathWorker };
}

/**
 * Everything about the selected video: the player, the path player, the time slider, the
 * detections and both modals, plus the keyboard shortcuts. Nothing here renders as the time moves:
 * the slider, the time texts and the path player follow the clock outside React.
 */
export function VideoWorkspace({
  video,
  clock,
  qrScannedTags,
  pathMissingReason,
  recordedChecklist,
  detectionNote,
}: VideoWorkspaceProps) {
  const videoId = videoIdOf(video) ?? video.filename;
  const mediaRef = useRef<HTMLVideoElement>(null);
  // The player's range requests and the keyframe images go by the media cookie: kept fresh
  // while the workspace is open, however long the reviewer stays.
  useEffect(keepMediaCookieFresh, []);

  // Spec §4 time bounds: from the keyframes, the maximum replaced by the duration once known.
  const [keyframeBounds, setKeyframeBounds] = useState<TimeBounds>(noKeyframes);
  const [duration, setDuration] = useState(Number.NaN);
  const bounds = useMemo(() => applyDuration(keyframeBounds, duration), [keyframeBounds, duration]);
  const boundsRef = useLatest(bounds);
  useEffect(() => {
    clock.time = clampTime(clock.time, bounds);
  }, [clock, bounds]);
  const clamp = useCallback((time: number) => clampTime(time, boundsRef.current), [boundsRef]);
  // A file whose end even a seek could not find (media-sync.ts): the duration recorded with it.
  const recorded = videoDuration(video);
  const onDuration = useCallback(
    (seconds: number) =>
      setDuration(seconds === Number.POSITIVE_INFINITY && recorded ? recorded : seconds),
    [recorded],
  );

  const allDetections = useDetections(videoId);
  const [thresholdPercent, setThresholdPercent] = useState(0);
  const threshold = thresholdPercent / 100;
  const detections = useMemo(
    () => aboveThreshold(allDetections, threshold),
    [allDetections, threshold],
  );
  const keyframes = useKeyframeImages(videoId, namesKeyframesFile(video));
  const subfolder = keyframeSubfolder(video, allDetections);

  const [frame, setFrame] = useState<KeyframeFrame | null>(null);
  const [tag, setTag] = useState<PathTag | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [hovered, setHovered] = useState<Detection | null>(null);
  const selected = detections.find((detection) => detection.id === selectedId) ?? null;
  const highlightTime = hovered?.time ?? selected?.time ?? null;

  /** Moves the time, kept inside the bounds (a keyboard jump stops at the ends). */
  const seek = useCallback(
    (time: number) => {
      const { min, max } = boundsRef.current;
      clock.time = Math.min(Math.max(time, min), max);
    },
    [clock, boundsRef],
  );

  const openDetection = useCallback(
    (detection: Detection) => {
      setSelectedId(detection.id);
      seek(detection.time);
      setFrame({ time: detection.time, name: detection.filename, subfolder: detection.subfolder });
    },
    [seek],
  );

  const seekToDetection = useCallback(
    (detection: Detection) => {
      setSelectedId(detection.id);
      seek(detection.time);
    },
    [seek],
  );

  const openKeyframeAt = useCallback(
    async (time: number) => {
      const image = nearestImage(await keyframes.load(), time);
      setFrame({ time: image?.time ?? time, name: image?.name ?? null, subfolder });
    },
    [keyframes.load, subfolder],
  );

  const onKeyframeClick = useCallback(
    (point: { time: number; index: number }) => void openKeyframeAt(point.time),
    [openKeyframeAt],
  );
  const onLoaded = useCallback(
    (info: PathLoadInfo | null) => {
      setKeyframeBounds(info ?? noKeyframes);
      keyframes.fromPathWorker.current = info?.keyframeImageNames ?? null;
      void keyframes.load();
    },
    [keyframes.load, keyframes.fromPathWorker],
  );

  const togglePlay = useCallback(() => {
    const media = mediaRef.current;
    if (!media) return;
    if (media.paused) requestPlay(media);
    else media.pause();
  }, []);

  // Shortcut handlers read the latest state through a ref: the listener is registered once.
  const latest = useLatest({ detections, frame, subfolder });
  const run = useCallback(
    async (action: VideoShortcutAction) => {
      const media = mediaRef.current;
      const state = latest.current;
      switch (action) {
        case 'togglePlay':
          togglePlay();
          return;
        case 'pause':
          media?.pause();
          return;
        case 'play':
          if (media?.paused) requestPlay(media);
          else clock.rate = stepRate(clock.rate, 1);
          return;
        case 'slower':
        case 'faster':
          clock.rate = stepRate(clock.rate, action === 'faster' ? 1 : -1);
          return;
        case 'back':
          seek(clock.time - backJumpSeconds);
          return;
        case 'previousKeyframe':
        case 'nextKeyframe': {
          const from = clock.time;
          const image = adjacentImage(
            await keyframes.load(),
            from,
            action === 'nextKeyframe' ? 1 : -1,
          );
          if (!image) return;
          seek(image.time);
          if (state.frame) {
            setFrame({ time: image.time, name: image.name, subfolder: state.subfolder });
          }
          return;
        }
        case 'nextDetection':
        case 'previousDetection': {
          const detection = adjacentDetection(
            state.detections,
            clock.time,
            action === 'nextDetection' ? 1 : -1,
          );
          if (!detection) return;
          if (state.frame) openDetection(detection);
          else seekToDetection(detection);
          for (const item of document.querySelectorAll(`[data-detection-id="${detection.id}"]`)) {
            item.scrollIntoView({ block: 'nearest' });
          }
          return;
        }
      }
    },
    [clock, latest, seek, togglePlay, keyframes.load, openDetection, seekToDetection],
  );

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const action = shortcutFor(event);
      // An open keyframe modal holds the focus (Radix traps it there) and follows the keys.
      const within = latest.current.frame ? '[role="dialog"]' : VIDEO_WORKSPACE_SELECTOR;
      if (!action || !shortcutAllowed(event.target, within)) return;
      event.preventDefault();
      void run(action);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [run, latest]);

  const closeFrame = useCallback(() => setFrame(null), []);
  const closeTag = useCallback(() => setTag(null), []);

  return (
    <>
      <div className="va-main">
        <div className="va-media">
          <VideoPlayer
            video={video}
            clock={clock}
            mediaRef={mediaRef}
            clamp={clamp}
            onDuration={onDuration}
          />
          <PathPlayer
            video={video}
            clock={clock}
            highlightTime={highlightTime}
            onKeyframeClick={onKeyframeClick}
            onTagClick={setTag}
            onLoaded={onLoaded}
            qrScannedTags={qrScannedTags}
            pathMissingReason={pathMissingReason}
            recordedChecklist={recordedChecklist}
          />
        </div>
        <TimeSlider
          clock={clock}
          bounds={bounds}
          detections={detections}
          onTogglePlay={togglePlay}
          onSeekToDetection={seekToDetection}
        />
        <CurrentKeyframe clock={clock} images={keyframes.images} />
        <label className="va-threshold">
          <span>{s.confidenceThreshold}</span>
          <input
            type="range"
            min={0}
            max={100}
            step={5}
            value={thresholdPercent}
            onChange={(event) => setThresholdPercent(Number(event.target.value))}
          />
          <output>{thresholdPercent}%</output>
        </label>
        <DetectionsList
          title={s.detections}
          detections={detections}
          selectedId={selectedId}
          onOpen={openDetection}
          onHover={setHovered}
          emptyNote={allDetections.length === 0 ? detectionNote : null}
        />
      </div>
      {allDetections.length > 0 && (
        <aside className="va-right" aria-label={s.detectionsSidebar}>
          <DetectionsList
            copy
            title={s.detections}
            detections={detections}
            selectedId={selectedId}
            onOpen={openDetection}
            onHover={setHovered}
          />
        </aside>
      )}
      <KeyframeModal
        frame={frame}
        detection={frame ? detectionAt(allDetections, frame.time) : null}
        threshold={threshold}
        images={keyframes.images}
        onClose={closeFrame}
      />
      <TagDetailsModal tag={tag} onClose={closeTag} />
    </>
  );
}

interface CurrentKeyframeProps {
  clock: PlaybackClock;
  images: readonly KeyframeImage[] | null;
}

/**
 * The keyframe image being shown at the current time. Its text is written when the image changes,
 * from the clock without React (a drag through dense images would otherwise render every frame).
 */
function CurrentKeyframe({ clock, images }: CurrentKeyframeProps) {
  const text = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    let shown: number | null = null;
    return watchClock(clock, 'time', (time) => {
      const index = images ? currentImageIndex(images, time) : -1;
      if (index === shown || !text.current) return;
      shown = index;
      const image = images?.[index];
      setLiveText(
        text.current,
        image && images
          ? `${index + 1} of ${images.length}, at ${formatSeconds(image.time)} (${image.name})`
          : '—',
      );
    });
  }, [clock, images]);
  return (
    <p className="va-current-keyframe">
      {s.keyframeImage}: <span ref={text} />
    </p>
  );
}
