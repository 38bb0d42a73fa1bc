import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { AppDialog } from '../../components/app-dialog.tsx';
import { Field } from '../../components/field.tsx';
import {
  ENTRY_KEYS,
  ENTRY_MAX,
  type EntryKey,
  entryLabels,
  entryProblem,
  NOTES_MAX,
  notesProblem,
  type RecordingEntries,
} from '../../lib/capture/recording-entries.ts';
import { correctRecording, type RecordingSummary } from '../../lib/capture/upload-queue.ts';
import { errorText } from '../../lib/error-text.ts';
import { lengthHint, overLimit } from '../../lib/text-rules.ts';
import { toastError, toastSuccess } from '../../stores/toasts.ts';
import { operatorStrings as s } from './strings.ts';

type Key = EntryKey | 'notes';
const KEYS: readonly Key[] = [...ENTRY_KEYS, 'notes'];

/**
 * Corrects what was typed about a recording the server has not accepted yet (a submit refused for
 * a field), then uploads it again: the video, scans and motion stay as recorded. Each field keeps
 * the server's limits, as the inspection screen does.
 */
export function CorrectRecordingDialog({
  recording,
  onClose,
}: {
  recording: RecordingSummary;
  onClose: () => void;
}) {
  const [entries, setEntries] = useState<RecordingEntries>(() => ({
    productLeaving: recording.productLeaving,
    batchLeaving: recording.batchLeaving,
    productComing: recording.productComing,
    batchComing: recording.batchComing,
    notes: recording.notes,
  }));
  // Problems show at once: the operator came here because something was refused.
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const controls = useRef<Partial<Record<Key, HTMLInputElement | HTMLTextAreaElement | null>>>({});
  const problemOf = (key: Key) =>
    key === 'notes' ? notesProblem(entries.notes) : entryProblem(key, entries[key]);
  const set = (key: Key, value: string) => setEntries((old) => ({ ...old, [key]: value }));

  const save = async () => {
    const first = KEYS.find((key) => problemOf(key));
    if (first) {
      flushSync(() => setTried(true));
      controls.current[first]?.focus();
      return;
    }
    setBusy(true);
    try {
      await correctRecording(recording.id, {
        productLeaving: entries.productLeaving.trim(),
        batchLeaving: entries.batchLeaving.trim(),
        productComing: entries.productComing.trim(),
        batchComing: entries.batchComing.trim(),
        notes: entries.notes.trim(),
      });
      toastSuccess(s.corrected);
      onClose();
    } catch (error) {
      toastError(`${s.correctFailed}: ${errorText(error)}`);
      setBusy(false);
    }
  };

  return (
    <AppDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`${s.correct}: ${recording.lineName}`}
      width="500px"
    >
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        {recording.error && <p className="capture-problem">{recording.error}</p>}
        {KEYS.map((key) => {
          const problem = problemOf(key);
          const max = key === 'notes' ? NOTES_MAX : ENTRY_MAX;
          const error = tried || recording.error || overLimit(entries[key], max) ? problem : null;
          const ref = (control: HTMLInputElement | HTMLTextAreaElement | null) => {
            controls.current[key] = control;
          };
          const onChange = (event: { target: { value: string } }) => set(key, event.target.value);
          return key === 'notes' ? (
            <Field
              key={key}
              label={entryLabels.notes}
              hint={lengthHint(entries.notes, max, true)}
              error={error}
            >
              <textarea ref={ref} rows={4} value={entries.notes} onChange={onChange} />
            </Field>
          ) : (
            <Field
              key={key}
              label={entryLabels[key]}
              required
              hint={lengthHint(entries[key], max)}
              error={error}
            >
              <input ref={ref} type="text" value={entries[key]} onChange={onChange} />
            </Field>
          );
        })}
        <button type="submit" className="btn btn-primary btn-large" disabled={busy}>
          {s.saveAndUpload}
        </button>
      </form>
    </AppDialog>
  );
}
