import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import { setLiveText } from '../../lib/live-text.ts';
import type { TimeBounds } from '../../lib/path-client.ts';
import { type Detection, detectionSummary } from './detections.ts';
import { formatSeconds, type PlaybackClock, useClockField, watchClock } from './playback-clock.ts';
import { videoStrings as s } from './strings.ts';

export interface TimeSliderProps {
  clock: PlaybackClock;
  bounds: TimeBounds;
  /** Detections to mark on the track (already filtered by the confidence threshold). */
  detections: readonly Detection[];
  onTogglePlay(): void;
  onSeekToDetection(detection: Detection): void;
}

/** Spec §9 slider step: 0.01 s. */
export const sliderStep = 0.01;
/** Shift+arrow: a whole second (an arrow's 0.01 s took 3,800 presses to cross a 38 s video). */
const SHIFT_STEP_SECONDS = 1;
const shiftSteps: Record<string, number> = {
  ArrowRight: 1,
  ArrowUp: 1,
  ArrowLeft: -1,
  ArrowDown: -1,
};

/** The longer of the bounds' time texts (digits are tabular: no time between them is wider). */
function longestTime(bounds: TimeBounds): string {
  const [min, max] = [formatSeconds(bounds.min), formatSeconds(bounds.max)];
  return min.length > max.length ? min : max;
}

/** Where a time sits along the track, in percent. */
export function trackPosition(time: number, bounds: TimeBounds): number {
  const span = bounds.max - bounds.min;
  if (!(span > 0)) return 0;
  return Math.min(Math.max(((time - bounds.min) / span) * 100, 0), 100);
}

/**
 * Spec §2/§4 slider: step 0.01 s, disabled while playing, 'Playing…' while playing, time with 2
 * decimals. Dragging sets `seeking` (and stops playback) until the pointer is released.
 * React renders it when playback starts or stops, the rate or the bounds change; the time itself
 * (the slider's value, its spoken value and the time text) follows the clock by direct DOM writes,
 * so a drag or playback tick renders nothing (docs/video-analysis.md).
 */
export function TimeSlider({
  clock,
  bounds,
  detections,
  onTogglePlay,
  onSeekToDetection,
}: TimeSliderProps) {
  const playing = useClockField(clock, 'playing');
  const rate = useClockField(clock, 'rate');
  const slider = useRef<HTMLInputElement>(null);
  const timeText = useRef<HTMLSpanElement>(null);
  const endDrag = useRef<(() => void) | null>(null);
  useEffect(() => () => endDrag.current?.(), []);

  // Before paint, and again after new bounds (the browser re-clamps the value to a new min/max).
  useLayoutEffect(
    () =>
      watchClock(clock, 'time', (time) => {
        const input = slider.current;
        if (input) {
          input.value = String(Math.min(Math.max(time, bounds.min), bounds.max));
          input.setAttribute('aria-valuetext', `${time.toFixed(2)} seconds`);
        }
        if (timeText.current) setLiveText(timeText.current, formatSeconds(time));
      }),
    [clock, bounds],
  );

  const startDrag = () => {
    // Chromium sends pointerdown to a disabled input: while playing the slider does nothing.
    if (clock.playing) return;
    clock.seeking = true;
    clock.playing = false;
    const end = () => {
      clock.seeking = false;
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      endDrag.current = null;
    };
    endDrag.current?.();
    endDrag.current = end;
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
  };

  return (
    <section className="va-transport" aria-label="Playback">
      <div className="va-transport-row">
        <button type="button" className="btn btn-primary va-play" onClick={onTogglePlay}>
          {playing ? s.pause : s.play}
        </button>
        <div className="va-track">
          {/* Uncontrolled: the value is written from the clock above, not rendered. */}
          <input
            ref={slider}
            type="range"
            className="va-slider"
            aria-label={s.time}
            min={bounds.min}
            max={bounds.max}
            step={sliderStep}
            disabled={playing}
            onPointerDown={startDrag}
            onKeyDown={(event) => {
              const direction = event.shiftKey ? shiftSteps[event.key] : undefined;
              if (direction === undefined) return;
              event.preventDefault();
              const time = clock.time + direction * SHIFT_STEP_SECONDS;
              clock.time = Math.min(Math.max(time, bounds.min), bounds.max);
            }}
            onChange={(event) => {
              clock.time = Number(event.target.value);
            }}
          />
          <DetectionMarkers detections={detections} bounds={bounds} onSeek={onSeekToDetection} />
        </div>
        {/* Filled from the clock (see above); React renders no text into it. */}
        {/* data-longest sizes the box (an invisible ::before) for the longest time in the bounds. */}
        <output className="va-time" aria-live="off" data-longest={longestTime(bounds)}>
          <span ref={timeText} className="va-time-text" />
        </output>
      </div>
      <p className="va-transport-status">
        {playing && <span className="va-playing">{s.playing}</span>}
        <span>
          {s.bounds}: {formatSeconds(bounds.min)} – {formatSeconds(bounds.max)}
        </span>
        <span>
          {s.speed}: {rate}×
        </span>
      </p>
    </section>
  );
}

interface DetectionMarkersProps {
  detections: readonly Detection[];
  bounds: TimeBounds;
  onSeek(detection: Detection): void;
}

/**
 * Detection markers on the slider track (beyond the spec); a click seeks there. Kept out of the
 * tab order: the Detections list and N / P reach the same detections by keyboard.
 */
const DetectionMarkers = memo(function DetectionMarkers({
  detections,
  bounds,
  onSeek,
}: DetectionMarkersProps) {
  if (detections.length === 0) return null;
  return (
    <div className="va-markers">
      {detections.map((detection) => {
        const { label, confidence } = detectionSummary(detection);
        return (
          <button
            key={detection.id}
            type="button"
            tabIndex={-1}
            className="va-marker"
            style={{ left: `${trackPosition(detection.time, bounds)}%` }}
            aria-label={`Go to detection at ${formatSeconds(detection.time)}: ${label} ${confidence}`}
            title={`${detection.stamp} s: ${label} ${confidence}`}
            onClick={() => onSeek(detection)}
          />
        );
      })}
    </div>
  );
});
