import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { findMyInspection } from '../../api/find-my-inspection.ts';
import { UploadProgressBar } from '../../components/upload-progress-bar.tsx';
import { inspectionReportPath, paths } from '../../config/paths.ts';
import { loadRecording } from '../../lib/capture/recording-db.ts';
import { uploadQueue } from '../../lib/capture/upload-queue.ts';
import { inspectionStrings as s } from './strings.ts';

/**
 * What became of a recording that left the device's queue, as the server tells it: a verified
 * file, or none (discarded here or in another tab before its file was verified).
 */
type Outcome =
  | { kind: 'checking' }
  | { kind: 'verified'; inspectionId: string }
  | { kind: 'discarded'; inspectionId: string | null }
  | { kind: 'unknown'; inspectionId: string | null };

async function outcomeOf(inspectionId: string | null): Promise<Outcome> {
  if (!inspectionId) return { kind: 'discarded', inspectionId: null };
  try {
    const found = await findMyInspection(inspectionId);
    if (found?.video?.verified) return { kind: 'verified', inspectionId };
    if (found?.video?.status === 'error') return { kind: 'discarded', inspectionId };
  } catch {
    // Offline, or signed out: the report says later whether the file was verified.
  }
  return { kind: 'unknown', inspectionId };
}

/**
 * Step 4: the submitted recording's way to the server, said as it stands. Only the server's word
 * that the file was verified is called a verified upload: a recording can also leave the queue by
 * a discard, or stop on a refusal the operator must act on from the Operator Dashboard.
 */
export function SubmittedStep({
  recordingId,
  lineName,
  heading,
}: {
  recordingId: string;
  lineName: string;
  heading: React.RefObject<HTMLHeadingElement | null>;
}) {
  const queue = useSnapshot(uploadQueue);
  const listed = queue.recordings.find((r) => r.id === recordingId);
  // The server's id for it, once known: asked about when the recording leaves the queue.
  const inspectionId = useRef<string | null>(null);
  if (listed?.inspectionId) inspectionId.current = listed.inspectionId;
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    if (listed) {
      setOutcome(null);
      return;
    }
    let current = true;
    setOutcome({ kind: 'checking' });
    void (async () => {
      // Still on the device but not listed (no upload queue for this user in this tab yet).
      const kept = await loadRecording(recordingId);
      if (kept) inspectionId.current ??= kept.inspectionId;
      const found = kept ? null : await outcomeOf(inspectionId.current);
      if (current) setOutcome(found);
    })();
    return () => {
      current = false;
    };
  }, [listed, recordingId]);

  let title: string;
  let body: React.ReactNode;
  if (!outcome) {
    const failed = listed?.state === 'failed';
    const onServer = Boolean(listed?.inspectionId ?? inspectionId.current);
    title = failed
      ? onServer
        ? s.uploadStopped
        : s.notSubmitted
      : onServer
        ? s.submitted
        : s.sending;
    const progress = queue.progress[recordingId];
    body = failed ? (
      <>
        {listed?.error && <p className="capture-problem">{listed.error}</p>}
        <p>{s.keptOnDevice}</p>
      </>
    ) : (
      <>
        <p>{s.uploadingNote}</p>
        {queue.waitingUntil !== null && <p>{s.waitingForNetwork}</p>}
        {progress && <UploadProgressBar label={lineName} progress={progress} />}
        {listed?.error && <p className="capture-problem">{listed.error}</p>}
      </>
    );
  } else if (outcome.kind === 'checking') {
    title = inspectionId.current ? s.submitted : s.sending;
    body = <p>{s.checkingUpload}</p>;
  } else if (outcome.kind === 'verified') {
    title = s.submitted;
    body = <p>{s.uploadVerified}</p>;
  } else if (outcome.kind === 'discarded') {
    title = s.discarded;
    body = <p>{outcome.inspectionId ? s.discardedAfterSubmit : s.discardedBeforeSubmit}</p>;
  } else {
    title = s.submitted;
    body = <p>{s.outcomeUnknown}</p>;
  }
  const reportId = outcome && outcome.kind !== 'checking' ? outcome.inspectionId : null;
  return (
    <div className="capture-step" role="status">
      <h2 ref={heading} tabIndex={-1}>
        {title}
      </h2>
      {body}
      {reportId && (
        <Link href={inspectionReportPath(reportId)} className="btn btn-secondary btn-large">
          {s.openReport}
        </Link>
      )}
      <Link href={paths.operator} className="btn btn-primary btn-large">
        {s.backToDashboard}
      </Link>
    </div>
  );
}
