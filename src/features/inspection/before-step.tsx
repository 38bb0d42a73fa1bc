import { useState } from 'react';
import { Field, TextField } from '../../components/field.tsx';
import { warnIfBlank } from '../../lib/run-action.ts';
import type { Device, MyLineDetail } from '../../types/api.ts';
import { inspectionStrings as s } from './strings.ts';

export interface BeforeEntries {
  productLeaving: string;
  batchLeaving: string;
  productComing: string;
  batchComing: string;
  deviceId: string | null;
}

const REQUIRED = ['productLeaving', 'batchLeaving', 'productComing', 'batchComing'] as const;

export function BeforeStep({
  detail,
  devices,
  onStart,
}: {
  detail: MyLineDetail;
  devices: readonly Device[];
  onStart: (entries: BeforeEntries) => void;
}) {
  const [entries, setEntries] = useState<BeforeEntries>({
    productLeaving: '',
    batchLeaving: '',
    productComing: '',
    batchComing: '',
    deviceId: null,
  });
  const set = (key: keyof BeforeEntries) => (value: string) =>
    setEntries((old) => ({ ...old, [key]: value }));
  const { tags, hotZones, floorplanConfigId } = detail.checklist;

  const start = () => {
    if (warnIfBlank(s.requiredWarning, ...REQUIRED.map((key) => entries[key]))) return;
    onStart(entries);
  };

  return (
    <form
      className="form capture-step"
      onSubmit={(event) => {
        event.preventDefault();
        start();
      }}
    >
      <div className="capture-fields">
        {REQUIRED.map((key) => (
          <TextField key={key} label={s[key]} value={entries[key]} onChange={set(key)} />
        ))}
        {devices.length > 0 && (
          <Field label={s.device}>
            <select
              value={entries.deviceId ?? ''}
              onChange={(event) => set('deviceId')(event.target.value)}
            >
              <option value="">{s.noDevice}</option>
              {devices.map((device) => (
                <option key={device._id} value={device._id}>
                  {device.name}
                </option>
              ))}
            </select>
          </Field>
        )}
      </div>
      {floorplanConfigId === null ? (
        <p className="capture-note">{s.noConfiguration}</p>
      ) : (
        <div className="capture-checklist">
          <section>
            <h2>{s.checkpoints}</h2>
            <ol>
              {tags.map((tag) => (
                <li key={tag.index}>
                  {tag.name}
                  {!tag.qrCode?.trim() && <span className="muted"> ({s.noQrCode})</span>}
                </li>
              ))}
            </ol>
          </section>
          {hotZones.length > 0 && (
            <section>
              <h2>{s.areas}</h2>
              <ul>
                {hotZones.map((zone) => (
                  <li key={zone.index}>
                    {zone.name}
                    {zone.importance && <span className="muted"> ({zone.importance})</span>}
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      )}
      <button type="submit" className="btn btn-primary btn-large">
        {s.startRecording}
      </button>
    </form>
  );
}
