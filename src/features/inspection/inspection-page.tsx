import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link, useParams } from 'wouter';
import { getMyDevices } from '../../api/get-my-devices.ts';
import { paths } from '../../config/paths.ts';
import { usePageHeading, useStepHeading } from '../../hooks/use-heading-focus.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { ApiError } from '../../lib/api-client.ts';
import {
  type LocalRecording,
  newRecording,
  newRecordingId,
} from '../../lib/capture/recording-db.ts';
import { discardRecording, submitRecording } from '../../lib/capture/upload-queue.ts';
import { errorText } from '../../lib/error-text.ts';
import { session } from '../../stores/session.ts';
import { toastError } from '../../stores/toasts.ts';
import type { MyLineDetail } from '../../types/api.ts';
import { getMyLine } from './api/get-my-line.ts';
import { type BeforeEntries, BeforeStep, emptyEntries } from './before-step.tsx';
import { RecordStep } from './record-step.tsx';
import { ReviewStep } from './review-step.tsx';
import { inspectionStrings as s } from './strings.ts';
import { SubmittedStep } from './submitted-step.tsx';
import './inspection.css';

type Step = 'before' | 'record' | 'review' | 'submitted';

/** /inspection/{areaId}: before, record, review and submit (docs/capture.md). */
export default function InspectionPage() {
  const pageHeading = usePageHeading(s.title);
  const { areaId = '' } = useParams<{ areaId: string }>();
  const snap = useSnapshot(session);
  const userId = snap.info?.id ?? '';
  const [detail, setDetail] = useState<MyLineDetail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [step, setStep] = useState<Step>('before');
  const [recording, setRecording] = useState<LocalRecording | null>(null);
  // What step 1 held when Start was tapped, shown again when the operator comes back to it.
  const [entries, setEntries] = useState<BeforeEntries>(emptyEntries);
  const devices = useLoad(getMyDevices, 'Failed to load devices');
  const heading = useStepHeading(step);

  useEffect(() => {
    let current = true;
    getMyLine(areaId).then(
      (found) => current && setDetail(found),
      (error: unknown) => {
        if (!current || (error instanceof ApiError && error.status === 401)) return;
        const status = error instanceof ApiError ? error.status : 0;
        // A malformed id is a 400: to the operator it names no line either.
        setProblem(
          status === 403
            ? s.notAssigned
            : status === 404 || status === 400
              ? s.notFound
              : s.loadFailed,
        );
      },
    );
    return () => {
      current = false;
    };
  }, [areaId]);

  const backLink = (
    <Link href={paths.operator} className="btn btn-large">
      {s.backToDashboard}
    </Link>
  );
  const active = detail?.line.status === 'active';
  let body: React.ReactNode;
  if (problem) {
    body = (
      <>
        <p role="alert">{problem}</p>
        {backLink}
      </>
    );
  } else if (!detail) {
    body = <p role="status">{s.loading}</p>;
  } else if (!active) {
    body = (
      <>
        <p role="alert">{s.notActive(detail.line.status)}</p>
        {backLink}
      </>
    );
  } else if (step === 'before') {
    body = (
      <BeforeStep
        detail={detail}
        devices={devices.data ?? []}
        initial={entries}
        onStart={(typed) => {
          setEntries(typed);
          setRecording(
            newRecording({
              id: newRecordingId(),
              userId,
              lineId: detail.line._id,
              lineName: detail.line.name,
              productLeaving: typed.productLeaving.trim(),
              batchLeaving: typed.batchLeaving.trim(),
              productComing: typed.productComing.trim(),
              batchComing: typed.batchComing.trim(),
              deviceId: typed.deviceId || null,
              checklist: detail.checklist,
            }),
          );
          setStep('record');
        }}
      />
    );
  } else if (step === 'record' && recording) {
    body = (
      <RecordStep
        detail={detail}
        recording={recording}
        onStopped={(stopped) => {
          setRecording({ ...stopped });
          setStep('review');
        }}
        onBack={() => {
          // Not saved on the device until Record is tapped: nothing to discard.
          setRecording(null);
          setStep('before');
        }}
      />
    );
  } else if (step === 'review' && recording) {
    body = (
      <ReviewStep
        recording={recording}
        minVideoSeconds={detail.minVideoSeconds}
        onSubmit={async (notes) => {
          try {
            await submitRecording(recording, notes.trim());
          } catch (error) {
            toastError(`${s.submitFailed}: ${errorText(error)}`);
            return;
          }
          setStep('submitted');
        }}
        onDiscard={async () => {
          if (!window.confirm(s.confirmDiscard)) return;
          try {
            await discardRecording(recording.id);
          } catch (error) {
            toastError(`${s.discardFailed}: ${errorText(error)}`);
            return;
          }
          setRecording(null);
          setStep('before');
        }}
      />
    );
  } else if (recording) {
    body = (
      <SubmittedStep recordingId={recording.id} lineName={detail.line.name} heading={heading} />
    );
  }

  const stepIndex = ['before', 'record', 'review'].indexOf(step);
  return (
    <section className="page capture-page">
      <h1 ref={pageHeading} tabIndex={-1} className="wrap-anywhere">
        {s.title}
        {detail ? `: ${detail.line.name}` : ''}
      </h1>
      {stepIndex >= 0 && active && (
        <h2 ref={heading} tabIndex={-1} className="capture-step-heading">
          {s.stepOf(stepIndex + 1)} · {s.steps[stepIndex]}
        </h2>
      )}
      {body}
    </section>
  );
}
