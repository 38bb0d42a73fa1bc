// Records the camera with MediaRecorder in a container the browser supports, one chunk a second
// straight into IndexedDB and into the running SHA-256 (so a crash loses at most the last second
// and the hash is ready at Stop). Nothing of the video is kept in memory. The first failed write
// stops it: what was stored before is kept, and nothing after.
import { appendChunk, type LocalRecording } from '../../lib/capture/recording-db.ts';
import type { RunningSha256 } from '../../lib/capture/sha256-client.ts';

/** Preferred first: WebM (VP9, VP8) where supported, else MP4 H.264 (Safari). */
const TYPES = [
  { mimeType: 'video/webm;codecs=vp9', container: 'webm' },
  { mimeType: 'video/webm;codecs=vp8', container: 'webm' },
  { mimeType: 'video/webm', container: 'webm' },
  { mimeType: 'video/mp4;codecs=avc1', container: 'mp4' },
  { mimeType: 'video/mp4', container: 'mp4' },
] as const;

export type RecordingType = (typeof TYPES)[number];

export function pickRecordingType(): RecordingType | null {
  if (typeof MediaRecorder === 'undefined') return null;
  return TYPES.find((type) => MediaRecorder.isTypeSupported(type.mimeType)) ?? null;
}

const TIMESLICE_MS = 1000;

export class InspectionRecorder {
  private readonly recorder: MediaRecorder;
  /** Chunk writes in order; Stop waits for the last one. */
  private writes: Promise<void> = Promise.resolve();
  /** The first failed write: nothing after it is stored, so the video has no hole. */
  private failure: unknown = null;
  /** Whether the running hash took every stored chunk (not when hashing one failed). */
  private hashedAll = true;
  /** Active recording time before the current run, and when the current run started. */
  private recordedMs = 0;
  private runStartedAt: number | null = null;
  /** Settles on the recorder's `stop`: Stop's, or the browser's when the camera's track ended. */
  private readonly stopped: Promise<void>;

  constructor(
    stream: MediaStream,
    type: RecordingType,
    private readonly recording: LocalRecording,
    private readonly hash: RunningSha256,
    private readonly onChunk: () => void,
    /** A write failed and the recording stopped there (e.g. the phone's storage is full). */
    private readonly onFailure: (error: unknown) => void,
  ) {
    this.recorder = new MediaRecorder(stream, { mimeType: type.mimeType });
    this.stopped = new Promise((resolve) => {
      this.recorder.addEventListener('stop', () => resolve(), { once: true });
    });
    this.recorder.ondataavailable = (event) => {
      if (event.data.size === 0 || this.failure) return;
      const data = event.data;
      // Stored with the chunk: a recording cut short keeps how long its stored video is.
      const covers = Math.round(this.videoTime() * 1000) / 1000;
      this.writes = this.writes.then(() => this.store(data, covers));
    };
  }

  private async store(data: Blob, covers: number): Promise<void> {
    if (this.failure) return;
    try {
      await appendChunk(this.recording, data, covers);
    } catch (error) {
      this.fail(error);
      return;
    }
    try {
      await this.hash.update(data);
    } catch (error) {
      this.hashedAll = false;
      this.fail(error);
      return;
    }
    this.onChunk();
  }

  /**
   * A write failed (a chunk, or what was scanned): the recording stops at once and no later chunk
   * is stored, so what is kept is the video up to then, without a hole.
   */
  fail(error: unknown): void {
    if (this.failure) return;
    this.failure = error;
    this.pause();
    if (this.recorder.state !== 'inactive') this.recorder.stop();
    this.onFailure(error);
  }

  /** Seconds recorded so far (pauses excluded): the video's own clock. */
  videoTime(): number {
    const running = this.runStartedAt === null ? 0 : performance.now() - this.runStartedAt;
    return (this.recordedMs + running) / 1000;
  }

  get state(): RecordingState {
    return this.recorder.state;
  }

  start(): void {
    this.recorder.start(TIMESLICE_MS);
    this.runStartedAt = performance.now();
  }

  pause(): void {
    if (this.recorder.state !== 'recording') return;
    this.recorder.pause();
    this.recordedMs += performance.now() - (this.runStartedAt ?? performance.now());
    this.runStartedAt = null;
  }

  resume(): void {
    if (this.recorder.state !== 'paused') return;
    this.recorder.resume();
    this.runStartedAt = performance.now();
  }

  /**
   * Stops, waits until every chunk is stored and hashed, and answers the duration and digest;
   * throws the failure if a write failed.
   */
  async stop(): Promise<{ duration: number; sha256: string }> {
    const duration = this.videoTime();
    this.pause();
    if (this.recorder.state !== 'inactive') this.recorder.stop();
    await this.stopped;
    await this.writes;
    if (this.failure) throw this.failure;
    return { duration, sha256: await this.hash.digest() };
  }

  /**
   * After a failed write: the SHA-256 of the chunks stored before it, or null when hashing missed
   * one (or fails now), and the upload queue then hashes the stored chunks.
   */
  async keptDigest(): Promise<string | null> {
    await this.writes;
    if (!this.hashedAll) return null;
    return this.hash.digest().catch(() => null);
  }
}

type RecordingState = MediaRecorder['state'];
