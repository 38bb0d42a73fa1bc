import { useEffect, useEffectEvent, useId, useMemo, useRef, useState } from 'react';
import { useConfirm } from '../../../components/confirm-dialog.tsx';
import { toastWarning } from '../../../stores/toasts.ts';
import type { Floorplan, FloorplanConfiguration } from '../../../types/api.ts';
import { calibratorStrings as s } from '../strings.ts';
import {
  addHotZone,
  type Calibration,
  calibrationFrom,
  clearItems,
  findItem,
  type ItemKind,
  moveItem,
  type PointKind,
  parsePixelsPerMeter,
  placePoint,
  removeItem,
  toConfiguration,
  updateItem,
} from './calibration.ts';
import './calibrator.css';
import { CoordinateSystemSection } from './coordinate-system-section.tsx';
import {
  type DisplayPoint,
  defaultDisplaySize,
  fitDisplaySize,
  type Rect,
  type Size,
} from './geometry.ts';
import { ItemDialog } from './item-dialog.tsx';
import { ItemLists } from './item-lists.tsx';
import { type MoveOptions, PlacementSurface } from './placement-surface.tsx';
import { useFloorplanImage } from './use-floorplan-image.ts';

export interface CalibratorProps {
  floorplan: Floorplan;
  /** Where editing starts: the configuration being worked on, or the saved one, or none. */
  initial: FloorplanConfiguration | null;
  /** What 'Reset Configuration' goes back to: the line's saved configuration (none: empty). */
  saved: FloorplanConfiguration | null;
  readOnly: boolean;
  /** The line clearance's name, the start of a new tag's QR code. */
  lineName: string;
  /**
   * Spec §4: called with the whole configuration once the calibrator is ready (the image loaded
   * and the display frame known) and again after every change.
   */
  onChange: (configuration: FloorplanConfiguration) => void;
}

const modes: readonly { kind: ItemKind; add: string; cancel: string }[] = [
  { kind: 'tag', add: s.addTag, cancel: s.cancelTag },
  { kind: 'hotZone', add: s.addHotZone, cancel: s.cancelHotZone },
  { kind: 'camera', add: s.addCamera, cancel: s.cancelCamera },
];

/** Spec §2 calibrator: the floor plan (loaded, or 'Failed to load floorplan image' with Retry). */
export function Calibrator(props: CalibratorProps) {
  const { image, retry } = useFloorplanImage(props.floorplan.imagePath);
  if (image.status === 'loading') {
    // Spec §9: the default display, 800 × 800, until the image tells its proportions.
    return (
      <p
        className="muted calibrator-placeholder"
        role="status"
        style={{
          maxWidth: `${defaultDisplaySize.width}px`,
          aspectRatio: `${defaultDisplaySize.width} / ${defaultDisplaySize.height}`,
        }}
      >
        {s.loadingImage}
      </p>
    );
  }
  if (image.status === 'failed') {
    return (
      <div className="card calibrator-failure" role="alert">
        <p>{s.imageFailed}</p>
        <button type="button" className="btn btn-primary" onClick={retry}>
          {s.retry}
        </button>
      </div>
    );
  }
  return <CalibratorEditor {...props} bitmap={image.bitmap} source={image.size} />;
}

interface EditorProps extends CalibratorProps {
  bitmap: ImageBitmap;
  source: Size;
}

function CalibratorEditor({
  floorplan,
  initial,
  saved,
  readOnly,
  lineName,
  bitmap,
  source,
  ...props
}: EditorProps) {
  const regionId = useId();
  const surfaceRef = useRef<HTMLDivElement>(null);
  const display = useMemo(() => fitDisplaySize(source), [source]);
  const [base, setBase] = useState(initial);
  const [calibration, setCalibration] = useState<Calibration>(() =>
    calibrationFrom(initial, display),
  );
  const [pixelsPerMeterText, setPixelsPerMeterText] = useState(() =>
    String(calibration.pixelsPerMeter),
  );
  const [mode, setMode] = useState<ItemKind | null>(null);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ kind: ItemKind; key: string } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const confirm = useConfirm();

  // The parent's callback may change every render; the configuration is sent only when it changes.
  const emit = useEffectEvent(props.onChange);
  useEffect(() => {
    emit(
      toConfiguration(calibration, {
        base,
        floorplanImage: floorplan.imagePath,
        displaySize: display,
        sourceImage: source,
      }),
    );
  }, [calibration, base, floorplan.imagePath, display, source]);

  const place = (kind: PointKind, point: DisplayPoint) => {
    const placed = placePoint(calibration, kind, point, lineName);
    setCalibration(placed.calibration);
    let message = s.placed(placed.name, point.x, point.y);
    if (placed.nearby) {
      const warning = s.tooClose(placed.name, placed.nearby.name, placed.nearby.distance);
      toastWarning(warning);
      message = `${message}. ${warning}`;
    }
    setAnnouncement(message);
  };

  const placeZone = (rect: Rect) => {
    const added = addHotZone(calibration, rect);
    if (!added) {
      setAnnouncement(s.tooSmall);
      return;
    }
    setCalibration(added.calibration);
    setAnnouncement(s.placed(added.name, rect.x, rect.y));
  };

  const move = (
    kind: ItemKind,
    key: string,
    delta: { dx: number; dy: number },
    options: MoveOptions,
  ) => {
    const next = moveItem(calibration, kind, key, delta, display, options.origin);
    setCalibration(next);
    const item = findItem(next, kind, key);
    if (options.announce && item) setAnnouncement(s.moved(item.name, item.x, item.y));
  };

  const remove = (kind: ItemKind, key: string) => {
    const item = findItem(calibration, kind, key);
    if (!item) return;
    setCalibration(removeItem(calibration, kind, key));
    setAnnouncement(s.removed(item.name));
    // The removed item's button is gone: keep the keyboard on the plan rather than the page top.
    if (selectedKey === key) {
      setSelectedKey(null);
      surfaceRef.current?.focus();
    }
  };

  const clearAll = () =>
    confirm.ask(
      { title: s.clearAll, text: s.confirmClearAll, cancel: s.cancel, confirm: s.clearAll },
      () => setCalibration(clearItems),
    );

  const reset = () =>
    confirm.ask(
      {
        title: s.resetConfiguration,
        text: s.confirmReset,
        cancel: s.cancel,
        confirm: s.resetConfiguration,
      },
      () => {
        const restored = calibrationFrom(saved, display);
        setBase(saved);
        setCalibration(restored);
        setPixelsPerMeterText(String(restored.pixelsPerMeter));
        setMode(null);
      },
    );

  const typePixelsPerMeter = (text: string) => {
    setPixelsPerMeterText(text);
    const value = parsePixelsPerMeter(text);
    if (value !== null) setCalibration((current) => ({ ...current, pixelsPerMeter: value }));
  };

  const editedItem = editing && findItem(calibration, editing.kind, editing.key);

  return (
    <section className="calibrator" aria-labelledby={regionId}>
      <h3 id={regionId} className="visually-hidden">
        {s.region}
      </h3>
      {!readOnly && (
        <div className="actions calibrator-toolbar">
          {modes.map(({ kind, add, cancel }) => (
            <button
              key={kind}
              type="button"
              className={`btn ${mode === kind ? 'btn-primary' : 'btn-secondary'}`}
              onClick={() => setMode(mode === kind ? null : kind)}
            >
              {mode === kind ? cancel : add}
            </button>
          ))}
          <button type="button" className="btn btn-secondary" onClick={reset}>
            {s.resetConfiguration}
          </button>
        </div>
      )}
      <p className="calibrator-hint">{readOnly ? s.readOnlyHint : mode && s.modeHint[mode]}</p>
      <PlacementSurface
        surfaceRef={surfaceRef}
        display={display}
        image={bitmap}
        calibration={calibration}
        mode={mode}
        readOnly={readOnly}
        selectedKey={selectedKey}
        onSelect={setSelectedKey}
        onPlace={place}
        onZone={placeZone}
        onCornerSet={(point) => setAnnouncement(s.cornerSet(point.x, point.y))}
        onCrossMoved={(point) => setAnnouncement(s.crossAt(point.x, point.y))}
        onMove={move}
        onRemove={remove}
        onCancelMode={() => setMode(null)}
      />
      <p className="calibrator-status" role="status">
        {announcement}
      </p>
      <ItemLists
        calibration={calibration}
        readOnly={readOnly}
        onEdit={(kind, key) => setEditing({ kind, key })}
        onRemove={remove}
        onClearAll={clearAll}
      />
      <CoordinateSystemSection
        source={source}
        pixelsPerMeterText={pixelsPerMeterText}
        pixelsPerMeter={calibration.pixelsPerMeter}
        onPixelsPerMeterText={typePixelsPerMeter}
        invalid={parsePixelsPerMeter(pixelsPerMeterText) === null}
        readOnly={readOnly}
      />
      {editing && editedItem && (
        <ItemDialog
          kind={editing.kind}
          item={editedItem}
          display={display}
          onSave={(item) =>
            setCalibration(updateItem(calibration, editing.kind, editing.key, item))
          }
          onClose={() => setEditing(null)}
        />
      )}
      {confirm.dialog}
    </section>
  );
}
