import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { type ConfirmWords, useConfirm } from '../../components/confirm-dialog.tsx';
import { useQrCamera } from '../../hooks/use-qr-camera.ts';
import { holdRecording } from '../../lib/capture/other-tabs.ts';
import {
  type LocalRecording,
  recordedEnd,
  saveCapture,
  saveRecording,
} from '../../lib/capture/recording-db.ts';
import { recordableCode } from '../../lib/capture/recording-entries.ts';
import { runningSha256 } from '../../lib/capture/sha256-client.ts';
import { showRecording } from '../../lib/capture/upload-queue.ts';
import { keepScreenOn } from '../../lib/capture/wake-lock.ts';
import { errorText as reasonOf } from '../../lib/error-text.ts';
import { formatDuration } from '../../lib/format-duration.ts';
import { formatSize } from '../../lib/format-size.ts';
import { keepSessionActive } from '../../lib/idle-session.ts';
import { guardLeaving, type Leaving } from '../../lib/leave-guard.ts';
import { toastError, toastWarning } from '../../stores/toasts.ts';
import type { MyLineDetail } from '../../types/api.ts';
import { judgeScan, MIN_PATH_CHECKPOINTS, pathAtRisk, scannableTags } from './checklist.ts';
import { MotionRecorder, requestMotionPermission } from './motion.ts';
import { InspectionRecorder, pickRecordingType } from './recorder.ts';
import { inspectionStrings as s } from './strings.ts';

type Phase = 'ready' | 'recording' | 'paused' | 'stopping';

/** Leaving while recording: what happens to the recording, for each way of leaving. */
const leaveWords: Record<Leaving, ConfirmWords> = {
  page: { title: s.leaveTitle, text: s.confirmLeave, cancel: s.keepRecording, confirm: s.leave },
  'sign-out': {
    title: s.signOutTitle,
    text: s.confirmSignOut,
    cancel: s.keepRecording,
    confirm: s.signOut,
  },
};

/** A code seen again within this many seconds is the same pass in front of the tag. */
const SAME_PASS_SECONDS = 3;
/** How often the motion samples so far are written to the device's store. */
const SAVE_EVERY_MS = 5000;

interface ScanMessage {
  text: string;
  warn: boolean;
}

/** What a recording in progress is made of, and what ends it. */
interface Live {
  recorder: InspectionRecorder | null;
  motion: MotionRecorder | null;
  lastSeen: Map<string, number>;
  ticked: Set<number>;
  /** Lets go of the recording's lock, so that other tabs may take it up. */
  release: (() => void) | null;
  /** Set once the recording is being kept (Stop, a failed write, the page left): that happens once. */
  keeping: Promise<void> | null;
}

export function RecordStep({
  detail,
  recording,
  onStopped,
  onBack,
}: {
  detail: MyLineDetail;
  recording: LocalRecording;
  onStopped: (recording: LocalRecording) => void;
  /** Back to step 1, before anything was recorded (what was typed there is kept). */
  onBack: () => void;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [phase, setPhase] = useState<Phase>('ready');
  const [problem, setProblem] = useState<string | null>(null);
  const [ticked, setTicked] = useState<ReadonlySet<number>>(new Set());
  const [message, setMessage] = useState<ScanMessage | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const [storageLeft, setStorageLeft] = useState<number | null>(null);
  const live = useRef<Live>({
    recorder: null,
    motion: null,
    lastSeen: new Map(),
    ticked: new Set(),
    release: null,
    keeping: null,
  });
  const pauseButton = useRef<HTMLButtonElement>(null);
  // Staying after a Log out asked from the account menu: back to the recording's control.
  const confirm = useConfirm(pauseButton);
  const checkpoints = scannableTags(detail.checklist);

  const camera = useQrCamera(videoRef, onCodes);
  useEffect(() => {
    const state = live.current;
    return () => {
      // Left while recording (a link, the browser's Back): stopped and kept, as Stop would.
      if (state.recorder && !state.keeping) {
        state.keeping = keepRecording(state, recording, s.leftWhileRecording);
      }
    };
  }, [recording]);

  const recordingNow = phase === 'recording' || phase === 'paused';

  // Record is replaced by Pause, and Pause turns into Resume: focus follows the control.
  useEffect(() => {
    if (phase === 'recording' || phase === 'paused') pauseButton.current?.focus();
  }, [phase]);

  // Leaving while recording asks first: a reload or a closed tab (the browser's prompt), and a
  // link, a button, Back or Log out in the app (this step's dialog). A layout effect: the guard is
  // in place by the time the screen shows that it records.
  useLayoutEffect(
    () =>
      recordingNow
        ? guardLeaving((go, leaving) => confirm.ask(leaveWords[leaving], go))
        : undefined,
    [recordingNow, confirm.ask],
  );

  // An operator walking the line touches nothing: recording is activity (no idle sign-out). A
  // pause is not: one left for the idle limit is kept as recorded when the sign-out leaves the page.
  useEffect(() => (phase === 'recording' ? keepSessionActive() : undefined), [phase]);

  // While recording: the clock, the screen kept on, storage left, motion saved now and then.
  useEffect(() => {
    if (phase !== 'recording' && phase !== 'paused') return;
    const release = keepScreenOn();
    const tick = setInterval(() => setElapsed(live.current.recorder?.videoTime() ?? 0), 250);
    const save = setInterval(() => {
      recording.motion = live.current.motion?.samples() ?? null;
      saveSensed(recording, live.current);
    }, SAVE_EVERY_MS);
    const estimate = () =>
      navigator.storage
        ?.estimate()
        .then(({ quota, usage }) =>
          setStorageLeft(quota !== undefined ? quota - (usage ?? 0) : null),
        )
        .catch(() => {});
    void estimate();
    const storage = setInterval(estimate, 10_000);
    return () => {
      release();
      clearInterval(tick);
      clearInterval(save);
      clearInterval(storage);
    };
  }, [phase, recording]);

  function onCodes(codes: string[]) {
    const { recorder, lastSeen } = live.current;
    if (recorder?.state !== 'recording') return;
    const videoTime = recorder.videoTime();
    for (const code of codes) {
      const seen = lastSeen.get(code);
      lastSeen.set(code, videoTime);
      if (seen !== undefined && videoTime - seen < SAME_PASS_SECONDS) continue;
      const verdict = judgeScan(code, detail.checklist, detail.otherLineTags, live.current.ticked);
      recording.scans.push({
        code: recordableCode(code),
        videoTime: Math.round(videoTime * 1000) / 1000,
        at: new Date().toISOString(),
        tagIndex: verdict.kind === 'checkpoint' ? verdict.tagIndex : null,
      });
      saveSensed(recording, live.current);
      if (verdict.kind === 'checkpoint') {
        live.current.ticked.add(verdict.tagIndex);
        setTicked(new Set(live.current.ticked));
        navigator.vibrate?.(80);
        setMessage({
          text: verdict.repeat ? s.scanRepeat(verdict.name) : s.scanTicked(verdict.name),
          warn: false,
        });
      } else {
        setMessage({
          text:
            verdict.kind === 'other-line' ? s.scanOtherLine(verdict.lineName) : s.scanUnknown(code),
          warn: true,
        });
      }
    }
  }

  async function record() {
    const type = pickRecordingType();
    const stream = camera.stream;
    if (!type || !stream) {
      setProblem(s.noRecorder);
      return;
    }
    if (!(await requestMotionPermission())) toastWarning(s.motionRefused);
    try {
      Object.assign(recording, {
        mimeType: type.mimeType,
        container: type.container,
        startedAt: new Date().toISOString(),
        state: 'recording',
      });
      // Held before the record says 'recording': no other tab takes it for an interrupted one.
      live.current.release = await holdRecording(recording.id);
      await saveRecording(recording);
      showRecording(recording);
      const recorder = new InspectionRecorder(
        stream,
        type,
        recording,
        await runningSha256(),
        () => showRecording(recording),
        () => void finish(),
      );
      const motion = new MotionRecorder(() => recorder.videoTime());
      live.current.recorder = recorder;
      live.current.motion = motion;
      recorder.start();
      motion.start();
      setPhase('recording');
    } catch (error) {
      live.current.release?.();
      live.current.release = null;
      toastError(`${s.recordingFailed}: ${reasonOf(error)}`);
    }
  }

  function pauseOrResume() {
    const { recorder, motion } = live.current;
    if (!recorder) return;
    if (phase === 'recording') {
      recorder.pause();
      motion?.setPaused(true);
      setPhase('paused');
    } else {
      recorder.resume();
      motion?.setPaused(false);
      setPhase('recording');
    }
  }

  /** Stop, or a failed write: the recording is kept (what was stored) and goes to review. */
  async function finish() {
    const state = live.current;
    if (!state.recorder || state.keeping) return;
    setPhase('stopping');
    state.keeping = keepRecording(state, recording, null);
    await state.keeping;
    onStopped(recording);
  }

  return (
    <div className="capture-step capture-record">
      <div className="capture-preview">
        <video ref={videoRef} aria-label={s.preview} muted playsInline autoPlay tabIndex={-1} />
        {recordingNow && (
          <p className="capture-clock">
            <span className={phase === 'recording' ? 'capture-dot' : 'capture-dot paused'} />
            <span className="visually-hidden">{s.elapsed}: </span>
            {formatDuration(elapsed)}
          </p>
        )}
      </div>
      {/* Beside the preview in landscape (inspection.css): the count and last scan stay in view. */}
      <div className="capture-side">
        {camera.status === 'opening' && <p role="status">{s.openingCamera}</p>}
        {(problem ?? camera.problem) && (
          <p className="capture-problem" role="alert">
            {problem ?? camera.problem}
          </p>
        )}
        <div className="capture-controls">
          {phase === 'ready' && camera.status === 'ready' && (
            <button type="button" className="btn btn-danger btn-large" onClick={record}>
              {s.record}
            </button>
          )}
          {phase === 'ready' && camera.status === 'failed' && (
            <button type="button" className="btn btn-primary btn-large" onClick={camera.retry}>
              {s.retryCamera}
            </button>
          )}
          {/* Nothing is recorded yet: going back loses nothing. */}
          {phase === 'ready' && (
            <button type="button" className="btn btn-secondary btn-large" onClick={onBack}>
              {s.backToBefore}
            </button>
          )}
          {recordingNow && (
            <>
              <button
                ref={pauseButton}
                type="button"
                className="btn btn-secondary btn-large"
                onClick={pauseOrResume}
              >
                {phase === 'recording' ? s.pause : s.resume}
              </button>
              <button
                type="button"
                className="btn btn-primary btn-large"
                onClick={() => void finish()}
              >
                {s.stop}
              </button>
            </>
          )}
        </div>
        <p
          className={message?.warn ? 'capture-scan warn' : 'capture-scan'}
          role="status"
          aria-live="polite"
        >
          {message?.text ?? ''}
        </p>
        {recordingNow && storageLeft !== null && (
          <p className="muted">
            {s.storageLeft}: {formatSize(Math.max(0, storageLeft))} · {s.recordedSize}:{' '}
            {formatSize(recording.size)}
          </p>
        )}
        {checkpoints.length > 0 && (
          <section className="capture-checklist">
            <h2>{s.scanned(ticked.size, checkpoints.length)}</h2>
            {/* Said before and while walking: the review's warning comes when it takes a new walk. */}
            {pathAtRisk(checkpoints.length, ticked.size) && (
              <p className="capture-note">{s.pathHint(MIN_PATH_CHECKPOINTS)}</p>
            )}
            <ul className="capture-ticks">
              {checkpoints.map((tag) => (
                <li key={tag.index} className={ticked.has(tag.index) ? 'ticked' : undefined}>
                  <span aria-hidden="true">{ticked.has(tag.index) ? '✓' : '○'}</span> {tag.name}
                  <span className="visually-hidden">
                    {ticked.has(tag.index) ? ' (scanned)' : ' (not scanned)'}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
      {confirm.dialog}
    </div>
  );
}

/** Stores what was scanned and sensed; a refused write stops the recording, as a chunk's does. */
function saveSensed(recording: LocalRecording, live: Live) {
  saveCapture(recording).catch((error: unknown) => live.recorder?.fail(error));
}

/** The reason a write failed, in words: a full phone's storage, or what the browser said. */
function failureText(error: unknown): string {
  if (error instanceof DOMException && error.name === 'QuotaExceededError') return s.storageFull;
  return s.notStored(reasonOf(error));
}

/**
 * Stops the recorder, waits for its last chunk and keeps the recording as recorded, with its real
 * end, duration and hash, and `note` (why it stopped) if any. After a failed write what was stored
 * before it is kept, ending at its last stored chunk, with the reason. Then lets go of the
 * recording's lock.
 */
async function keepRecording(live: Live, recording: LocalRecording, note: string | null) {
  const { recorder, motion } = live;
  if (!recorder) return;
  motion?.stop();
  try {
    const { duration, sha256 } = await recorder.stop();
    Object.assign(recording, {
      duration: Math.round(duration * 1000) / 1000,
      sha256,
      endedAt: new Date().toISOString(),
      error: note,
    });
  } catch (error) {
    Object.assign(recording, {
      sha256: await recorder.keptDigest(),
      endedAt: recordedEnd(recording),
      error: failureText(error),
    });
  }
  Object.assign(recording, { motion: motion?.samples() ?? recording.motion, state: 'recorded' });
  try {
    await saveRecording(recording);
  } catch (error) {
    // Not even this could be stored: the stored record ends at its last chunk, as an interrupted
    // one does, and this copy (submitted or discarded from here) says why.
    recording.error ??= failureText(error);
  }
  live.release?.();
  live.release = null;
  showRecording(recording);
}
