import {
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type RefObject,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { calibratorStrings as s } from '../strings.ts';
import { type Calibration, type ItemKind, itemsOf, type PointKind } from './calibration.ts';
import {
  arrowDelta,
  type ClientPoint,
  centreOf,
  clampToDisplay,
  clientPoint,
  type DisplayPoint,
  displayPoint,
  isHotZoneLargeEnough,
  keyboardBigStep,
  keyboardStep,
  type Rect,
  rectFromCorners,
  type Size,
  toDisplayPoint,
} from './geometry.ts';
import { drawCalibrator } from './renderer.ts';

export interface MoveOptions {
  /** Where a drag started: the move is measured from there. */
  origin?: { x: number; y: number };
  /** Tell screen readers where the item ended up (keyboard moves, the end of a drag). */
  announce: boolean;
}

export interface PlacementSurfaceProps {
  surfaceRef: RefObject<HTMLDivElement | null>;
  display: Size;
  image: ImageBitmap;
  calibration: Calibration;
  mode: ItemKind | null;
  readOnly: boolean;
  selectedKey: string | null;
  onSelect: (key: string | null) => void;
  onPlace: (kind: PointKind, point: DisplayPoint) => void;
  onZone: (rect: Rect) => void;
  onCornerSet: (point: DisplayPoint) => void;
  /** The keyboard's cross came to rest here (said in the status line). */
  onCrossMoved: (point: DisplayPoint) => void;
  onMove: (
    kind: ItemKind,
    key: string,
    delta: { dx: number; dy: number },
    options: MoveOptions,
  ) => void;
  onRemove: (kind: ItemKind, key: string) => void;
  onCancelMode: () => void;
}

interface Drag {
  pointerId: number;
  start: ClientPoint;
  kind: ItemKind;
  key: string;
  origin: { x: number; y: number };
  delta: { dx: number; dy: number };
}

const percent = (value: number, total: number) => `${(value / total) * 100}%`;

/**
 * How long the cross rests before its position is said: a held arrow key moves it about 30 times
 * a second, and a screen reader told each step would still be reading out old positions.
 */
export const crossAnnounceDelay = 500;

/**
 * The floor plan with its overlay: a canvas drawn by `drawCalibrator`, and one focusable button
 * per placed item over it, so items can be reached with Tab, moved with the arrow keys and
 * removed with Delete. In a placing mode a click places (a drag draws a hot zone); the keyboard
 * moves a cross and Enter places, so nothing needs a mouse.
 */
export function PlacementSurface(props: PlacementSurfaceProps) {
  const { surfaceRef, display, image, calibration, mode, readOnly, selectedKey } = props;
  const helpId = useId();
  const itemHelpId = useId();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [cursor, setCursor] = useState<DisplayPoint | null>(null);
  const [keyboardUsed, setKeyboardUsed] = useState(false);
  const [corner, setCorner] = useState<DisplayPoint | null>(null);
  const [zoneStart, setZoneStart] = useState<DisplayPoint | null>(null);
  const [draft, setDraft] = useState<Rect | null>(null);
  const drag = useRef<Drag | null>(null);
  const crossTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(crossTimer.current), []);

  // A placing mode starts with the cross in the middle and the keyboard on the plan.
  useEffect(() => {
    clearTimeout(crossTimer.current);
    setCorner(null);
    setDraft(null);
    setZoneStart(null);
    if (!mode) {
      setCursor(null);
      return;
    }
    setCursor(centreOf(display));
    surfaceRef.current?.focus();
  }, [mode, display, surfaceRef]);

  const shownCursor = mode && keyboardUsed ? cursor : null;
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const ratio = window.devicePixelRatio || 1;
    const pixelWidth = Math.round(display.width * ratio);
    const pixelHeight = Math.round(display.height * ratio);
    if (canvas.width !== pixelWidth) canvas.width = pixelWidth;
    if (canvas.height !== pixelHeight) canvas.height = pixelHeight;
    const frame = requestAnimationFrame(() => {
      const context = canvas.getContext('2d');
      if (!context) return;
      drawCalibrator(
        context,
        {
          image,
          display,
          tags: calibration.tags,
          hotZones: calibration.hotZones,
          cameras: calibration.cameras,
          selectedKey,
          draft: draft && { rect: draft, valid: isHotZoneLargeEnough(draft) },
          cursor: shownCursor,
          corner,
        },
        ratio,
      );
    });
    return () => cancelAnimationFrame(frame);
  }, [image, display, calibration, selectedKey, draft, shownCursor, corner]);

  /** Where a pointer event is, in display pixels on the plan, and the plan's drawn size. */
  const locate = (event: { clientX: number; clientY: number }) => {
    const box = surfaceRef.current?.getBoundingClientRect();
    if (!box || box.width === 0 || box.height === 0) return null;
    const drawn = { width: box.width, height: box.height };
    const client = clientPoint(event.clientX - box.left, event.clientY - box.top);
    return {
      point: clampToDisplay(toDisplayPoint(client, drawn, display), display),
      client,
      drawn,
    };
  };

  const onSurfacePointerDown = (event: PointerEvent<HTMLDivElement>) => {
    setKeyboardUsed(false);
    if (mode !== 'hotZone' || event.button !== 0) return;
    const at = locate(event);
    if (!at) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    setZoneStart(at.point);
    setDraft(rectFromCorners(at.point, at.point, display));
  };

  const onSurfacePointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!zoneStart) return;
    const at = locate(event);
    if (at) setDraft(rectFromCorners(zoneStart, at.point, display));
  };

  const onSurfacePointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!zoneStart) return;
    const at = locate(event);
    setZoneStart(null);
    setDraft(null);
    if (at) props.onZone(rectFromCorners(zoneStart, at.point, display));
  };

  // The browser took the pointer over (a scroll, a system gesture): no zone is drawn.
  const onSurfacePointerCancel = () => {
    setZoneStart(null);
    setDraft(null);
  };

  const onSurfaceClick = (event: MouseEvent<HTMLDivElement>) => {
    if (mode !== 'tag' && mode !== 'camera') return;
    const at = locate(event);
    if (at) props.onPlace(mode, at.point);
  };

  const onSurfaceKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget || !mode) return;
    // A key pressed right after the mode started may come before the render that set the cross:
    // it starts from the middle, where that render puts it, instead of being lost.
    const at = cursor ?? centreOf(display);
    setKeyboardUsed(true);
    // Any key supersedes a position not yet said: a new one, or what Enter or Escape says.
    clearTimeout(crossTimer.current);
    const delta = arrowDelta(event.key, event.shiftKey ? keyboardBigStep : keyboardStep);
    if (delta) {
      event.preventDefault();
      const next = clampToDisplay(displayPoint(at.x + delta.dx, at.y + delta.dy), display);
      setCursor(next);
      crossTimer.current = setTimeout(() => props.onCrossMoved(next), crossAnnounceDelay);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (mode !== 'hotZone') {
        props.onPlace(mode, at);
      } else if (!corner) {
        setCorner(at);
        props.onCornerSet(at);
      } else {
        props.onZone(rectFromCorners(corner, at, display));
        setCorner(null);
      }
    } else if (event.key === 'Escape') {
      event.preventDefault();
      if (corner) setCorner(null);
      else props.onCancelMode();
    }
  };

  const itemHandlers = (kind: ItemKind, key: string, origin: { x: number; y: number }) => ({
    onFocus: () => props.onSelect(key),
    onBlur: () => props.onSelect(null),
    onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
      const delta = arrowDelta(event.key, event.shiftKey ? keyboardBigStep : keyboardStep);
      if (delta) {
        event.preventDefault();
        event.stopPropagation();
        props.onMove(kind, key, delta, { announce: true });
      } else if (event.key === 'Delete' || event.key === 'Backspace') {
        event.preventDefault();
        event.stopPropagation();
        props.onRemove(kind, key);
      }
    },
    onPointerDown: (event: PointerEvent<HTMLButtonElement>) => {
      if (mode || event.button !== 0) return;
      const at = locate(event);
      if (!at) return;
      event.currentTarget.setPointerCapture(event.pointerId);
      drag.current = {
        pointerId: event.pointerId,
        start: at.client,
        kind,
        key,
        origin,
        delta: { dx: 0, dy: 0 },
      };
    },
    onPointerMove: (event: PointerEvent<HTMLButtonElement>) => {
      const current = drag.current;
      if (!current || current.pointerId !== event.pointerId) return;
      const at = locate(event);
      if (!at) return;
      current.delta = {
        dx: ((at.client.x - current.start.x) * display.width) / at.drawn.width,
        dy: ((at.client.y - current.start.y) * display.height) / at.drawn.height,
      };
      props.onMove(kind, key, current.delta, { origin: current.origin, announce: false });
    },
    onPointerCancel: () => {
      drag.current = null;
    },
    onPointerUp: (event: PointerEvent<HTMLButtonElement>) => {
      const current = drag.current;
      if (!current || current.pointerId !== event.pointerId) return;
      drag.current = null;
      if (current.delta.dx !== 0 || current.delta.dy !== 0) {
        props.onMove(kind, key, current.delta, { origin: current.origin, announce: true });
      }
    },
  });

  const itemLabel = (kind: ItemKind, name: string, x: number, y: number) =>
    `${name}, ${s.kind[kind].toLowerCase()} at ${s.at(x, y)}`;

  return (
    <div
      ref={surfaceRef}
      className={`calibrator-surface${mode ? ' placing' : ''}${readOnly ? ' read-only' : ''}`}
      style={{
        maxWidth: `${display.width}px`,
        aspectRatio: `${display.width} / ${display.height}`,
      }}
      role="application"
      aria-label={s.surface}
      aria-describedby={readOnly ? undefined : helpId}
      tabIndex={readOnly ? undefined : 0}
      onKeyDown={onSurfaceKeyDown}
      onPointerDown={onSurfacePointerDown}
      onPointerMove={onSurfacePointerMove}
      onPointerUp={onSurfacePointerUp}
      onPointerCancel={onSurfacePointerCancel}
      onClick={onSurfaceClick}
    >
      <canvas ref={canvasRef} className="calibrator-canvas" />
      {!readOnly && (
        <>
          <p id={helpId} className="visually-hidden">
            {s.surfaceHelp}
          </p>
          <p id={itemHelpId} className="visually-hidden">
            {s.itemHelp}
          </p>
          {itemsOf(calibration, 'hotZone').map(({ key, value }) => (
            <button
              key={key}
              type="button"
              className="calibrator-item calibrator-zone"
              style={{
                left: percent(value.x, display.width),
                top: percent(value.y, display.height),
                width: percent(value.width, display.width),
                height: percent(value.height, display.height),
              }}
              aria-label={itemLabel('hotZone', value.name, value.x, value.y)}
              aria-describedby={itemHelpId}
              {...itemHandlers('hotZone', key, value)}
            />
          ))}
          {(['camera', 'tag'] as const).flatMap((kind) =>
            itemsOf(calibration, kind).map(({ key, value }) => (
              <button
                key={key}
                type="button"
                className="calibrator-item calibrator-point"
                style={{
                  left: percent(value.x, display.width),
                  top: percent(value.y, display.height),
                }}
                aria-label={itemLabel(kind, value.name, value.x, value.y)}
                aria-describedby={itemHelpId}
                {...itemHandlers(kind, key, value)}
              />
            )),
          )}
        </>
      )}
    </div>
  );
}
