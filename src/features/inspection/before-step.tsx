import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Field } from '../../components/field.tsx';
import {
  ENTRY_KEYS,
  ENTRY_MAX,
  type EntryKey,
  entryProblem,
} from '../../lib/capture/recording-entries.ts';
import { lengthHint, overLimit } from '../../lib/text-rules.ts';
import type { Device, MyLineDetail } from '../../types/api.ts';
import { inspectionStrings as s } from './strings.ts';

export interface BeforeEntries {
  productLeaving: string;
  batchLeaving: string;
  productComing: string;
  batchComing: string;
  deviceId: string | null;
}

export const emptyEntries: BeforeEntries = {
  productLeaving: '',
  batchLeaving: '',
  productComing: '',
  batchComing: '',
  deviceId: null,
};

/**
 * Step 1: product and batch (required, at most 200 characters each, as the server takes them) and
 * the device. A start with a field the server would refuse (blank: only spaces or invisible
 * characters; too long) marks each under it and moves focus to the first: no toast, which on a
 * phone would cover the Start button. `initial` brings back what was typed when the operator comes
 * back from step 2.
 */
export function BeforeStep({
  detail,
  devices,
  initial = emptyEntries,
  onStart,
}: {
  detail: MyLineDetail;
  devices: readonly Device[];
  initial?: BeforeEntries;
  onStart: (entries: BeforeEntries) => void;
}) {
  const [entries, setEntries] = useState<BeforeEntries>(initial);
  // Errors show once a start was tried (a field too long at once), and go as each field is fixed.
  const [checked, setChecked] = useState(false);
  const inputs = useRef<Partial<Record<EntryKey, HTMLInputElement | null>>>({});
  const set = (key: keyof BeforeEntries) => (value: string) =>
    setEntries((old) => ({ ...old, [key]: value }));
  const problems = Object.fromEntries(
    ENTRY_KEYS.map((key) => [key, entryProblem(key, entries[key])]),
  ) as Record<EntryKey, string | null>;
  const { tags, hotZones, floorplanConfigId } = detail.checklist;

  const start = () => {
    const first = ENTRY_KEYS.find((key) => problems[key]);
    if (first) {
      // Rendered first, so the focused field already names its error to a screen reader.
      flushSync(() => setChecked(true));
      inputs.current[first]?.focus();
      return;
    }
    onStart(entries);
  };

  return (
    <form
      className="form capture-step"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        start();
      }}
    >
      <div className="capture-fields">
        {ENTRY_KEYS.map((key) => (
          <Field
            key={key}
            label={s[key]}
            required
            hint={lengthHint(entries[key], ENTRY_MAX)}
            error={checked || overLimit(entries[key], ENTRY_MAX) ? problems[key] : null}
          >
            <input
              ref={(input) => {
                inputs.current[key] = input;
              }}
              type="text"
              value={entries[key]}
              onChange={(event) => set(key)(event.target.value)}
            />
          </Field>
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
