// The device's queue of submitted recordings (docs/capture.md). Each goes through three calls,
// each safe to repeat: submit the inspection (POST /api/inspections with the recording's id as
// clientRef), attach its capture data, upload the file by tus (resuming the same upload after a
// cut, a reload or a browser restart). Only when the server has verified the SHA-256 is the
// local copy deleted. A network failure waits (backoff, or the `online` event) and goes on.
import { DetailedError, Upload } from 'tus-js-client';
import { proxy } from 'valtio';
import { storedAccessToken } from '../../stores/session.ts';
import type { InspectionCreate, InspectionCreated, MyInspection } from '../../types/api.ts';
import { ApiError, api, segment } from '../api-client.ts';
import {
  deleteRecording,
  type LocalRecording,
  listRecordings,
  loadChunks,
  loadRecording,
  saveRecording,
} from './recording-db.ts';
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
  'id' | 'lineName' | 'startedAt' | 'size' | 'duration' | 'state' | 'error' | 'videoId'
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

let userId: string | null = null;
let running = false;
let attempt = 0;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let current: { id: string; upload: Upload | null } | null = null;
/** Recordings a page is writing right now: not interrupted ones. */
const active = new Set<string>();

/** A refusal the queue must not retry by itself: the operator decides (Resume or Discard). */
class Refused extends Error {}

function publish(recording: LocalRecording) {
  const list = uploadQueue.recordings.filter((r) => r.id !== recording.id);
  if (recording.userId === userId && recording.state !== 'done') {
    // Plain fields only: valtio proxies nested objects in place, and IndexedDB cannot store proxies.
    const { id, lineName, startedAt, size, duration, state, error, videoId } = recording;
    list.push({ id, lineName, startedAt, size, duration, state, error, videoId });
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

/** Loads this user's recordings and starts uploading what was submitted; safe to call again. */
export async function startUploadQueue(forUser: string): Promise<void> {
  if (userId === forUser) return;
  userId = forUser;
  const all = await listRecordings();
  for (const recording of all) {
    if (recording.userId !== forUser) continue;
    // A recording left in 'recording' by a closed tab or a crash is kept as recorded.
    if (recording.state === 'recording' && !active.has(recording.id)) {
      await update(recording, { state: 'recorded', error: 'Recording interrupted' });
    } else if (recording.state === 'uploading') {
      await update(recording, { state: 'queued' });
    } else {
      publish(recording);
    }
  }
  window.addEventListener('online', retryNow);
  void run();
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
  if (recording) await queueRecording(recording);
}

/**
 * Forgets a recording on this device. If the server already knew it (its inspection was
 * created), the server records the discard (audit) first; without the network that fails and the
 * recording stays. A 409 says the video already has a verified file (another upload, or one
 * posted through the ingestion API): the record does not need this copy, so it goes.
 */
export async function discardRecording(id: string): Promise<void> {
  const recording = await loadRecording(id);
  if (!recording) return;
  if (current?.id === id) {
    await current.upload?.abort();
  }
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
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  uploadQueue.waitingUntil = null;
  attempt = 0;
  void run();
}

async function run(): Promise<void> {
  if (running || userId === null) return;
  running = true;
  try {
    for (;;) {
      const next = uploadQueue.recordings.find((r) => r.state === 'queued');
      if (!next) return;
      const recording = await loadRecording(next.id);
      if (!recording) {
        uploadQueue.recordings = uploadQueue.recordings.filter((r) => r.id !== next.id);
        continue;
      }
      try {
        await process(recording);
        attempt = 0;
      } catch (error) {
        if (error instanceof Refused) {
          await update(recording, { state: 'failed', error: error.message });
          continue;
        }
        await update(recording, { state: 'queued', error: messageOf(error) });
        const delay = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)] ?? 60_000;
        attempt += 1;
        uploadQueue.waitingUntil = Date.now() + delay;
        retryTimer = setTimeout(retryNow, delay);
        return;
      }
    }
  } finally {
    running = false;
  }
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

async function process(recording: LocalRecording): Promise<void> {
  await update(recording, { state: 'uploading', error: null });
  try {
    if (!recording.inspectionId) await submit(recording);
    if (!recording.captureAttached) await attachCapture(recording);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw error;
    if (error instanceof ApiError && permanent(error.status)) {
      throw new Refused(error.serverMessage ?? error.message);
    }
    throw error;
  }
  if (!recording.sha256) {
    await update(recording, { sha256: await sha256OfParts(await loadChunks(recording.id)) });
  }
  await uploadFile(recording);
  await deleteRecording(recording.id);
  uploadQueue.recordings = uploadQueue.recordings.filter((r) => r.id !== recording.id);
  delete uploadQueue.progress[recording.id];
  uploadQueue.verifiedCount += 1;
}

async function submit(recording: LocalRecording) {
  const body: InspectionCreate = {
    clientRef: recording.id,
    lineClearanceId: recording.lineId,
    productLeaving: recording.productLeaving,
    batchLeaving: recording.batchLeaving,
    productComing: recording.productComing,
    batchComing: recording.batchComing,
    operatorNotes: recording.notes,
    startTime: recording.startedAt,
    endTime: recording.endedAt ?? recording.startedAt,
    deviceId: recording.deviceId,
    video: { container: recording.container, duration: recording.duration },
  };
  const created = await api.post<InspectionCreated>('/api/inspections', body);
  await update(recording, { inspectionId: created.inspection._id, videoId: created.videoId });
}

async function attachCapture(recording: LocalRecording) {
  await api.put(`/api/inspections/${segment(recording.inspectionId ?? '')}/capture`, {
    scans: recording.scans,
    motion: recording.motion,
  });
  await update(recording, { captureAttached: true });
}

async function uploadFile(recording: LocalRecording): Promise<void> {
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
        headers: { Authorization: `Bearer ${storedAccessToken() ?? ''}` },
        metadata: {
          videoId: recording.videoId ?? '',
          sha256: recording.sha256 ?? '',
          filetype: recording.mimeType,
          filename: `${recording.id}.${recording.container}`,
        },
        onUploadUrlAvailable: () => {
          void update(recording, { uploadUrl: upload.url });
        },
        onProgress: (sent, total) => {
          samples.push({ at: performance.now(), sent });
          uploadQueue.progress[recording.id] = progressOf(samples, total);
        },
        onSuccess: () => resolve(),
        onError: reject,
      });
      current = { id: recording.id, upload };
      upload.start();
    });
  } catch (error) {
    const status = error instanceof DetailedError ? error.originalResponse?.getStatus() : undefined;
    if (status === CHECKSUM_MISMATCH) {
      // The server kept nothing: the next try is a new upload of the device's copy.
      await update(recording, { uploadUrl: null });
      throw new Refused(
        'The server received a different file than was recorded: tap Resume to upload it again',
      );
    }
    if (status === 409 && (await serverHasFile(recording))) return;
    if (status !== undefined && permanent(status)) throw new Refused(messageOf(error));
    throw error;
  } finally {
    current = null;
  }
}

/** Whether the server already holds this recording's file, verified with the same hash. */
async function serverHasFile(recording: LocalRecording): Promise<boolean> {
  const mine = await api.get<MyInspection[]>('/api/my/inspections?limit=200');
  const found = mine.find((m) => m.inspection._id === recording.inspectionId);
  return found?.video?.sha256 === recording.sha256;
}
