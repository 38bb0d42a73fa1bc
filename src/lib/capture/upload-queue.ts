// The device's queue of submitted recordings (docs/capture.md). Each goes through three calls,
// each safe to repeat: submit the inspection (POST /api/inspections with the recording's id as
// clientRef), attach its capture data, upload the file by tus (resuming the same upload after a
// cut, a reload or a browser restart). Only when the server has verified the SHA-256 is the
// local copy deleted. A network failure waits (backoff, or the `online` event) and goes on.
// Every waiting recording is submitted and its capture attached before any file uploads (a file
// upload pauses for one queued meanwhile): a submit must not wait behind another's long upload.
//
// The queue works for the signed-in user only (a shared phone has several): each user's turn ends
// on sign-out or a change of user, cancelling the call or upload in flight and the retry timer,
// and leaves that user's recordings as they were, to resume when that user signs in again.
//
// Tabs of one browser share the recordings (./other-tabs.ts): each lists them, one at a time
// uploads, and nothing is done to a recording while another tab records or uploads it.
import { DetailedError, defaultOptions, Upload } from 'tus-js-client';
import { proxy, subscribe } from 'valtio';
import { findMyInspection } from '../../api/find-my-inspection.ts';
import { session, storedAccessToken } from '../../stores/session.ts';
import type { InspectionCreate, InspectionCreated } from '../../types/api.ts';
import { ApiError, api, endSession, segment, serverMessageOf } from '../api-client.ts';
import { errorText } from '../error-text.ts';
import {
  channelFor,
  ifRecordingFree,
  uploadWhileAllowed,
  whenRecordingFree,
  withRecordingLock,
  writtenHere,
} from './other-tabs.ts';
import {
  deleteRecording,
  keptCapture,
  keptScans,
  type LocalRecording,
  listRecordings,
  loadChunks,
  loadRecording,
  recordedEnd,
  saveRecording,
} from './recording-db.ts';
import { describeRefusal, entriesProblem, type RecordingEntries } from './recording-entries.ts';
import { sha256OfParts } from './sha256-client.ts';
import { captureStrings as s } from './strings.ts';
import { uploadChunkBytes } from './upload-chunks.ts';
import { type ProgressSample, progressOf } from './upload-progress.ts';

export const UPLOAD_ENDPOINT = '/api/uploads';
/** The server's 'checksum mismatch' (server/schemas/uploads.ts). */
const CHECKSUM_MISMATCH = 460;
const BACKOFF_MS = [2000, 5000, 10_000, 30_000, 60_000];
/** How long a discard waits for the tab uploading the recording to stop. */
const DISCARD_WAIT_MS = 10_000;

export interface UploadStatus {
  sent: number;
  total: number;
  bytesPerSecond: number | null;
  secondsLeft: number | null;
}

/** What the screens list of a recording (the full record, with its samples, stays in IndexedDB). */
export type RecordingSummary = Pick<
  LocalRecording,
  | 'id'
  | 'lineName'
  | 'startedAt'
  | 'size'
  | 'duration'
  | 'state'
  | 'error'
  | 'videoId'
  | 'inspectionId'
  | 'captureAttached'
  | 'productLeaving'
  | 'batchLeaving'
  | 'productComing'
  | 'batchComing'
  | 'notes'
> & {
  /** Scans after the end of the stored video, left out of the submission. */
  scansLeftOut: number;
};

/** What the screens show: this user's recordings on the device and the running upload's progress. */
export const uploadQueue = proxy({
  recordings: [] as RecordingSummary[],
  progress: {} as Record<string, UploadStatus>,
  /**
   * When the queue retries after a network failure, or tus-js-client does; set until the network
   * is back (a call answered, bytes moving) or nothing is queued, retries included: null otherwise.
   */
  waitingUntil: null as number | null,
  /** Bumped when an upload is verified (the dashboard reloads its lists). */
  verifiedCount: 0,
  /** Bumped when a recording the server knew is discarded (the dashboard reloads its lists). */
  discardedCount: 0,
});

/** What a tab tells the user's other tabs. */
type TabMessage =
  /** The recording was saved or deleted: read it again. */
  | { changed: string }
  /** The recording is being discarded: the tab uploading it stops. */
  | { cancel: string }
  /** The uploading tab's progress and wait, shown in every tab. */
  | { progress: string; status: UploadStatus }
  | { waitingUntil: number | null }
  /** The operator asked to try again now what waits for the network. */
  | { retryNow: true };

/** One signed-in user's time at the queue; it ends on sign-out or when another user signs in. */
interface Turn {
  userId: string;
  /** Aborted when the turn ends: waits for a lock end. */
  controller: AbortController;
  /** Whether this tab uploads the user's recordings (one tab at a time does). */
  uploader: boolean;
  /** The user's other tabs in this browser. */
  channel: BroadcastChannel | null;
  /** Recordings another tab is writing, waited for until it lets go. */
  watching: Set<string>;
  running: boolean;
  attempt: number;
  retryTimer: ReturnType<typeof setTimeout> | null;
  /**
   * The recording being worked on, how to stop that (a discard, the end of the turn), and, while
   * its file is next, how to pause it for a recording to register.
   */
  current: { id: string; cancel: () => void; pause: (() => void) | null } | null;
}

let turn: Turn | null = null;
let watchingSession = false;

/** A refusal the queue must not retry by itself: the operator decides (Resume or Discard). */
class Refused extends Error {}
/** The turn ended (sign-out, another user) or the recording was discarded while in flight. */
class Cancelled extends Error {}
/** Why a recording's upload stopped when another recording was queued to register. */
const PAUSED = new Cancelled('Paused for another recording to register');

/** Whether `t` is still the queue's turn and its user still the signed-in one. */
const holds = (t: Turn) => turn === t && session.info?.id === t.userId;

/** Throws Cancelled unless the work may go on: its turn holds and nobody stopped it (`signal`). */
function still(t: Turn, signal: AbortSignal) {
  if (!holds(t)) {
    if (turn === t) endTurn();
    throw new Cancelled('The upload queue stopped');
  }
  if (signal.aborted) throw new Cancelled('The recording was discarded');
}

function publish(recording: LocalRecording) {
  const list = uploadQueue.recordings.filter((r) => r.id !== recording.id);
  // This page's own recording is listed once kept; one another tab is writing, as such.
  const recordingHere = recording.state === 'recording' && writtenHere(recording.id);
  if (turn && recording.userId === turn.userId && recording.state !== 'done' && !recordingHere) {
    // Plain fields only: valtio proxies nested objects in place, and IndexedDB cannot store proxies.
    const { id, lineName, startedAt, size, duration, state, error, videoId, inspectionId } =
      recording;
    const { captureAttached, productLeaving, batchLeaving, productComing, batchComing, notes } =
      recording;
    list.push({
      id,
      lineName,
      startedAt,
      size,
      duration,
      state,
      error,
      videoId,
      inspectionId,
      captureAttached,
      productLeaving,
      batchLeaving,
      productComing,
      batchComing,
      notes,
      // While it is being recorded, its last scans are ahead of its stored chunks.
      scansLeftOut:
        state === 'recording' ? 0 : recording.scans.length - keptScans(recording).length,
    });
  }
  list.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  uploadQueue.recordings = list;
}

/** Takes a recording off the list (deleted: verified, or discarded here or in another tab). */
function forget(id: string) {
  uploadQueue.recordings = uploadQueue.recordings.filter((r) => r.id !== id);
  delete uploadQueue.progress[id];
}

function tell(message: TabMessage) {
  turn?.channel?.postMessage(message);
}

async function update(recording: LocalRecording, change: Partial<LocalRecording>) {
  Object.assign(recording, change);
  await saveRecording(recording);
  publish(recording);
  tell({ changed: recording.id });
}

function setProgress(id: string, status: UploadStatus) {
  uploadQueue.progress[id] = status;
  tell({ progress: id, status });
}

/** The server answered: the network is back, whatever waited for it. */
const answered = () => setWaiting(null);

function setWaiting(until: number | null) {
  if (uploadQueue.waitingUntil === until) return;
  uploadQueue.waitingUntil = until;
  tell({ waitingUntil: until });
}

/**
 * Loads the signed-in user's recordings and starts uploading what was submitted, once this tab is
 * the one uploading for the user; safe to call again. Another user's turn ends first; `forUser`
 * must be the signed-in user.
 */
export async function startUploadQueue(forUser: string): Promise<void> {
  if (turn?.userId === forUser || session.info?.id !== forUser) return;
  endTurn();
  if (!watchingSession) {
    watchingSession = true;
    subscribe(session, () => {
      if (turn && session.info?.id !== turn.userId) endTurn();
    });
  }
  const t: Turn = {
    userId: forUser,
    controller: new AbortController(),
    uploader: false,
    channel: channelFor(forUser),
    watching: new Set(),
    running: false,
    attempt: 0,
    retryTimer: null,
    current: null,
  };
  turn = t;
  if (t.channel) {
    t.channel.onmessage = (event: MessageEvent<TabMessage>) => void heard(t, event.data);
  }
  window.addEventListener('online', retryNow);
  for (const recording of await listRecordings()) {
    if (!holds(t)) return;
    if (recording.userId !== forUser) continue;
    if (recording.state === 'recording') await keepIfInterrupted(t, recording);
    else publish(recording);
  }
  if (holds(t)) uploadWhileAllowed(forUser, t.controller.signal, () => void takeOver(t));
}

/**
 * A recording stored as being recorded: if no tab is writing it (its tab closed or crashed), kept
 * as recorded; else listed as being recorded in another tab, and kept once that tab lets go.
 */
async function keepIfInterrupted(t: Turn, recording: LocalRecording) {
  if (await ifRecordingFree(recording.id, () => keepInterrupted(t, recording.id))) return;
  publish(recording);
  watch(t, recording.id);
}

function watch(t: Turn, id: string) {
  if (t.watching.has(id)) return;
  t.watching.add(id);
  void whenRecordingFree(id, t.controller.signal, () => keepInterrupted(t, id)).finally(() =>
    t.watching.delete(id),
  );
}

/**
 * Holding its lock (no tab writes it): a recording still stored as being recorded was cut short
 * (a closed tab, a crash) and is kept as recorded, ending where its stored chunks end.
 */
async function keepInterrupted(t: Turn, id: string) {
  const recording = await loadRecording(id);
  if (!holds(t)) return;
  if (!recording) forget(id);
  else if (recording.state !== 'recording') publish(recording);
  else {
    await update(recording, {
      state: 'recorded',
      error: s.interrupted,
      endedAt: recordedEnd(recording),
    });
  }
}

/** What another of the user's tabs told. */
async function heard(t: Turn, message: TabMessage) {
  if (!holds(t)) return;
  if ('changed' in message) {
    const recording = await loadRecording(message.changed);
    if (!holds(t)) return;
    if (!recording) {
      forget(message.changed);
      return;
    }
    publish(recording);
    if (recording.state === 'recording') watch(t, recording.id);
    if (recording.state === 'queued') retryNow();
  } else if ('cancel' in message) {
    if (t.current?.id === message.cancel) t.current.cancel();
  } else if ('progress' in message) {
    uploadQueue.progress[message.progress] = message.status;
  } else if ('retryNow' in message) {
    retryNow();
  } else {
    uploadQueue.waitingUntil = message.waitingUntil;
  }
}

/**
 * This tab now uploads for its user: what was left uploading (by a closed tab, or before a
 * reload) is queued again, and the queue goes on.
 */
async function takeOver(t: Turn) {
  t.uploader = true;
  for (const { id, state } of [...uploadQueue.recordings]) {
    if (state !== 'uploading') continue;
    await withRecordingLock(id, t.controller.signal, async () => {
      const recording = await loadRecording(id);
      if (recording?.state === 'uploading' && holds(t))
        await update(recording, { state: 'queued' });
    });
  }
  void run(t);
}

/**
 * Ends the current user's turn (sign-out, or another user signed in): cancels the call or upload
 * in flight and the retry timer, and forgets the list the screens show. The user's recordings
 * stay on the device as they were.
 */
export function stopUploadQueue(): void {
  endTurn();
}

function endTurn() {
  const t = turn;
  if (!t) return;
  turn = null;
  if (t.retryTimer) clearTimeout(t.retryTimer);
  t.retryTimer = null;
  t.controller.abort();
  t.current?.cancel();
  t.channel?.close();
  window.removeEventListener('online', retryNow);
  uploadQueue.recordings = [];
  uploadQueue.progress = {};
  uploadQueue.waitingUntil = null;
}

/** Publishes a recording the page changed (e.g. a new chunk), without queueing it. */
export function showRecording(recording: LocalRecording) {
  publish(recording);
  tell({ changed: recording.id });
}

/** Queues a recording (submitted, resumed or corrected) and starts at once. */
async function queueRecording(recording: LocalRecording): Promise<void> {
  await update(recording, { state: 'queued', error: null });
  retryNow();
}

/**
 * Runs `change` on the signed-in user's recording as stored, holding its lock: never while
 * another tab records or uploads it.
 */
async function changeOwn(id: string, change: (recording: LocalRecording) => Promise<void>) {
  const free = await ifRecordingFree(id, async () => {
    const recording = await loadRecording(id);
    if (!recording || recording.userId !== session.info?.id) throw new Error(s.notFound);
    await change(recording);
  });
  if (free) return;
  const stored = await loadRecording(id);
  throw new Error(stored?.state === 'recording' ? s.recordingElsewhere : s.busyElsewhere);
}

/**
 * The operator submitted the recording on the inspection screen, with the notes typed there. If
 * the server already knows it (submitted from another tab meanwhile), it goes on as it is.
 */
export async function submitRecording(recording: LocalRecording, notes: string): Promise<void> {
  await changeOwn(recording.id, (stored) =>
    queueRecording(stored.inspectionId ? stored : { ...recording, notes }),
  );
}

/**
 * Queues a stopped or recorded recording again; one whose upload is in flight, waiting for the
 * network (tus-js-client's own retries), is tried again now by the tab uploading it.
 */
export async function resumeRecording(id: string): Promise<void> {
  if (uploadQueue.recordings.find((r) => r.id === id)?.state === 'uploading') {
    if (turn?.uploader) retryNow();
    else tell({ retryNow: true });
    return;
  }
  await changeOwn(id, queueRecording);
}

/**
 * Corrects what the operator typed about a recording the server has not yet accepted (e.g. a
 * field a submit was refused for), then queues it again. The video and everything sensed stay as
 * recorded. Refused once the inspection exists on the server: its fields are kept there.
 */
export async function correctRecording(id: string, entries: RecordingEntries): Promise<void> {
  await changeOwn(id, async (recording) => {
    if (recording.inspectionId) throw new Error(s.alreadySubmitted);
    const problem = entriesProblem(entries);
    if (problem) throw new Error(problem);
    const { productLeaving, batchLeaving, productComing, batchComing, notes } = entries;
    Object.assign(recording, { productLeaving, batchLeaving, productComing, batchComing, notes });
    await queueRecording(recording);
  });
}

/**
 * Forgets a recording on this device. If the server already knew it (its inspection was
 * created), the server records the discard (audit) first; without the network that fails and the
 * recording stays. A 409 says the video already has a verified file (another upload, or one
 * posted through the ingestion API): the record does not need this copy, so it goes. Never while
 * another tab records it; an upload of it, here or in another tab, stops first.
 */
export async function discardRecording(id: string): Promise<void> {
  const listed = await loadRecording(id);
  if (!listed || listed.userId !== session.info?.id) return;
  const discard = async () => {
    const recording = await loadRecording(id);
    if (!recording) return;
    if (recording.videoId) {
      try {
        await api.post(`/api/videos/${segment(recording.videoId)}/discard`);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 409)) throw error;
      }
    }
    await deleteRecording(id);
    forget(id);
    tell({ changed: id });
    if (recording.videoId) uploadQueue.discardedCount += 1;
  };
  if (await ifRecordingFree(id, discard)) return;
  if (listed.state === 'recording') throw new Error(s.recordingElsewhere);
  if (turn?.current?.id === id) turn.current.cancel();
  tell({ cancel: id });
  if (!(await withRecordingLock(id, AbortSignal.timeout(DISCARD_WAIT_MS), discard))) {
    throw new Error(s.busyElsewhere);
  }
}

/**
 * Goes on at once (a recording queued, the `online` event, Resume), starting the backoff again;
 * what waits for the network shows as waiting until the network answers.
 */
function retryNow() {
  const t = turn;
  if (!t?.uploader) return;
  // A wait with an upload in flight is tus-js-client's: that upload starts again now too.
  const inFlightWaits = t.current !== null && uploadQueue.waitingUntil !== null;
  if (t.retryTimer) clearTimeout(t.retryTimer);
  t.retryTimer = null;
  t.attempt = 0;
  if (inFlightWaits || uploadQueue.recordings.some(toRegister)) t.current?.pause?.();
  void run(t);
}

/** A queued recording whose inspection or capture data the server does not have yet. */
const toRegister = (r: RecordingSummary) =>
  r.state === 'queued' && (!r.inspectionId || !r.captureAttached);

/**
 * What the queue does next: registers the first recording that needs it, else uploads the first
 * queued; a recording first in line and alone to register goes on to its upload at once.
 */
function nextStep() {
  const queued = uploadQueue.recordings.filter((r) => r.state === 'queued');
  const registering = queued.filter(toRegister);
  const next = registering[0] ?? queued[0];
  return next && { id: next.id, upload: next === queued[0] && registering.length <= 1 };
}

async function run(t: Turn): Promise<void> {
  if (t.running || !t.uploader) return;
  t.running = true;
  try {
    // Until nothing is queued, the turn ends, or a failure waits for the network.
    while (holds(t) && !t.retryTimer) {
      const next = nextStep();
      if (!next) {
        // Nothing is queued: nothing waits for the network.
        answered();
        return;
      }
      await withRecordingLock(next.id, t.controller.signal, () => attempt(next.id, next.upload, t));
    }
  } finally {
    t.running = false;
  }
}

/**
 * One try at a queued recording, holding its lock: no other tab changes it meanwhile. Without
 * `upload`, it is only registered, and waits queued for its upload.
 */
async function attempt(id: string, upload: boolean, t: Turn): Promise<void> {
  const recording = await loadRecording(id);
  if (!holds(t)) return;
  if (!recording) {
    forget(id);
    return;
  }
  // Changed by another tab since it was listed here.
  if (recording.state !== 'queued') {
    publish(recording);
    return;
  }
  const before = { state: recording.state, error: recording.error };
  const stop = new AbortController();
  const pause = upload ? () => stop.abort(PAUSED) : null;
  t.current = { id, cancel: () => stop.abort(), pause };
  try {
    await process(recording, upload, t, stop.signal);
    t.attempt = 0;
  } catch (error) {
    if (!holds(t)) {
      await putBack(recording.id, before);
      return;
    }
    // Its upload resumes where it was once the other recording is registered.
    if (stop.signal.reason === PAUSED) {
      await update(recording, { state: 'queued' });
      showIdle(id);
      return;
    }
    // Discarded while in flight: the discard goes on once this lets go of the recording.
    if (error instanceof Cancelled || stop.signal.aborted) return;
    if (error instanceof Refused) {
      await update(recording, { state: 'failed', error: error.message });
      return;
    }
    await update(recording, { state: 'queued', error: messageOf(error) });
    // The turn may have ended meanwhile: its user's queue must not wait on in the next one's.
    if (!holds(t)) return;
    showIdle(id);
    const delay = BACKOFF_MS[Math.min(t.attempt, BACKOFF_MS.length - 1)] ?? 60_000;
    t.attempt += 1;
    setWaiting(Date.now() + delay);
    // Not retryNow: the next failure waits longer (2 s → 60 s).
    t.retryTimer = setTimeout(() => {
      t.retryTimer = null;
      void run(t);
    }, delay);
  } finally {
    t.current = null;
  }
}

/** While it waits, the last speed and time left no longer say anything; what was sent does. */
function showIdle(id: string) {
  const shown = uploadQueue.progress[id];
  if (shown) setProgress(id, { ...shown, bytesPerSecond: null, secondsLeft: null });
}

/**
 * The user's turn ended while one of their recordings was in flight: it waits, in the state it
 * had, for its user (unless that user is back already, whose new turn took it up).
 */
async function putBack(id: string, before: Pick<LocalRecording, 'state' | 'error'>) {
  const stored = await loadRecording(id);
  if (stored?.state !== 'uploading' || turn?.userId === stored.userId) return;
  await saveRecording({ ...stored, ...before });
}

function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? error.message;
  if (error instanceof DetailedError) {
    const response = error.originalResponse;
    if (!response) return s.noConnection;
    return serverMessageOf(response.getBody() ?? '') ?? s.uploadRefused(response.getStatus());
  }
  return errorText(error);
}

/** 4xx answers other than timeouts and rate limits will not change by retrying. */
const permanent = (status: number) =>
  status >= 400 && status < 500 && status !== 408 && status !== 429;

async function process(
  recording: LocalRecording,
  upload: boolean,
  t: Turn,
  signal: AbortSignal,
): Promise<void> {
  still(t, signal);
  // While the network is waited for, why it is stays said: the retry may fail the same way.
  const networkError = uploadQueue.waitingUntil === null ? null : recording.error;
  await update(recording, { state: 'uploading', error: networkError });
  try {
    if (!recording.inspectionId) await submit(recording, t, signal);
    if (!recording.captureAttached) await attachCapture(recording, t, signal);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw error;
    if (error instanceof ApiError && permanent(error.status)) {
      // "body.productLeaving must not …" in words: the operator can correct it on the dashboard.
      throw new Refused(describeRefusal(error.serverMessage ?? error.message).text);
    }
    throw error;
  }
  if (!upload) {
    await update(recording, { state: 'queued' });
    return;
  }
  if (!recording.sha256) {
    const sha256 = await sha256OfParts(await loadChunks(recording.id));
    still(t, signal);
    await update(recording, { sha256 });
  }
  await uploadFile(recording, t, signal);
  still(t, signal);
  answered();
  await deleteRecording(recording.id);
  forget(recording.id);
  tell({ changed: recording.id });
  uploadQueue.verifiedCount += 1;
}

async function submit(recording: LocalRecording, t: Turn, signal: AbortSignal) {
  // A recording stored before the form kept the server's limits: say what to correct, unsent.
  const problem = entriesProblem(recording);
  if (problem) throw new Refused(problem);
  const body: InspectionCreate = {
    clientRef: recording.id,
    lineClearanceId: recording.lineId,
    productLeaving: recording.productLeaving,
    batchLeaving: recording.batchLeaving,
    productComing: recording.productComing,
    batchComing: recording.batchComing,
    operatorNotes: recording.notes,
    startTime: recording.startedAt,
    endTime: recordedEnd(recording),
    deviceId: recording.deviceId,
    video: { container: recording.container, duration: recording.duration },
  };
  still(t, signal);
  const created = await api.post<InspectionCreated>('/api/inspections', body, { signal });
  still(t, signal);
  answered();
  await update(recording, { inspectionId: created.inspection._id, videoId: created.videoId });
}

async function attachCapture(recording: LocalRecording, t: Turn, signal: AbortSignal) {
  still(t, signal);
  await api.put(
    `/api/inspections/${segment(recording.inspectionId ?? '')}/capture`,
    keptCapture(recording),
    { signal },
  );
  still(t, signal);
  answered();
  await update(recording, { captureAttached: true });
}

async function uploadFile(recording: LocalRecording, t: Turn, signal: AbortSignal): Promise<void> {
  const file = new Blob(await loadChunks(recording.id), { type: recording.mimeType });
  const samples: ProgressSample[] = [];
  // While the network is waited for (the queue's retry, or tus-js-client's of a failed request),
  // the bytes sent when it failed: bytes going past them say that it is back.
  let waitingAt =
    uploadQueue.waitingUntil === null ? null : (uploadQueue.progress[recording.id]?.sent ?? 0);
  try {
    await new Promise<void>((resolve, reject) => {
      const upload = new Upload(file, {
        endpoint: UPLOAD_ENDPOINT,
        uploadUrl: recording.uploadUrl,
        chunkSize: uploadChunkBytes(file.size),
        retryDelays: [0, 1000, 3000, 5000],
        storeFingerprintForResuming: false,
        // The token read for each request, and only while its user is still signed in: another
        // user's token must never reach this user's upload.
        onBeforeRequest: (request) => {
          const token = holds(t) ? storedAccessToken() : null;
          request.setHeader('Authorization', `Bearer ${token ?? ''}`);
        },
        metadata: {
          videoId: recording.videoId ?? '',
          sha256: recording.sha256 ?? '',
          filetype: recording.mimeType,
          filename: `${recording.id}.${recording.container}`,
        },
        onUploadUrlAvailable: () => {
          if (holds(t)) void update(recording, { uploadUrl: upload.url });
        },
        onShouldRetry: (error, attempt, options) => {
          const retry = defaultOptions.onShouldRetry?.(error, attempt, options) ?? false;
          if (retry && holds(t)) {
            waitingAt = Math.max(waitingAt ?? 0, uploadQueue.progress[recording.id]?.sent ?? 0);
            samples.length = 0;
            showIdle(recording.id);
            setWaiting(Date.now() + (options.retryDelays?.[attempt] ?? 0));
          }
          return retry;
        },
        onProgress: (sent, total) => {
          if (!holds(t)) return;
          if (waitingAt !== null && sent <= waitingAt) {
            setProgress(recording.id, { sent, total, bytesPerSecond: null, secondsLeft: null });
            return;
          }
          if (waitingAt !== null) answered();
          waitingAt = null;
          samples.push({ at: performance.now(), sent });
          setProgress(recording.id, progressOf(samples, total));
        },
        onSuccess: () => resolve(),
        onError: reject,
      });
      // tus-js-client's abort settles nothing: the cancel does.
      signal.addEventListener(
        'abort',
        () => {
          void upload.abort();
          reject(new Cancelled('Upload cancelled'));
        },
        { once: true },
      );
      still(t, signal);
      upload.start();
    });
  } catch (error) {
    if (error instanceof Cancelled) throw error;
    const status = error instanceof DetailedError ? error.originalResponse?.getStatus() : undefined;
    // The session ended (spec §4): signed out as by any other call; the recording waits for its
    // user to sign in again.
    if (status === 401) endSession();
    still(t, signal);
    if (status === CHECKSUM_MISMATCH) {
      // The server kept nothing: the next try is a new upload of the device's copy.
      await update(recording, { uploadUrl: null });
      throw new Refused(s.checksumMismatch);
    }
    if (status === 409 && (await serverHasFile(recording, t, signal))) return;
    if (status !== undefined && permanent(status)) throw new Refused(messageOf(error));
    throw error;
  }
}

/** Whether the server already holds this recording's file, verified with the same hash. */
async function serverHasFile(
  recording: LocalRecording,
  t: Turn,
  signal: AbortSignal,
): Promise<boolean> {
  still(t, signal);
  const found = await findMyInspection(recording.inspectionId ?? '', signal);
  return found?.video?.sha256 === recording.sha256;
}
