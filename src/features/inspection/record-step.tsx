import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useQrCamera } from '../../hooks/use-qr-camera.ts';
import { type LocalRecording, recordedEnd, saveRecording } from '../../lib/capture/recording-db.ts';
import { recordableCode } from '../../lib/capture/recording-entries.ts';
import { runningSha256 } from '../../lib/capture/sha256-client.ts';
import { markActive, showRecording } from '../../lib/capture/upload-queue.ts';
import { keepScreenOn } from '../../lib/capture/wake-lock.ts';
import { formatDuration } from '../../lib/format-duration.ts';
import { formatSize } from '../../lib/format-size.ts';
import { toastError, toastWarning } from '../../stores/toasts.ts';
import type { MyLineDetail } from '../../types/api.ts';
import { judgeScan, scannableTags } from './checklist.ts';
import { MotionRecorder, requestMotionPermission } from './motion.ts';
import { InspectionRecorder, pickRecordingType } from './recorder.ts';
import { inspectionStrings as s } from './strings.ts';

type Phase = 'ready' | 'recording' | 'paused' | 'stopping' | 'failed';

/** A code seen again within this many seconds is the same pass in front of the tag. */
const SAME_PASS_SECONDS = 3;
/** How often the motion samples so far are written to the device's store. */
const SAVE_EVERY_MS = 5000;

interface ScanMessage {
  text: string;
  warn: boolean;
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
  const live = useRef<{
    recorder: InspectionRecorder | null;
    motion: MotionRecorder | null;
    lastSeen: Map<string, number>;
    ticked: Set<number>;
  }>({ recorder: null, motion: null, lastSeen: new Map(), ticked: new Set() });
  const pauseButton = useRef<HTMLButtonElement>(null);
  const checkpoints = scannableTags(detail.checklist);

  const camera = useQrCamera(videoRef, onCodes);
  useEffect(() => {
    const state = live.current;
    return () => {
      state.motion?.stop();
      // Left while recording (a link, the browser's Back): stopped and kept, as Stop would.
      if (state.recorder && recording.state === 'recording') {
        void keepLeftRecording(state.recorder, state.motion, recording);
      } else {
        markActive(recording.id, false);
      }
    };
  }, [recording]);

  const recordingNow = phase === 'recording' || phase === 'paused';

  // Record is replaced by Pause, and Pause turns into Resume: focus follows the control.
  useEffect(() => {
    if (phase === 'recording' || phase === 'paused') pauseButton.current?.focus();
  }, [phase]);

  // Leaving while recording asks first: a reload or a closed tab (beforeunload), and a link in
  // the app (wouter has no navigation guard: a click on a link is caught before it reaches it).
  // A layout effect: the guard is in place by the time the screen shows that it records.
  useLayoutEffect(() => {
    if (!recordingNow) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    const confirmLink = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      const newTab =
        event.ctrlKey || event.metaKey || event.shiftKey || link?.getAttribute('target');
      if (!link || newTab || window.confirm(s.confirmLeave)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('beforeunload', warn);
    window.addEventListener('click', confirmLink, true);
    return () => {
      window.removeEventListener('beforeunload', warn);
      window.removeEventListener('click', confirmLink, true);
    };
  }, [recordingNow]);

  // While recording: the clock, the screen kept on, storage left, motion saved now and then.
  useEffect(() => {
    if (phase !== 'recording' && phase !== 'paused') return;
    const release = keepScreenOn();
    const tick = setInterval(() => setElapsed(live.current.recorder?.videoTime() ?? 0), 250);
    const save = setInterval(() => {
      recording.motion = live.current.motion?.samples() ?? null;
      void saveRecording(recording);
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
      void saveRecording(recording);
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
      markActive(recording.id, true);
      await saveRecording(recording);
      showRecording(recording);
      const recorder = new InspectionRecorder(stream, type, recording, await runningSha256(), () =>
        showRecording(recording),
      );
      const motion = new MotionRecorder(() => recorder.videoTime());
      live.current.recorder = recorder;
      live.current.motion = motion;
      recorder.start();
      motion.start();
      setPhase('recording');
    } catch (error) {
      toastError(`${s.recordingFailed}: ${error instanceof Error ? error.message : String(error)}`);
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

  async function stop() {
    const { recorder, motion } = live.current;
    if (!recorder) return;
    setPhase('stopping');
    try {
      const { duration, sha256 } = await recorder.stop();
      motion?.stop();
      Object.assign(recording, {
        duration: Math.round(duration * 1000) / 1000,
        sha256,
        endedAt: new Date().toISOString(),
        motion: motion?.samples() ?? null,
        state: 'recorded',
        error: null,
      });
      await saveRecording(recording);
      markActive(recording.id, false);
      showRecording(recording);
      onStopped(recording);
    } catch (error) {
      setPhase('failed');
      setProblem(`${s.recordingFailed}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  return (
    <div className="capture-step capture-record">
      <div className="capture-preview">
        <video ref={videoRef} aria-label={s.preview} muted playsInline autoPlay />
        {recordingNow && (
          <p className="capture-clock">
            <span className={phase === 'recording' ? 'capture-dot' : 'capture-dot paused'} />
            <span className="visually-hidden">{s.elapsed}: </span>
            {formatDuration(elapsed)}
          </p>
        )}
      </div>
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
            <button type="button" className="btn btn-primary btn-large" onClick={stop}>
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
  );
}

/**
 * The page was left while recording: stops the recorder, waits for its last chunk and keeps the
 * recording as recorded (its real end, duration and hash), for the operator to submit from the
 * dashboard. If stopping fails, what was stored is kept the same way, ending at its last chunk.
 */
async function keepLeftRecording(
  recorder: InspectionRecorder,
  motion: MotionRecorder | null,
  recording: LocalRecording,
) {
  try {
    const { duration, sha256 } = await recorder.stop();
    Object.assign(recording, {
      duration: Math.round(duration * 1000) / 1000,
      sha256,
      endedAt: new Date().toISOString(),
    });
  } catch {
    recording.endedAt = recordedEnd(recording);
  }
  Object.assign(recording, {
    motion: motion?.samples() ?? recording.motion,
    state: 'recorded',
    error: s.leftWhileRecording,
  });
  await saveRecording(recording);
  markActive(recording.id, false);
  showRecording(recording);
}
