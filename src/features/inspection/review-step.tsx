import { useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Field } from '../../components/field.tsx';
import { RecordField } from '../../components/record-card.tsx';
import { keptScans, type LocalRecording } from '../../lib/capture/recording-db.ts';
import { NOTES_MAX, notesProblem } from '../../lib/capture/recording-entries.ts';
import { formatDuration } from '../../lib/format-duration.ts';
import { formatSize } from '../../lib/format-size.ts';
import { lengthHint, overLimit } from '../../lib/text-rules.ts';
import { MIN_PATH_CHECKPOINTS, pathAtRisk, scannableTags } from './checklist.ts';
import { RecordingPlayback } from './recording-playback.tsx';
import { inspectionStrings as s } from './strings.ts';

export function ReviewStep({
  recording,
  minVideoSeconds,
  onSubmit,
  onDiscard,
}: {
  recording: LocalRecording;
  /** The report's minimum video length (the line detail's `minVideoSeconds`); none: no warning. */
  minVideoSeconds?: number | undefined;
  onSubmit: (notes: string) => Promise<void>;
  onDiscard: () => void;
}) {
  const [notes, setNotes] = useState(recording.notes);
  const [busy, setBusy] = useState(false);
  // The server takes at most 2000 characters of notes: more are named under the box as they are
  // typed, and a longer text brought from before (stored on the device) when Submit is tried.
  const [checked, setChecked] = useState(false);
  const notesBox = useRef<HTMLTextAreaElement>(null);
  const problem = notesProblem(notes);
  const checkpoints = scannableTags(recording.checklist);
  // Only scans within the stored video count, and are submitted.
  const kept = keptScans(recording);
  const scanned = new Set(kept.flatMap((scan) => (scan.tagIndex === null ? [] : [scan.tagIndex])));
  const leftOut = recording.scans.length - kept.length;
  const missed = checkpoints.filter((tag) => !scanned.has(tag.index));
  // Stopped before the recorder's first chunk: the server would refuse an empty file at upload.
  const empty = recording.size === 0;
  // The report flags a video shorter than the minimum (high): said here while it can still be
  // recorded again, without refusing it (the LC manager decides on the flagged record).
  const shortWarning =
    !empty &&
    minVideoSeconds !== undefined &&
    recording.duration > 0 &&
    recording.duration < minVideoSeconds
      ? s.shortRecording(formatDuration(recording.duration), formatDuration(minVideoSeconds))
      : null;
  const shortId = useId();
  // No path for the LC manager to see: said first, while the walk can still be recorded again.
  const scannedCount = checkpoints.length - missed.length;
  const noPathWarning =
    !empty && pathAtRisk(checkpoints.length, scannedCount)
      ? s.noPath(scannedCount, MIN_PATH_CHECKPOINTS)
      : null;
  const noPathId = useId();
  const warningIds = [noPathWarning && noPathId, shortWarning && shortId].filter(Boolean).join(' ');

  return (
    <form
      className="form capture-step"
      onSubmit={async (event) => {
        event.preventDefault();
        if (problem) {
          flushSync(() => setChecked(true));
          notesBox.current?.focus();
          return;
        }
        setBusy(true);
        try {
          await onSubmit(notes);
        } finally {
          setBusy(false);
        }
      }}
    >
      {noPathWarning && (
        <p className="capture-problem" role="alert" id={noPathId}>
          {noPathWarning}
        </p>
      )}
      <dl className="record-fields capture-summary">
        <RecordField label={s.duration}>{formatDuration(recording.duration)}</RecordField>
        <RecordField label={s.size}>{formatSize(recording.size)}</RecordField>
        {checkpoints.length > 0 && (
          <RecordField label={s.checkpoints}>
            {s.scanned(scannedCount, checkpoints.length)}
          </RecordField>
        )}
        {missed.length > 0 && (
          <RecordField label={s.missed}>{missed.map((tag) => tag.name).join(', ')}</RecordField>
        )}
      </dl>
      {checkpoints.length > 0 && missed.length === 0 && <p>{s.allScanned}</p>}
      {/* Why the recording stopped before Stop (e.g. the phone's storage was full). */}
      {recording.error && (
        <p className="capture-problem" role="alert">
          {recording.error}
        </p>
      )}
      {empty && (
        <p className="capture-problem" role="alert">
          {s.emptyRecording}
        </p>
      )}
      {!empty && leftOut > 0 && <p className="capture-note">{s.scansLeftOut(leftOut)}</p>}
      {shortWarning && (
        <p className="capture-note" id={shortId}>
          {shortWarning}
        </p>
      )}
      {/* Watched before submitting: a lens covered or a walk cut short is seen here, not later. */}
      {!empty && <RecordingPlayback recording={recording} />}
      <Field
        label={s.notes}
        hint={lengthHint(notes, NOTES_MAX, true)}
        error={checked || overLimit(notes, NOTES_MAX) ? problem : null}
      >
        <textarea
          ref={notesBox}
          rows={4}
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
        />
      </Field>
      <div className="capture-controls">
        <button
          type="submit"
          className="btn btn-primary btn-large"
          disabled={busy || empty}
          aria-describedby={warningIds || undefined}
        >
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
