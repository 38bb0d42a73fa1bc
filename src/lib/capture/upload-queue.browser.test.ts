// The upload queue after a reload: recordings come back from IndexedDB, an interrupted one is kept
// as recorded, and a submitted one resumes its tus upload at the offset the server reports. The
// server is a fake answering the queue's XHR (tus) and fetch (JSON) calls.
import { subscribe } from 'valtio';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { startedRecording } from '../../../tests/web/recording-fixture.ts';
import { signIn, signOut } from '../../stores/session.ts';
import type { InspectionCreate } from '../../types/api.ts';
import {
  appendChunk,
  closeRecordingDb,
  deleteRecording,
  listRecordings,
  loadChunks,
  loadRecording,
  saveRecording,
} from './recording-db.ts';
import * as queue from './upload-queue.ts';
import {
  discardRecording,
  resumeRecording,
  startUploadQueue,
  submitRecording,
  uploadQueue,
} from './upload-queue.ts';

interface FakeUpload {
  length: number;
  received: Uint8Array[];
  patchOffsets: number[];
}

const uploads = new Map<string, FakeUpload>();
/**
 * How the fake server answers the n-th PATCH (from 0): null for as usual, `NO_NETWORK` for no
 * answer at all (a network failure); and how long it takes.
 */
let patchAnswer: (n: number) => { status: number; body: string } | null = () => null;
let patchDelayMs = 0;
const NO_NETWORK = { status: 0, body: '' };
/** PATCHes store their bytes once this settles: a test holds them by replacing it. */
let patchesGo: Promise<void> = Promise.resolve();
const received = (upload: FakeUpload) => upload.received.reduce((n, part) => n + part.length, 0);
/** What the fake server stored of an upload, its parts in order. */
function storedBytes(upload: FakeUpload) {
  const stored = new Uint8Array(received(upload));
  let at = 0;
  for (const part of upload.received) {
    stored.set(part, at);
    at += part.length;
  }
  return stored;
}

/** Just enough of XMLHttpRequest for tus-js-client, answering as the server's tus routes would. */
class FakeXhr {
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: ((error: unknown) => void) | null = null;
  private method = '';
  private url = '';
  private readonly requestHeaders: Record<string, string> = {};
  private readonly responseHeaders: Record<string, string> = {};
  private aborted = false;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.requestHeaders[name.toLowerCase()] = value;
  }
  getResponseHeader(name: string) {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  abort() {
    this.aborted = true;
  }
  async send(body: Blob | null) {
    const id = this.url.split('/').pop() ?? '';
    const upload = uploads.get(id);
    if (this.method === 'POST') {
      const created = crypto.randomUUID();
      const length = Number(this.requestHeaders['upload-length']);
      uploads.set(created, { length, received: [], patchOffsets: [] });
      this.status = 201;
      this.responseHeaders.location = `/api/uploads/${created}`;
    } else if (!upload) {
      this.status = 404;
    } else if (this.method === 'HEAD') {
      this.status = 200;
      this.responseHeaders['upload-offset'] = String(received(upload));
      this.responseHeaders['upload-length'] = String(upload.length);
    } else if (this.method === 'PATCH') {
      const offset = Number(this.requestHeaders['upload-offset']);
      const answer = patchAnswer(upload.patchOffsets.length);
      upload.patchOffsets.push(offset);
      await new Promise((resolve) => setTimeout(resolve, patchDelayMs));
      await patchesGo;
      // An aborted request is never answered, and its bytes never arrive.
      if (this.aborted) return;
      if (answer === NO_NETWORK) {
        this.onerror?.(new ProgressEvent('error'));
        return;
      }
      if (answer) {
        this.status = answer.status;
        this.responseText = answer.body;
      } else if (offset !== received(upload)) {
        this.status = 409;
      } else {
        upload.received.push(new Uint8Array(await (body as Blob).arrayBuffer()));
        this.status = 204;
        this.responseHeaders['upload-offset'] = String(received(upload));
      }
    }
    this.onload?.();
  }
}

const sha256Hex = async (bytes: Uint8Array<ArrayBuffer>) =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');

/** Signs `userId` in, as the app does; its token is `token-<userId>`. */
const signInAs = (userId: string) =>
  signIn(`token-${userId}`, {
    id: userId,
    name: userId,
    email: `${userId}@example.com`,
    roles: ['operator'],
  });

beforeEach(() => {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  signInAs('user-1');
});
afterEach(async () => {
  // Ends the queue's turn (and any retry timer) before the next test's user signs in.
  signOut();
  await new Promise((resolve) => setTimeout(resolve));
  vi.unstubAllGlobals();
  // Other test files share this origin's storage: a token left here would sign them in.
  localStorage.removeItem('accessToken');
  uploads.clear();
  patchAnswer = () => null;
  patchDelayMs = 0;
  patchesGo = Promise.resolve();
  for (const recording of await listRecordings()) await deleteRecording(recording.id);
});

describe('the upload queue after a reload', () => {
  it('resumes a submitted upload at the server’s offset and forgets the copy once verified', async () => {
    const file = new Uint8Array(300_000);
    for (let i = 0; i < file.length; i++) file[i] = (i * 7) % 251;
    const recording = startedRecording('queued-1', 'user-1');
    await saveRecording(recording);
    for (let at = 0; at < file.length; at += 100_000) {
      await appendChunk(recording, new Blob([file.subarray(at, at + 100_000)]), at / 100_000 + 1);
    }
    // Before the reload: submitted, its capture attached, 150,000 bytes already on the server.
    Object.assign(recording, {
      state: 'uploading',
      inspectionId: 'b'.repeat(24),
      videoId: 'c'.repeat(24),
      captureAttached: true,
      sha256: await sha256Hex(file),
      uploadUrl: '/api/uploads/u1',
      endedAt: new Date().toISOString(),
    });
    await saveRecording(recording);
    uploads.set('u1', {
      length: file.length,
      received: [file.slice(0, 150_000)],
      patchOffsets: [],
    });
    // And one left in 'recording' by a closed tab.
    await saveRecording(startedRecording('interrupted-1', 'user-1'));
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      calls.push(String(url));
      return new Response('{}', { status: 500 });
    });

    await closeRecordingDb();
    const verified = uploadQueue.verifiedCount;
    await startUploadQueue('user-1');
    await vi.waitFor(() => expect(uploadQueue.verifiedCount).toBe(verified + 1), {
      timeout: 20_000,
    });

    const upload = uploads.get('u1') as FakeUpload;
    expect(upload.patchOffsets[0]).toBe(150_000);
    expect(await sha256Hex(storedBytes(upload))).toBe(recording.sha256);
    // No JSON call was needed: the inspection and its capture were already on the server.
    expect(calls).toEqual([]);
    const left = await listRecordings();
    expect(left.map((r) => [r.id, r.state, r.error])).toEqual([
      ['interrupted-1', 'recorded', 'Recording interrupted'],
    ]);
    expect(uploadQueue.recordings.map((r) => r.id)).toEqual(['interrupted-1']);
  });
});

describe('discarding a recording', () => {
  const submitted = async (id: string) => {
    const recording = startedRecording(id, 'user-1');
    Object.assign(recording, { state: 'failed', videoId: 'c'.repeat(24) });
    await saveRecording(recording);
  };
  const serverAnswers = (status: number, message: string) => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      return Response.json({ statusCode: status, message }, { status });
    });
    return calls;
  };

  it('forgets the copy once the server has a verified file of its own for the video', async () => {
    await submitted('taken-1');
    const calls = serverAnswers(409, 'The video file has arrived and been verified');
    await discardRecording('taken-1');
    expect(calls).toEqual([`POST /api/videos/${'c'.repeat(24)}/discard`]);
    expect(await listRecordings()).toEqual([]);
  });

  it('counts a discard the server recorded, so the dashboard reloads its lists', async () => {
    await submitted('known-1');
    const unsubmitted = startedRecording('unknown-1', 'user-1');
    unsubmitted.state = 'recorded';
    await saveRecording(unsubmitted);
    const calls = serverAnswers(200, 'Recording discarded');
    const discarded = uploadQueue.discardedCount;
    await discardRecording('unknown-1');
    expect(uploadQueue.discardedCount).toBe(discarded);
    await discardRecording('known-1');
    expect(uploadQueue.discardedCount).toBe(discarded + 1);
    expect(calls).toEqual([`POST /api/videos/${'c'.repeat(24)}/discard`]);
  });

  it('keeps the copy when the server could not record the discard', async () => {
    await submitted('kept-1');
    serverAnswers(503, 'Service unavailable');
    await expect(discardRecording('kept-1')).rejects.toThrow();
    expect((await listRecordings()).map((r) => r.id)).toEqual(['kept-1']);
  });
});

interface Call {
  method: string;
  path: string;
  token: string | null;
  body: unknown;
}

/** A fetch stand-in recording each JSON call with the token it carried; `answer` decides. */
function serverRecording(answer: (call: Call, signal?: AbortSignal | null) => Promise<Response>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const call: Call = {
      method: init?.method ?? 'GET',
      path: new URL(url, window.location.origin).pathname,
      token: headers.Authorization?.replace('Bearer ', '') ?? null,
      body: init?.body ? JSON.parse(String(init.body)) : null,
    };
    calls.push(call);
    return answer(call, init?.signal);
  });
  return calls;
}

const submitted = async (id: string, userId: string, patch: object = {}) => {
  const recording = startedRecording(id, userId);
  await saveRecording(recording);
  await appendChunk(recording, new Blob([new Uint8Array(1000).fill(7)]), 1);
  Object.assign(
    recording,
    { state: 'queued', endedAt: new Date().toISOString(), duration: 1 },
    patch,
  );
  await saveRecording(recording);
  return recording;
};

describe('a phone shared by two operators', () => {
  it('never works on another user’s recording, and resumes it when its user signs in again', async () => {
    const calls = serverRecording(async (call) =>
      call.token === 'token-user-1'
        ? Promise.reject(new TypeError('Failed to fetch'))
        : Response.json({ message: 'Video not found' }, { status: 404 }),
    );
    await submitted('first-user-rec', 'user-1');
    await startUploadQueue('user-1');
    // The network is down: user-1's recording waits to be retried (in 2 s).
    await vi.waitFor(() => expect(uploadQueue.waitingUntil).not.toBeNull());
    expect(uploadQueue.recordings.map((r) => [r.id, r.state])).toEqual([
      ['first-user-rec', 'queued'],
    ]);

    signOut();
    signInAs('user-2');
    await startUploadQueue('user-2');
    // user-2's dashboard lists none of user-1's recordings.
    expect(uploadQueue.recordings).toEqual([]);
    // Past the retry: nothing was sent for user-1's recording with user-2's token.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(calls.filter((call) => call.token !== 'token-user-1')).toEqual([]);
    expect(await loadRecording('first-user-rec')).toMatchObject({ state: 'queued' });

    // user-1 signs in again: the recording goes on by itself.
    const before = calls.length;
    signOut();
    signInAs('user-1');
    await startUploadQueue('user-1');
    await vi.waitFor(() => expect(calls.length).toBeGreaterThan(before));
    expect(calls[before]).toMatchObject({
      method: 'POST',
      path: '/api/inspections',
      token: 'token-user-1',
    });
  });

  it('on sign-out cancels the call in flight and leaves the recording as it was', async () => {
    let signal: AbortSignal | null | undefined;
    serverRecording(
      (_call, sent) =>
        new Promise((_resolve, reject) => {
          signal = sent;
          sent?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    await submitted('in-flight-rec', 'user-1');
    await startUploadQueue('user-1');
    await vi.waitFor(() => expect(signal).toBeDefined());
    expect((await loadRecording('in-flight-rec'))?.state).toBe('uploading');

    signOut();
    await vi.waitFor(() => expect(signal?.aborted).toBe(true));
    await vi.waitFor(async () =>
      expect(await loadRecording('in-flight-rec')).toMatchObject({ state: 'queued', error: null }),
    );
    expect(uploadQueue.recordings).toEqual([]);
  });
});

describe('a recording interrupted before Stop', () => {
  it('is submitted with its real end and the length its stored chunks cover, without later scans', async () => {
    const calls = serverRecording(async (call) =>
      call.method === 'POST'
        ? Response.json(
            { inspection: { _id: 'b'.repeat(24) }, videoId: 'c'.repeat(24) },
            { status: 201 },
          )
        : Response.json({ message: 'Unavailable' }, { status: 503 }),
    );
    const recording = startedRecording('cut-short-rec', 'user-1');
    // Recorded for a minute: its chunks cover 58 s; a tag scanned at 42 s, another at 58.6 s
    // (after the last chunk was stored), then the tab closed (no Stop).
    recording.startedAt = new Date(Date.now() - 60_000).toISOString();
    recording.scans.push(
      { code: 'T1', videoTime: 42, at: recording.startedAt, tagIndex: 0 },
      { code: 'T2', videoTime: 58.6, at: recording.startedAt, tagIndex: 1 },
    );
    await saveRecording(recording);
    await appendChunk(recording, new Blob([new Uint8Array(500)]), 29);
    await appendChunk(recording, new Blob([new Uint8Array(500)]), 58);
    await closeRecordingDb();

    await startUploadQueue('user-1');
    await vi.waitFor(() =>
      expect(uploadQueue.recordings.map((r) => [r.id, r.state])).toEqual([
        ['cut-short-rec', 'recorded'],
      ]),
    );
    await resumeRecording('cut-short-rec');
    await vi.waitFor(() => expect(calls.length).toBeGreaterThan(1));
    const body = calls[0]?.body as InspectionCreate;
    const seconds = (Date.parse(body.endTime) - Date.parse(body.startTime)) / 1000;
    expect(seconds).toBeGreaterThan(59);
    expect(seconds).toBeLessThan(70);
    // Not the last scan's time: the video holds 58 s, and a scan past them points nowhere.
    expect(body.video.duration).toBe(58);
    expect(calls[1]).toMatchObject({
      method: 'PUT',
      path: `/api/inspections/${'b'.repeat(24)}/capture`,
    });
    expect(calls[1]?.body).toMatchObject({ scans: [{ code: 'T1' }] });
  });
});

describe('a submit refused for what the operator typed', () => {
  it('says what is wrong in words, and goes again once corrected, with its recording intact', async () => {
    let refuse = true;
    const calls = serverRecording(async () =>
      refuse
        ? Response.json(
            { message: 'body.batchComing must not have more than 200 characters' },
            { status: 400 },
          )
        : Response.json({ message: 'Unavailable' }, { status: 503 }),
    );
    await submitted('refused-rec', 'user-1');
    await startUploadQueue('user-1');
    await vi.waitFor(() =>
      expect(uploadQueue.recordings[0]).toMatchObject({
        state: 'failed',
        error: 'Batch coming next must not have more than 200 characters',
      }),
    );

    refuse = false;
    await queue.correctRecording('refused-rec', {
      productLeaving: 'P1',
      batchLeaving: 'B1',
      productComing: 'P2',
      batchComing: 'B-2002',
      notes: 'Line clear',
    });
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]?.body).toMatchObject({ batchComing: 'B-2002', operatorNotes: 'Line clear' });
    const stored = await loadRecording('refused-rec');
    expect(stored).toMatchObject({ size: 1000, chunkCount: 1, batchComing: 'B-2002' });
  });

  it('a stored field the server would refuse is named before anything is sent', async () => {
    const calls = serverRecording(async () => Response.json({}, { status: 500 }));
    await submitted('too-long-rec', 'user-1', { productLeaving: 'x'.repeat(228) });
    await startUploadQueue('user-1');
    await vi.waitFor(() =>
      expect(uploadQueue.recordings[0]).toMatchObject({
        state: 'failed',
        error: 'Product leaving the line must be at most 200 characters (it has 228)',
      }),
    );
    expect(calls).toEqual([]);
  });
});

/** Holds a Web Lock as another tab of this browser would, until the answer is called. */
async function heldElsewhere(name: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await new Promise<void>((granted) => {
    void navigator.locks.request(name, () => {
      granted();
      return held;
    });
  });
  return release;
}

const recordingLock = (id: string) => `line-clearance-capture:recording:${id}`;
const uploadsLock = (userId: string) => `line-clearance-capture:uploads:${userId}`;

describe('another tab of this browser', () => {
  it('writing a recording: it is neither resumed, corrected nor discarded here, and kept once that tab lets go', async () => {
    const calls = serverRecording(async () => Response.json({}, { status: 503 }));
    const recording = startedRecording('other-tab-rec', 'user-1');
    const release = await heldElsewhere(recordingLock(recording.id));
    await saveRecording(recording);
    await appendChunk(recording, new Blob([new Uint8Array(800)]), 1);

    await startUploadQueue('user-1');
    expect(uploadQueue.recordings.map((r) => [r.id, r.state, r.error])).toEqual([
      ['other-tab-rec', 'recording', null],
    ]);
    await expect(resumeRecording(recording.id)).rejects.toThrow(
      'This recording is being recorded in another tab',
    );
    await expect(
      queue.correctRecording(recording.id, {
        productLeaving: 'P1',
        batchLeaving: 'B1',
        productComing: 'P2',
        batchComing: 'B2',
        notes: '',
      }),
    ).rejects.toThrow('This recording is being recorded in another tab');
    await expect(discardRecording(recording.id)).rejects.toThrow(
      'This recording is being recorded in another tab',
    );
    expect(await loadRecording(recording.id)).toMatchObject({ state: 'recording', size: 800 });
    expect(await loadChunks(recording.id)).toHaveLength(1);
    expect(calls).toEqual([]);

    // That tab closed (or crashed) before Stop: the recording is kept as it was stored.
    release();
    await vi.waitFor(() =>
      expect(uploadQueue.recordings.map((r) => [r.id, r.state, r.error])).toEqual([
        ['other-tab-rec', 'recorded', 'Recording interrupted'],
      ]),
    );
  });

  it('uploading: this tab waits, and takes over when that tab closes', async () => {
    const calls = serverRecording(async () => Response.json({}, { status: 503 }));
    const release = await heldElsewhere(uploadsLock('user-1'));
    await submitted('waits-rec', 'user-1');
    await startUploadQueue('user-1');
    expect(uploadQueue.recordings.map((r) => [r.id, r.state])).toEqual([['waits-rec', 'queued']]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(calls).toEqual([]);

    release();
    await vi.waitFor(() => expect(calls.map((call) => call.path)).toEqual(['/api/inspections']));
  });

  it('submitting a recording: the tab that uploads hears of it and uploads it', async () => {
    const calls = serverRecording(async () => Response.json({}, { status: 503 }));
    await startUploadQueue('user-1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Submitted in another tab: stored, then told on the user's channel.
    const other = new BroadcastChannel('line-clearance-capture:user-1');
    await submitted('from-other-tab', 'user-1');
    other.postMessage({ changed: 'from-other-tab' });
    other.close();
    await vi.waitFor(() =>
      expect(calls[0]).toMatchObject({
        path: '/api/inspections',
        body: { clientRef: 'from-other-tab' },
      }),
    );
  });

  it('uploading a recording discarded here: it is asked to stop first', async () => {
    serverRecording(async () => Response.json({}, { status: 503 }));
    await submitted('discard-elsewhere', 'user-1', { state: 'uploading' });
    const release = await heldElsewhere(recordingLock('discard-elsewhere'));
    const releaseUploads = await heldElsewhere(uploadsLock('user-1'));
    const other = new BroadcastChannel('line-clearance-capture:user-1');
    const heard: unknown[] = [];
    other.onmessage = (event) => {
      heard.push(event.data);
      // The uploading tab stops its upload and lets go of the recording.
      if (event.data.cancel === 'discard-elsewhere') release();
    };
    await startUploadQueue('user-1');
    await discardRecording('discard-elsewhere');
    other.close();
    releaseUploads();
    expect(heard[0]).toEqual({ cancel: 'discard-elsewhere' });
    expect(await loadRecording('discard-elsewhere')).toBeUndefined();
    expect(uploadQueue.recordings).toEqual([]);
  });
});

/** A submitted recording whose upload the fake server holds (none of its bytes yet). */
async function readyToUpload(id: string, uploadId: string, size = 300_000) {
  const file = new Uint8Array(size);
  for (let i = 0; i < file.length; i++) file[i] = (i * 13) % 251;
  const recording = startedRecording(id, 'user-1');
  await saveRecording(recording);
  await appendChunk(recording, new Blob([file]), 10);
  Object.assign(recording, {
    state: 'queued',
    inspectionId: 'b'.repeat(24),
    videoId: 'c'.repeat(24),
    captureAttached: true,
    sha256: await sha256Hex(file),
    uploadUrl: `/api/uploads/${uploadId}`,
    endedAt: new Date().toISOString(),
  });
  await saveRecording(recording);
  uploads.set(uploadId, { length: size, received: [], patchOffsets: [] });
  return recording;
}

describe('an upload the server refuses', () => {
  it('for a session that ended: signs out, keeps the recording queued, and resumes after sign-in', async () => {
    const calls = serverRecording(async () => Response.json({}, { status: 503 }));
    const testPage = window.location.href;
    patchAnswer = (n) =>
      n === 0
        ? { status: 401, body: JSON.stringify({ message: 'Invalid or expired token' }) }
        : null;
    await readyToUpload('expired-rec', 'u-expired');
    try {
      await startUploadQueue('user-1');
      // Spec §4: as any other call answered 401, signed out and sent to /login.
      await vi.waitFor(() =>
        expect(new URLSearchParams(window.location.search).get('session')).toBe('ended'),
      );
      expect(window.location.pathname).toBe('/login');
      expect(localStorage.getItem('accessToken')).toBeNull();
      await vi.waitFor(async () =>
        expect(await loadRecording('expired-rec')).toMatchObject({ state: 'queued', error: null }),
      );
    } finally {
      window.history.replaceState(null, '', testPage);
    }

    const verified = uploadQueue.verifiedCount;
    signInAs('user-1');
    await startUploadQueue('user-1');
    await vi.waitFor(() => expect(uploadQueue.verifiedCount).toBe(verified + 1));
    expect(await loadRecording('expired-rec')).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('says the server’s message, not its JSON', async () => {
    patchAnswer = () => ({
      status: 403,
      body: JSON.stringify({ message: 'You are no longer assigned to this line' }),
    });
    await readyToUpload('refused-upload', 'u-refused');
    await startUploadQueue('user-1');
    await vi.waitFor(() =>
      expect(uploadQueue.recordings[0]).toMatchObject({
        state: 'failed',
        error: 'You are no longer assigned to this line',
      }),
    );
  });
});

describe('an upload waiting for the network', () => {
  it('shows how much was sent, but no speed or time left', async () => {
    patchDelayMs = 300;
    patchAnswer = (n) => (n === 3 ? { status: 429, body: '' } : null);
    await readyToUpload('waiting-rec', 'u-waiting', 2_000_000);
    let speedShown = false;
    const unsubscribe = subscribe(uploadQueue, () => {
      speedShown ||= uploadQueue.progress['waiting-rec']?.bytesPerSecond != null;
    });
    await startUploadQueue('user-1');
    await vi.waitFor(() => expect(uploadQueue.waitingUntil).not.toBeNull(), { timeout: 5000 });
    unsubscribe();
    expect(speedShown).toBe(true);
    expect(uploadQueue.progress['waiting-rec']).toMatchObject({
      sent: 750_000,
      total: 2_000_000,
      bytesPerSecond: null,
      secondsLeft: null,
    });
  });
});

describe('the network failing again and again', () => {
  it('waits longer after each failure (2 s → 60 s), shown as waiting all along', async () => {
    serverRecording(async () => Promise.reject(new TypeError('Failed to fetch')));
    // The queue's waits are recorded and cut short, so the test does not wait them out.
    const waits: number[] = [];
    const realSetTimeout = window.setTimeout.bind(window);
    const timers = vi.spyOn(window, 'setTimeout').mockImplementation(((
      run: () => void,
      ms?: number,
    ) => {
      if (ms !== undefined && ms >= 2000) waits.push(ms);
      return realSetTimeout(run, ms !== undefined && ms >= 2000 ? 10 : ms);
    }) as typeof window.setTimeout);
    onTestFinished(() => timers.mockRestore());
    let waitingShown = false;
    let waitEnded = false;
    const unsubscribe = subscribe(uploadQueue, () => {
      if (uploadQueue.waitingUntil !== null) waitingShown = true;
      else if (waitingShown) waitEnded = true;
    });
    await submitted('offline-rec', 'user-1');
    await startUploadQueue('user-1');
    await vi.waitFor(() => expect(waits.length).toBeGreaterThanOrEqual(6));
    unsubscribe();
    expect(waits.slice(0, 6)).toEqual([2000, 5000, 10_000, 30_000, 60_000, 60_000]);
    // Each retry still waits for the network: the card never flips back to uploading.
    expect(waitEnded).toBe(false);
  });
});

describe('an upload tus-js-client retries by itself', () => {
  it('waits for the network with only the bytes shown, and goes on once bytes move again', async () => {
    patchDelayMs = 300;
    // The third and fourth PATCH get no answer: tus-js-client retries at once, then after 1 s.
    patchAnswer = (n) => (n === 2 || n === 3 ? NO_NETWORK : null);
    await readyToUpload('retried-rec', 'u-retried', 2_000_000);
    const shown: { sent: number; speed: boolean; waiting: boolean; state?: string }[] = [];
    const unsubscribe = subscribe(uploadQueue, () => {
      const progress = uploadQueue.progress['retried-rec'];
      if (!progress) return;
      shown.push({
        sent: progress.sent,
        speed: progress.bytesPerSecond !== null || progress.secondsLeft !== null,
        waiting: uploadQueue.waitingUntil !== null,
        state: uploadQueue.recordings[0]?.state,
      });
    });
    const verified = uploadQueue.verifiedCount;
    await startUploadQueue('user-1');
    await vi.waitFor(() => expect(uploadQueue.verifiedCount).toBe(verified + 1), {
      timeout: 20_000,
    });
    unsubscribe();

    // The same upload went on at the server's offset: tus-js-client's retries, not the queue's.
    expect(uploads.get('u-retried')?.patchOffsets).toEqual([
      0, 250_000, 500_000, 500_000, 500_000, 750_000, 1_000_000, 1_250_000, 1_500_000, 1_750_000,
    ]);
    const whileWaiting = shown.filter((s) => s.waiting);
    expect(whileWaiting.length).toBeGreaterThan(0);
    // While it waited: the bytes the server has, no speed or time left (the last ones were stale).
    for (const s of whileWaiting) expect(s).toMatchObject({ sent: 500_000, speed: false });
    // Once bytes moved past them, the wait was over.
    for (const s of shown.filter((s) => s.sent > 500_000)) expect(s.waiting).toBe(false);
    expect(uploadQueue.waitingUntil).toBeNull();
  });

  it('tries again at once when the operator taps Resume', async () => {
    // No answer to the second, third and fourth PATCH: retried at once, after 1 s, then after 3 s.
    patchAnswer = (n) => (n >= 1 && n <= 3 ? NO_NETWORK : null);
    await readyToUpload('resumed-rec', 'u-resumed', 2_000_000);
    const verified = uploadQueue.verifiedCount;
    await startUploadQueue('user-1');
    const patches = () => uploads.get('u-resumed')?.patchOffsets.length;
    await vi.waitFor(() => expect(patches()).toBe(4), { timeout: 5000 });
    await vi.waitFor(() => expect(uploadQueue.waitingUntil).not.toBeNull());
    expect(uploadQueue.recordings[0]?.state).toBe('uploading');

    const tapped = performance.now();
    await resumeRecording('resumed-rec');
    await vi.waitFor(() => expect(patches()).toBeGreaterThan(4));
    expect(performance.now() - tapped).toBeLessThan(2500);
    await vi.waitFor(() => expect(uploadQueue.verifiedCount).toBe(verified + 1), {
      timeout: 20_000,
    });
  });
});

describe('several recordings waiting', () => {
  /** The server creates each submitted inspection (its id from the recording's) and takes its capture. */
  const serverCreating = (refuse: string | null = null) =>
    serverRecording(async (call) => {
      const { clientRef } = (call.body ?? {}) as Partial<InspectionCreate>;
      if (call.method !== 'POST') return Response.json({}, { status: 200 });
      if (clientRef === refuse) {
        return Response.json({ message: 'body.batchComing must not be blank' }, { status: 400 });
      }
      return Response.json(
        { inspection: { _id: `inspection-${clientRef}` }, videoId: `video-${clientRef}` },
        { status: 201 },
      );
    });
  const named = (calls: Call[]) =>
    calls.map((call) => `${call.method} ${call.path.replace('/capture', '')}`);
  /** Holds every PATCH until the answer is called. */
  const holdPatches = () => {
    let release = () => {};
    patchesGo = new Promise((resolve) => {
      release = resolve;
    });
    return release;
  };

  it('submits each and attaches its capture before uploading any file', async () => {
    const calls = serverCreating();
    const release = holdPatches();
    await submitted('first-rec', 'user-1', { startedAt: '2026-03-02T08:00:00.000Z' });
    await submitted('second-rec', 'user-1', { startedAt: '2026-03-02T08:20:00.000Z' });
    const verified = uploadQueue.verifiedCount;
    await startUploadQueue('user-1');

    // The second's submit does not wait for the first's file (held by the server here).
    await vi.waitFor(() =>
      expect(named(calls)).toEqual([
        'POST /api/inspections',
        'PUT /api/inspections/inspection-first-rec',
        'POST /api/inspections',
        'PUT /api/inspections/inspection-second-rec',
      ]),
    );
    expect(calls[2]?.body).toMatchObject({ clientRef: 'second-rec' });
    expect(uploadQueue.verifiedCount).toBe(verified);

    release();
    await vi.waitFor(() => expect(uploadQueue.verifiedCount).toBe(verified + 2), {
      timeout: 20_000,
    });
    expect(await listRecordings()).toEqual([]);
    expect(calls).toHaveLength(4);
  });

  it('a submit refused for one does not hold back the other’s upload', async () => {
    const calls = serverCreating('refused-first');
    await submitted('refused-first', 'user-1', { startedAt: '2026-03-02T08:00:00.000Z' });
    await submitted('accepted-second', 'user-1', { startedAt: '2026-03-02T08:20:00.000Z' });
    const verified = uploadQueue.verifiedCount;
    await startUploadQueue('user-1');

    await vi.waitFor(() => expect(uploadQueue.verifiedCount).toBe(verified + 1), {
      timeout: 20_000,
    });
    expect(uploadQueue.recordings.map((r) => [r.id, r.state, r.error])).toEqual([
      ['refused-first', 'failed', 'Batch coming next must not be blank'],
    ]);
    expect(named(calls)).toEqual([
      'POST /api/inspections',
      'POST /api/inspections',
      'PUT /api/inspections/inspection-accepted-second',
    ]);
  });

  it('one submitted while another uploads is submitted at once, and the upload goes on where it was', async () => {
    const calls = serverCreating();
    const release = holdPatches();
    const uploading = await readyToUpload('uploading-rec', 'u-long');
    const verified = uploadQueue.verifiedCount;
    await startUploadQueue('user-1');
    await vi.waitFor(() => expect(uploads.get('u-long')?.patchOffsets).toEqual([0]));

    const next = await submitted('next-rec', 'user-1', { state: 'recorded' });
    await submitRecording(next, 'Line clear');
    await vi.waitFor(() =>
      expect(named(calls)).toEqual([
        'POST /api/inspections',
        'PUT /api/inspections/inspection-next-rec',
      ]),
    );
    expect(uploads.get('u-long')?.received).toEqual([]);

    release();
    await vi.waitFor(() => expect(uploadQueue.verifiedCount).toBe(verified + 2), {
      timeout: 20_000,
    });
    expect(await sha256Hex(storedBytes(uploads.get('u-long') as FakeUpload))).toBe(
      uploading.sha256,
    );
  });
});
