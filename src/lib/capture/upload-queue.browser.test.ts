// The upload queue after a reload: recordings come back from IndexedDB, an interrupted one is kept
// as recorded, and a submitted one resumes its tus upload at the offset the server reports. The
// server is a fake answering the queue's XHR (tus) and fetch (JSON) calls.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startedRecording } from '../../../tests/web/recording-fixture.ts';
import {
  appendChunk,
  closeRecordingDb,
  deleteRecording,
  listRecordings,
  saveRecording,
} from './recording-db.ts';
import { discardRecording, startUploadQueue, uploadQueue } from './upload-queue.ts';

interface FakeUpload {
  length: number;
  received: Uint8Array[];
  patchOffsets: number[];
}

const uploads = new Map<string, FakeUpload>();
const received = (upload: FakeUpload) => upload.received.reduce((n, part) => n + part.length, 0);

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
  abort() {}
  async send(body: Blob | null) {
    const id = this.url.split('/').pop() ?? '';
    const upload = uploads.get(id);
    if (!upload) {
      this.status = 404;
    } else if (this.method === 'HEAD') {
      this.status = 200;
      this.responseHeaders['upload-offset'] = String(received(upload));
      this.responseHeaders['upload-length'] = String(upload.length);
    } else if (this.method === 'PATCH') {
      const offset = Number(this.requestHeaders['upload-offset']);
      upload.patchOffsets.push(offset);
      if (offset !== received(upload)) {
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

beforeEach(() => {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  localStorage.setItem('accessToken', 'token');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  // Other test files share this origin's storage: a token left here would sign them in.
  localStorage.removeItem('accessToken');
  uploads.clear();
  for (const recording of await listRecordings()) await deleteRecording(recording.id);
});

describe('the upload queue after a reload', () => {
  it('resumes a submitted upload at the server’s offset and forgets the copy once verified', async () => {
    const file = new Uint8Array(300_000);
    for (let i = 0; i < file.length; i++) file[i] = (i * 7) % 251;
    const recording = startedRecording('queued-1', 'user-1');
    await saveRecording(recording);
    for (let at = 0; at < file.length; at += 100_000) {
      await appendChunk(recording, new Blob([file.subarray(at, at + 100_000)]));
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
    await startUploadQueue('user-1');
    await vi.waitFor(() => expect(uploadQueue.verifiedCount).toBe(1), { timeout: 20_000 });

    const upload = uploads.get('u1') as FakeUpload;
    expect(upload.patchOffsets[0]).toBe(150_000);
    const stored = new Uint8Array(received(upload));
    let at = 0;
    for (const part of upload.received) {
      stored.set(part, at);
      at += part.length;
    }
    expect(await sha256Hex(stored)).toBe(recording.sha256);
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

  it('keeps the copy when the server could not record the discard', async () => {
    await submitted('kept-1');
    serverAnswers(503, 'Service unavailable');
    await expect(discardRecording('kept-1')).rejects.toThrow();
    expect((await listRecordings()).map((r) => r.id)).toEqual(['kept-1']);
  });
});
