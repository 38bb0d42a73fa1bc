import { useState } from 'react';
import { TextField } from '../../components/field.tsx';
import { RecordField } from '../../components/record-card.tsx';
import type { LocalRecording } from '../../lib/capture/recording-db.ts';
import { formatDuration } from '../../lib/format-duration.ts';
import { formatSize } from '../../lib/format-size.ts';
import { scannableTags } from './checklist.ts';
import { inspectionStrings as s } from './strings.ts';

export function ReviewStep({
  recording,
  onSubmit,
  onDiscard,
}: {
  recording: LocalRecording;
  onSubmit: (notes: string) => Promise<void>;
  onDiscard: () => void;
}) {
  const [notes, setNotes] = useState(recording.notes);
  const [busy, setBusy] = useState(false);
  const checkpoints = scannableTags(recording.checklist);
  const scanned = new Set(
    recording.scans.flatMap((scan) => (scan.tagIndex === null ? [] : [scan.tagIndex])),
  );
  const missed = checkpoints.filter((tag) => !scanned.has(tag.index));
  // Stopped before the recorder's first chunk: the server would refuse an empty file at upload.
  const empty = recording.size === 0;

  return (
    <form
      className="form capture-step"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        try {
          await onSubmit(notes);
        } finally {
          setBusy(false);
        }
      }}
    >
      <dl className="record-fields capture-summary">
        <RecordField label={s.duration}>{formatDuration(recording.duration)}</RecordField>
        <RecordField label={s.size}>{formatSize(recording.size)}</RecordField>
        {checkpoints.length > 0 && (
          <RecordField label={s.checkpoints}>
            {s.scanned(checkpoints.length - missed.length, checkpoints.length)}
          </RecordField>
        )}
        {checkpoints.length > 0 && (
          <RecordField label={s.missed}>
            {missed.length === 0 ? s.allScanned : missed.map((tag) => tag.name).join(', ')}
          </RecordField>
        )}
      </dl>
      {empty && (
        <p className="capture-problem" role="alert">
          {s.emptyRecording}
        </p>
      )}
      <TextField label={s.notes} value={notes} onChange={setNotes} rows={4} />
      <div className="capture-controls">
        <button type="submit" className="btn btn-primary btn-large" disabled={busy || empty}>
          {busy ? s.submitting : s.submit}
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-large"
          onClick={onDiscard}
          disabled={busy}
        >
          {s.discard}
        </button>
      </div>
    </form>
  );
}
