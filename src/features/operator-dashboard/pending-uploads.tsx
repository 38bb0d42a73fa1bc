import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { RecordActions, RecordCard, RecordField } from '../../components/record-card.tsx';
import { Tag } from '../../components/tag.tsx';
import { UploadProgressBar } from '../../components/upload-progress-bar.tsx';
import { discardRecording, resumeRecording, uploadQueue } from '../../lib/capture/upload-queue.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatSize } from '../../lib/format-size.ts';
import { localTime } from '../../lib/record-time.ts';
import { confirmThenRun } from '../../lib/run-action.ts';
import { toastError } from '../../stores/toasts.ts';
import { CorrectRecordingDialog } from './correct-recording-dialog.tsx';
import { operatorStrings as s } from './strings.ts';

/**
 * Recordings still on this device: progress, Resume and Discard (docs/capture.md), and Correct
 * details for one the server has not accepted yet (e.g. a field it refused). One another tab is
 * recording is listed as such, with nothing to do to it here.
 */
export function PendingUploads() {
  const queue = useSnapshot(uploadQueue);
  const [correcting, setCorrecting] = useState<string | null>(null);
  const pending = queue.recordings;
  const toCorrect = pending.find((r) => r.id === correcting);
  const resume = (id: string) =>
    resumeRecording(id).catch((error: unknown) =>
      toastError(`${s.resumeFailed}: ${errorText(error)}`),
    );
  return (
    <section aria-labelledby="pending-heading">
      <h2 id="pending-heading">{s.pendingHeading}</h2>
      {pending.length === 0 ? (
        <p className="muted">{s.noPending}</p>
      ) : (
        <div className="card-grid">
          {pending.map((recording) => {
            const progress = queue.progress[recording.id];
            const when = localTime(recording.startedAt) ?? s.unknown;
            const name = `${recording.lineName} ${when}`;
            const elsewhere = recording.state === 'recording';
            // Waiting for the network: the queue's own wait, or tus-js-client's retries of the
            // upload in flight, shown alike (no flipping to 'Uploading' on each retry).
            const waiting =
              queue.waitingUntil !== null &&
              (recording.state === 'queued' || recording.state === 'uploading');
            const resumable =
              recording.state === 'failed' || recording.state === 'recorded' || waiting;
            // Once the inspection exists on the server, its fields are the server's.
            const correctable =
              !recording.inspectionId &&
              (recording.state === 'failed' || recording.state === 'recorded');
            return (
              <RecordCard
                key={recording.id}
                title={recording.lineName}
                tags={
                  <Tag severity={recording.state === 'failed' ? 'danger' : 'warning'}>
                    {s.state[waiting ? 'queued' : recording.state]}
                  </Tag>
                }
                actions={
                  !elsewhere && (
                    <RecordActions
                      name={name}
                      actions={[
                        ...(resumable
                          ? [{ label: s.resume, onClick: () => void resume(recording.id) }]
                          : []),
                        ...(correctable
                          ? [{ label: s.correct, onClick: () => setCorrecting(recording.id) }]
                          : []),
                        {
                          label: s.discard,
                          variant: 'danger' as const,
                          onClick: () =>
                            void confirmThenRun(
                              s.confirmDiscard,
                              () => discardRecording(recording.id),
                              s.discarded,
                              s.discardFailed,
                            ),
                        },
                      ]}
                    />
                  )
                }
              >
                <RecordField label={s.recordedAt}>{when}</RecordField>
                <RecordField label={s.size}>{formatSize(recording.size)}</RecordField>
                {progress && (recording.state === 'uploading' || recording.state === 'queued') && (
                  <UploadProgressBar label={name} progress={progress} />
                )}
                {waiting && <p className="muted">{s.waitingForNetwork}</p>}
                {recording.error && <p className="capture-problem">{recording.error}</p>}
                {recording.scansLeftOut > 0 && (
                  <p className="muted">{s.scansLeftOut(recording.scansLeftOut)}</p>
                )}
              </RecordCard>
            );
          })}
        </div>
      )}
      {toCorrect && (
        <CorrectRecordingDialog recording={toCorrect} onClose={() => setCorrecting(null)} />
      )}
    </section>
  );
}
