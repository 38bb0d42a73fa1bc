import { type ReactNode, useState } from 'react';
import { Field, TextField } from '../../../components/field.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { Select } from '../../../components/select.tsx';
import { toastWarning } from '../../../stores/toasts.ts';
import type { Camera, HotZone, Tag } from '../../../types/api.ts';
import { calibratorStrings as s } from '../strings.ts';
import {
  type CameraType,
  cameraTypes,
  defaultCameraType,
  defaultImportance,
  type HotZoneImportance,
  hotZoneImportances,
  type ItemKind,
  type ItemTypes,
  itemProblem,
} from './calibration.ts';
import type { Size } from './geometry.ts';

const titles: Record<ItemKind, string> = {
  tag: s.editTag,
  hotZone: s.editHotZone,
  camera: s.editCamera,
};

const hexColor = /^#[0-9a-f]{6}$/i;

/** Sets an optional text field; an empty value is not added to an item that never had the field. */
function withText<T extends object>(item: T, field: string, value: string): T {
  if (value === '' && !(field in item)) return item;
  return { ...item, [field]: value };
}

function NumberField(props: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <Field label={props.label}>
      <input
        type="number"
        step="any"
        inputMode="decimal"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </Field>
  );
}

export interface ItemDialogProps<K extends ItemKind> {
  kind: K;
  item: ItemTypes[K];
  display: Size;
  onSave: (item: ItemTypes[K]) => void;
  onClose: () => void;
}

/**
 * Edit Tag / Edit Hot Zone / Edit Camera with every field of spec §3. Fields the dialog does not
 * show (a tag's id, type and status from the path view) are kept as they are.
 */
export function ItemDialog<K extends ItemKind>({
  kind,
  item,
  display,
  onSave,
  onClose,
}: ItemDialogProps<K>) {
  const zone = kind === 'hotZone' ? (item as HotZone) : null;
  const [name, setName] = useState(item.name);
  const [description, setDescription] = useState(item.description ?? '');
  const [color, setColor] = useState(item.color ?? '');
  const [x, setX] = useState(String(item.x));
  const [y, setY] = useState(String(item.y));
  const [width, setWidth] = useState(String(zone?.width ?? 0));
  const [height, setHeight] = useState(String(zone?.height ?? 0));
  const [qrCode, setQrCode] = useState((item as Tag).qrCode ?? '');
  const [importance, setImportance] = useState<HotZoneImportance>(
    zone?.importance ?? defaultImportance,
  );
  const [cameraType, setCameraType] = useState<CameraType>(
    (item as Camera).type ?? defaultCameraType,
  );

  // An empty number field becomes NaN, which the rules reject with the field's name.
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

  const edited = (): ItemTypes[K] => {
    let next: ItemTypes[K] = { ...item, name: name.trim(), x: number(x), y: number(y) };
    next = withText(next, 'description', description.trim());
    next = withText(next, 'color', color);
    if (kind === 'tag') next = withText(next, 'qrCode', qrCode.trim());
    if (kind === 'camera') next = { ...next, type: cameraType };
    if (kind === 'hotZone') {
      next = { ...next, width: number(width), height: number(height), importance };
    }
    return next;
  };

  const save = async () => {
    const next = edited();
    const problem = itemProblem(kind, next, display);
    if (problem) {
      toastWarning(problem);
      return false;
    }
    onSave(next);
    return true;
  };

  let kindFields: ReactNode = null;
  if (kind === 'tag') {
    kindFields = <TextField label={s.qrCode} value={qrCode} onChange={setQrCode} />;
  } else if (kind === 'camera') {
    kindFields = (
      <Field label={s.type}>
        <Select value={cameraType} options={cameraTypes} onChange={setCameraType} />
      </Field>
    );
  } else {
    kindFields = (
      <Field label={s.importance}>
        <Select value={importance} options={hotZoneImportances} onChange={setImportance} />
      </Field>
    );
  }

  return (
    <FormDialog title={titles[kind]} onSubmit={save} onClose={onClose}>
      <TextField label={s.name} value={name} onChange={setName} />
      {kindFields}
      <TextField label={s.description} value={description} onChange={setDescription} rows={3} />
      <Field label={s.color}>
        <input
          type="color"
          value={hexColor.test(color) ? color : '#000000'}
          onChange={(event) => setColor(event.target.value)}
        />
      </Field>
      <div className="field-row">
        <NumberField label={s.x} value={x} onChange={setX} />
        <NumberField label={s.y} value={y} onChange={setY} />
      </div>
      {zone && (
        <div className="field-row">
          <NumberField label={s.width} value={width} onChange={setWidth} />
          <NumberField label={s.height} value={height} onChange={setHeight} />
        </div>
      )}
    </FormDialog>
  );
}
