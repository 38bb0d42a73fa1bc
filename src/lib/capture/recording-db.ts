// Recordings kept on the device (IndexedDB) until the server has verified their upload: the
// recorder's chunks as they arrive, and one record per recording with what was entered, scanned
// and sensed, and how far its upload got. A closed tab or a crash loses at most the last chunk.
import type { ChecklistSnapshot, MotionSamples, QrScan } from '../../types/api.ts';

/**
 * recording: the recorder is writing chunks · recorded: stopped, not submitted (or interrupted) ·
 * queued: submitted, waiting for the network · uploading · failed: needs the operator (a refusal
 * the queue cannot retry by itself) · done: verified by the server.
 */
export type RecordingState = 'recording' | 'recorded' | 'queued' | 'uploading' | 'failed' | 'done';

export interface LocalRecording {
  /** Also the inspection's clientRef: a retried submit answers the same inspection. */
  id: string;
  userId: string;
  lineId: string;
  lineName: string;
  productLeaving: string;
  batchLeaving: string;
  productComing: string;
  batchComing: string;
  notes: string;
  deviceId: string | null;
  checklist: ChecklistSnapshot;
  startedAt: string;
  /** When Stop was tapped; null while recording, and for a recording interrupted before Stop. */
  endedAt: string | null;
  /** When the last chunk was stored (the end of what an interrupted recording kept). */
  lastChunkAt?: string | null;
  /**
   * Seconds recorded, pauses excluded: what the stored chunks cover (stored with each chunk, so a
   * crash keeps it), then Stop's count.
   */
  duration: number;
  mimeType: string;
  container: 'webm' | 'mp4';
  size: number;
  chunkCount: number;
  /** SHA-256 of the whole recording, known when it stopped (or recomputed from the chunks). */
  sha256: string | null;
  scans: QrScan[];
  motion: MotionSamples | null;
  state: RecordingState;
  inspectionId: string | null;
  videoId: string | null;
  captureAttached: boolean;
  /** The tus upload's URL, kept so that a reload resumes the same upload. */
  uploadUrl: string | null;
  error: string | null;
}

/** What the operator chose before recording; everything else starts empty. */
export type RecordingStart = Pick<
  LocalRecording,
  | 'id'
  | 'userId'
  | 'lineId'
  | 'lineName'
  | 'productLeaving'
  | 'batchLeaving'
  | 'productComing'
  | 'batchComing'
  | 'deviceId'
  | 'checklist'
>;

/**
 * A new recording's id, also its inspection's clientRef: 32 random hex digits. Not
 * `crypto.randomUUID`, which browsers offer only on https pages: on plain http the inspection
 * screen must still reach the camera step, which says the camera needs https.
 */
export function newRecordingId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export const newRecording = (start: RecordingStart): LocalRecording => ({
  ...start,
  notes: '',
  startedAt: new Date().toISOString(),
  endedAt: null,
  lastChunkAt: null,
  duration: 0,
  mimeType: '',
  container: 'webm',
  size: 0,
  chunkCount: 0,
  sha256: null,
  scans: [],
  motion: null,
  state: 'recording',
  inspectionId: null,
  videoId: null,
  captureAttached: false,
  uploadUrl: null,
  error: null,
});

const DB_NAME = 'line-clearance-capture';
const RECORDINGS = 'recordings';
const CHUNKS = 'chunks';

interface StoredChunk {
  recordingId: string;
  index: number;
  data: Blob;
}

let opened: Promise<IDBDatabase> | null = null;

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function committed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error ?? new Error('transaction aborted'));
  });
}

function database(): Promise<IDBDatabase> {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore(RECORDINGS, { keyPath: 'id' });
      db.createObjectStore(CHUNKS, { keyPath: ['recordingId', 'index'] });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => {
      opened = null;
      reject(request.error);
    };
  });
  return opened;
}

const range = (recordingId: string) =>
  IDBKeyRange.bound([recordingId, 0], [recordingId, Number.MAX_SAFE_INTEGER]);

export async function saveRecording(recording: LocalRecording): Promise<void> {
  const tx = (await database()).transaction(RECORDINGS, 'readwrite');
  tx.objectStore(RECORDINGS).put(recording);
  await committed(tx);
}

export async function loadRecording(id: string): Promise<LocalRecording | undefined> {
  const tx = (await database()).transaction(RECORDINGS);
  return done(tx.objectStore(RECORDINGS).get(id) as IDBRequest<LocalRecording | undefined>);
}

export async function listRecordings(): Promise<LocalRecording[]> {
  const tx = (await database()).transaction(RECORDINGS);
  const all = await done(tx.objectStore(RECORDINGS).getAll() as IDBRequest<LocalRecording[]>);
  return all.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/**
 * Stores the recorder's next chunk with the recording's new size and the seconds it now covers
 * (`covers`), in one transaction. The recording in memory takes them only once it committed: a
 * refused write (a full phone) changes nothing, here or in what is saved later.
 */
export async function appendChunk(
  recording: LocalRecording,
  data: Blob,
  covers: number,
): Promise<void> {
  const tx = (await database()).transaction([RECORDINGS, CHUNKS], 'readwrite');
  const chunk: StoredChunk = { recordingId: recording.id, index: recording.chunkCount, data };
  const grown = {
    chunkCount: recording.chunkCount + 1,
    size: recording.size + data.size,
    lastChunkAt: new Date().toISOString(),
    duration: Math.max(recording.duration, covers),
  };
  tx.objectStore(CHUNKS).put(chunk);
  tx.objectStore(RECORDINGS).put({ ...recording, ...grown });
  await committed(tx);
  Object.assign(recording, grown);
}

/**
 * Stores what was scanned and sensed so far while recording, and nothing else: the chunks' count,
 * size and length stay as the chunk writes stored them (a chunk write still in flight included).
 */
export async function saveCapture(recording: LocalRecording): Promise<void> {
  const tx = (await database()).transaction(RECORDINGS, 'readwrite');
  const store = tx.objectStore(RECORDINGS);
  const { scans, motion } = recording;
  const request = store.get(recording.id) as IDBRequest<LocalRecording | undefined>;
  request.onsuccess = () => {
    if (request.result) store.put({ ...request.result, scans, motion });
  };
  await committed(tx);
}

/**
 * Scans within the stored video. One made after its end (a write failed, the tab closed before its
 * chunk was stored) points where there is no video: it is left out of the submission.
 */
export const keptScans = (recording: Pick<LocalRecording, 'scans' | 'duration'>) =>
  recording.scans.filter((scan) => scan.videoTime <= recording.duration);

/**
 * The capture data within the stored video: its scans, and its motion samples up to the video's
 * end (their times never decrease). Samples past it describe a walk no video shows, and the
 * server refuses them beyond a few seconds.
 */
export function keptCapture(recording: Pick<LocalRecording, 'scans' | 'motion' | 'duration'>) {
  const { motion, duration } = recording;
  if (!motion) return { scans: keptScans(recording), motion };
  const end = motion.t.findIndex((t) => t > duration);
  const cut = <T>(column: T[]) => (end < 0 ? column : column.slice(0, end));
  return {
    scans: keptScans(recording),
    motion: {
      ...motion,
      t: cut(motion.t),
      ax: cut(motion.ax),
      ay: cut(motion.ay),
      az: cut(motion.az),
      alpha: cut(motion.alpha),
      beta: cut(motion.beta),
      gamma: cut(motion.gamma),
    },
  };
}

/**
 * When the recording really ended, on the device's clock: Stop's time; for one interrupted before
 * Stop (a closed tab, a crash), the time its last chunk was stored, which counts pauses as the
 * wall clock does; for one stored before that was kept, its start plus the seconds recorded.
 */
export function recordedEnd(recording: LocalRecording): string {
  if (recording.endedAt) return recording.endedAt;
  if (recording.lastChunkAt) return recording.lastChunkAt;
  return new Date(Date.parse(recording.startedAt) + recording.duration * 1000).toISOString();
}

/** The recording's chunks in order (Blobs backed by the browser's storage, not by memory). */
export async function loadChunks(recordingId: string): Promise<Blob[]> {
  const tx = (await database()).transaction(CHUNKS);
  const chunks = await done(
    tx.objectStore(CHUNKS).getAll(range(recordingId)) as IDBRequest<StoredChunk[]>,
  );
  return chunks.map((chunk) => chunk.data);
}

/** Removes the recording and its chunks (after the server verified it, or a confirmed discard). */
export async function deleteRecording(id: string): Promise<void> {
  const tx = (await database()).transaction([RECORDINGS, CHUNKS], 'readwrite');
  tx.objectStore(CHUNKS).delete(range(id));
  tx.objectStore(RECORDINGS).delete(id);
  await committed(tx);
}

/** Closes the connection (tests reopen it as a reload would). */
export async function closeRecordingDb(): Promise<void> {
  if (!opened) return;
  const db = await opened;
  opened = null;
  db.close();
}
