// The device's queue of submitted recordings (docs/capture.md). Each goes through three calls,
// each safe to repeat: submit the inspection (POST /api/inspections with the recording's id as
// clientRef), attach its capture data, upload the file by tus (resuming the same upload after a
// cut, a reload or a browser restart). Only when the server has verified the SHA-256 is the
// local copy deleted. A network failure waits (backoff, or the `online` event) and goes on.
//
// The queue works for the signed-in user only (a shared phone has several): each user's turn ends
// on sign-out or a change of user, cancelling the call or upload in flight and the retry timer,
// and leaves that user's recordings as they were, to resume when that user signs in again.
import { DetailedError, Upload } from 'tus-js-client';
import { proxy, subscribe } from 'valtio';
import { session, storedAccessToken } from '../../stores/session.ts';
import type { InspectionCreate, InspectionCreated, MyInspection } from '../../types/api.ts';
import { ApiError, api, segment } from '../api-client.ts';
import {
  deleteRecording,
  type LocalRecording,
  listRecordings,
  loadChunks,
  loadRecording,
  recordedEnd,
  saveRecording,
} from './recording-db.ts';
import { describeRefusal, entriesProblem, type RecordingEntries } from './recording-entries.ts';
import { sha256OfParts } from './sha256-client.ts';
import { uploadChunkBytes } from './upload-chunks.ts';
import { type ProgressSample, progressOf } from './upload-progress.ts';

export const UPLOAD_ENDPOINT = '/api/uploads';
/** The server's 'checksum mismatch' (server/schemas/uploads.ts). */
const CHECKSUM_MISMATCH = 460;
const BACKOFF_MS = [2000, 5000, 10_000, 30_000, 60_000];

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
  | 'productLeaving'
  | 'batchLeaving'
  | 'productComing'
  | 'batchComing'
  | 'notes'
>;

/** What the screens show: this user's recordings on the device and the running upload's progress. */
export const uploadQueue = proxy({
  recordings: [] as RecordingSummary[],
  progress: {} as Record<string, UploadStatus>,
  /** The id of the recording the queue waits to retry, and when. */
  waitingUntil: null as number | null,
  /** Bumped when an upload is verified (the dashboard reloads its lists). */
  verifiedCount: 0,
});

/** One signed-in user's time at the queue; it ends on sign-out or when another user signs in. */
interface Turn {
  userId: string;
  /** Aborted when the turn ends: calls in flight are cancelled. */
  controller: AbortController;
  running: boolean;
  attempt: number;
  retryTimer: ReturnType<typeof setTimeout> | null;
  /** The tus upload in flight, and how to cancel it (tus-js-client's abort settles nothing). */
  current: { id: string; upload: Upload | null; cancel: () => void } | null;
}

let turn: Turn | null = null;
let watchingSession = false;
/** Recordings a page is writing right now: not interrupted ones. */
const active = new Set<string>();

/** A refusal the queue must not retry by itself: the operator decides (Resume or Discard). */
class Refused extends Error {}
/** The turn ended (sign-out, another user) or the recording was discarded while in flight. */
class Cancelled extends Error {}

/** Whether `t` is still the queue's turn and its user still the signed-in one. */
const holds = (t: Turn) => turn === t && session.info?.id === t.userId;

/** Throws Cancelled unless `t` may still act: checked right before every call and every write. */
function still(t: Turn) {
  if (!holds(t)) {
    if (turn === t) endTurn();
    throw new Cancelled('The upload queue stopped');
  }
}

function publish(recording: LocalRecording) {
  const list = uploadQueue.recordings.filter((r) => r.id !== recording.id);
  if (turn && recording.userId === turn.userId && recording.state !== 'done') {
    // Plain fields only: valtio proxies nested objects in place, and IndexedDB cannot store proxies.
    const { id, lineName, startedAt, size, duration, state, error, videoId, inspectionId } =
      recording;
    const { productLeaving, batchLeaving, productComing, batchComing, notes } = recording;
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
      productLeaving,
      batchLeaving,
      productComing,
      batchComing,
      notes,
    });
  }
  list.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  uploadQueue.recordings = list;
}

async function update(recording: LocalRecording, change: Partial<LocalRecording>) {
  Object.assign(recording, change);
  await saveRecording(recording);
  publish(recording);
}

/** Marks a recording as being written by this page (so it is not taken for an interrupted one). */
export function markActive(id: string, isActive: boolean) {
  if (isActive) active.add(id);
  else active.delete(id);
}

/**
 * Loads the signed-in user's recordings and starts uploading what was submitted; safe to call
 * again. Another user's turn ends first; `forUser` must be the signed-in user.
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
    running: false,
    attempt: 0,
    retryTimer: null,
    current: null,
  };
  turn = t;
  window.addEventListener('online', retryNow);
  const all = await listRecordings();
  for (const recording of all) {
    if (!holds(t)) return;
    if (recording.userId !== forUser) continue;
    // A recording left in 'recording' by a closed tab or a crash is kept as recorded, ending
    // where its stored data ends.
    if (recording.state === 'recording' && !active.has(recording.id)) {
      await update(recording, {
        state: 'recorded',
        error: 'Recording interrupted',
        duration: recordedSeconds(recording),
        endedAt: recordedEnd(recording),
      });
    } else if (recording.state === 'uploading') {
      await update(recording, { state: 'queued' });
    } else {
      publish(recording);
    }
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
  window.removeEventListener('online', retryNow);
  uploadQueue.recordings = [];
  uploadQueue.progress = {};
  uploadQueue.waitingUntil = null;
}

/** Seconds an interrupted recording holds: the recorder's count, or the last sample it kept. */
function recordedSeconds(recording: LocalRecording): number {
  const lastScan = recording.scans.at(-1)?.videoTime ?? 0;
  const lastMotion = recording.motion?.t.at(-1) ?? 0;
  return Math.max(recording.duration, lastScan, lastMotion);
}

/** Publishes a recording the page changed (e.g. a new chunk), without queueing it. */
export function showRecording(recording: LocalRecording) {
  publish(recording);
}

/** The operator submitted (or resumed) a recording: queue it and start at once. */
export async function queueRecording(recording: LocalRecording): Promise<void> {
  await update(recording, { state: 'queued', error: null });
  retryNow();
}

export async function resumeRecording(id: string): Promise<void> {
  const recording = await loadRecording(id);
  if (recording && recording.userId === turn?.userId) await queueRecording(recording);
}

/**
 * Corrects what the operator typed about a recording the server has not yet accepted (e.g. a
 * field a submit was refused for), then queues it again. The video and everything sensed stay as
 * recorded. Refused once the inspection exists on the server: its fields are kept there.
 */
export async function correctRecording(id: string, entries: RecordingEntries): Promise<void> {
  const recording = await loadRecording(id);
  if (!recording || recording.userId !== turn?.userId) throw new Error('Recording not found');
  if (recording.inspectionId) throw new Error('The inspection was already submitted');
  const problem = entriesProblem(entries);
  if (problem) throw new Error(problem);
  const { productLeaving, batchLeaving, productComing, batchComing, notes } = entries;
  Object.assign(recording, { productLeaving, batchLeaving, productComing, batchComing, notes });
  await queueRecording(recording);
}

/**
 * Forgets a recording on this device. If the server already knew it (its inspection was
 * created), the server records the discard (audit) first; without the network that fails and the
 * recording stays. A 409 says the video already has a verified file (another upload, or one
 * posted through the ingestion API): the record does not need this copy, so it goes.
 */
export async function discardRecording(id: string): Promise<void> {
  const recording = await loadRecording(id);
  if (!recording || recording.userId !== session.info?.id) return;
  if (turn?.current?.id === id) turn.current.cancel();
  if (recording.videoId) {
    try {
      await api.post(`/api/videos/${segment(recording.videoId)}/discard`);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
    }
  }
  await deleteRecording(id);
  uploadQueue.recordings = uploadQueue.recordings.filter((r) => r.id !== id);
  delete uploadQueue.progress[id];
}

function retryNow() {
  const t = turn;
  if (!t) return;
  if (t.retryTimer) clearTimeout(t.retryTimer);
  t.retryTimer = null;
  uploadQueue.waitingUntil = null;
  t.attempt = 0;
  void run(t);
}

async function run(t: Turn): Promise<void> {
  if (t.running) return;
  t.running = true;
  try {
    while (holds(t)) {
      const next = uploadQueue.recordings.find((r) => r.state === 'queued');
      if (!next) return;
      const recording = await loadRecording(next.id);
      if (!holds(t)) return;
      if (!recording) {
        uploadQueue.recordings = uploadQueue.recordings.filter((r) => r.id !== next.id);
        continue;
      }
      const before = { state: recording.state, error: recording.error };
      try {
        await process(recording, t);
        t.attempt = 0;
      } catch (error) {
        if (!holds(t)) {
          await putBack(recording.id, before);
          return;
        }
        if (error instanceof Cancelled) continue; // discarded while uploading
        if (error instanceof Refused) {
          await update(recording, { state: 'failed', error: error.message });
          continue;
        }
        await update(recording, { state: 'queued', error: messageOf(error) });
        const delay = BACKOFF_MS[Math.min(t.attempt, BACKOFF_MS.length - 1)] ?? 60_000;
        t.attempt += 1;
        uploadQueue.waitingUntil = Date.now() + delay;
        t.retryTimer = setTimeout(retryNow, delay);
        return;
      }
    }
  } finally {
    t.running = false;
  }
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
    const status = error.originalResponse?.getStatus();
    const body = error.originalResponse?.getBody()?.trim();
    return status ? `${body || 'Upload refused'} (${status})` : 'No connection to the server';
  }
  return error instanceof Error ? error.message : String(error);
}

/** 4xx answers other than timeouts and rate limits will not change by retrying. */
const permanent = (status: number) =>
  status >= 400 && status < 500 && status !== 408 && status !== 429;

async function process(recording: LocalRecording, t: Turn): Promise<void> {
  still(t);
  await update(recording, { state: 'uploading', error: null });
  try {
    if (!recording.inspectionId) await submit(recording, t);
    if (!recording.captureAttached) await attachCapture(recording, t);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw error;
    if (error instanceof ApiError && permanent(error.status)) {
      // "body.productLeaving must not …" in words: the operator can correct it on the dashboard.
      throw new Refused(describeRefusal(error.serverMessage ?? error.message).text);
    }
    throw error;
  }
  if (!recording.sha256) {
    const sha256 = await sha256OfParts(await loadChunks(recording.id));
    still(t);
    await update(recording, { sha256 });
  }
  await uploadFile(recording, t);
  still(t);
  await deleteRecording(recording.id);
  uploadQueue.recordings = uploadQueue.recordings.filter((r) => r.id !== recording.id);
  delete uploadQueue.progress[recording.id];
  uploadQueue.verifiedCount += 1;
}

async function submit(recording: LocalRecording, t: Turn) {
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
  still(t);
  const created = await api.post<InspectionCreated>('/api/inspections', body, {
    signal: t.controller.signal,
  });
  still(t);
  await update(recording, { inspectionId: created.inspection._id, videoId: created.videoId });
}

async function attachCapture(recording: LocalRecording, t: Turn) {
  still(t);
  await api.put(
    `/api/inspections/${segment(recording.inspectionId ?? '')}/capture`,
    { scans: recording.scans, motion: recording.motion },
    { signal: t.controller.signal },
  );
  still(t);
  await update(recording, { captureAttached: true });
}

async function uploadFile(recording: LocalRecording, t: Turn): Promise<void> {
  const file = new Blob(await loadChunks(recording.id), { type: recording.mimeType });
  const samples: ProgressSample[] = [];
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
        onProgress: (sent, total) => {
          samples.push({ at: performance.now(), sent });
          if (holds(t)) uploadQueue.progress[recording.id] = progressOf(samples, total);
        },
        onSuccess: () => resolve(),
        onError: reject,
      });
      t.current = {
        id: recording.id,
        upload,
        cancel: () => {
          void upload.abort();
          reject(new Cancelled('Upload cancelled'));
        },
      };
      still(t);
      upload.start();
    });
  } catch (error) {
    if (error instanceof Cancelled) throw error;
    const status = error instanceof DetailedError ? error.originalResponse?.getStatus() : undefined;
    still(t);
    if (status === CHECKSUM_MISMATCH) {
      // The server kept nothing: the next try is a new upload of the device's copy.
      await update(recording, { uploadUrl: null });
      throw new Refused(
        'The server received a different file than was recorded: tap Resume to upload it again',
      );
    }
    if (status === 409 && (await serverHasFile(recording, t))) return;
    if (status !== undefined && permanent(status)) throw new Refused(messageOf(error));
    throw error;
  } finally {
    if (t.current?.id === recording.id) t.current = null;
  }
}

/** Whether the server already holds this recording's file, verified with the same hash. */
async function serverHasFile(recording: LocalRecording, t: Turn): Promise<boolean> {
  still(t);
  const mine = await api.get<MyInspection[]>('/api/my/inspections?limit=200', {
    signal: t.controller.signal,
  });
  const found = mine.find((m) => m.inspection._id === recording.inspectionId);
  return found?.video?.sha256 === recording.sha256;
}
