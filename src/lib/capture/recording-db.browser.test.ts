import { afterEach, describe, expect, it, vi } from 'vitest';
import { startedRecording } from '../../../tests/web/recording-fixture.ts';
import {
  appendChunk,
  closeRecordingDb,
  deleteRecording,
  keptCapture,
  listRecordings,
  loadChunks,
  loadRecording,
  saveCapture,
  saveRecording,
} from './recording-db.ts';

afterEach(async () => {
  for (const recording of await listRecordings()) await deleteRecording(recording.id);
});

describe('recordings on the device', () => {
  it('keeps chunks in order across a reload, with the recording’s size and scans', async () => {
    const recording = startedRecording('rec-1');
    await saveRecording(recording);
    const sizes = [1000, 1, 65_536, 300];
    for (const [i, size] of sizes.entries()) {
      await appendChunk(recording, new Blob([new Uint8Array(size).fill(i + 1)]), i + 1);
    }
    recording.scans.push({ code: 'T1', videoTime: 1.5, at: new Date().toISOString(), tagIndex: 0 });
    await saveRecording(recording);
    // A reload: the connection goes, the module state with it; the data stays.
    await closeRecordingDb();
    const [again] = await listRecordings();
    expect(again).toMatchObject({ id: 'rec-1', chunkCount: 4, size: 66_837, state: 'recording' });
    expect(again?.scans).toHaveLength(1);
    const chunks = await loadChunks('rec-1');
    expect(chunks.map((chunk) => chunk.size)).toEqual(sizes);
    expect(new Uint8Array(await chunks[2]!.arrayBuffer())[0]).toBe(3);
  });

  it('deletes a recording with its chunks only', async () => {
    const keep = startedRecording('keep');
    const drop = startedRecording('drop');
    await saveRecording(keep);
    await saveRecording(drop);
    await appendChunk(keep, new Blob(['a']), 1);
    await appendChunk(drop, new Blob(['b']), 1);
    await deleteRecording('drop');
    expect(await loadRecording('drop')).toBeUndefined();
    expect(await loadChunks('drop')).toEqual([]);
    expect(await loadChunks('keep')).toHaveLength(1);
  });
});

describe('a chunk write', () => {
  it('stores the seconds the recording then covers with the chunk', async () => {
    const recording = startedRecording('covers');
    await saveRecording(recording);
    await appendChunk(recording, new Blob(['a']), 1.02);
    await appendChunk(recording, new Blob(['b']), 2.04);
    expect(await loadRecording('covers')).toMatchObject({ chunkCount: 2, size: 2, duration: 2.04 });
  });

  it('that fails changes neither the stored recording nor the one in memory', async () => {
    const recording = startedRecording('refused');
    await saveRecording(recording);
    await appendChunk(recording, new Blob(['kept']), 1);
    const put = IDBObjectStore.prototype.put;
    // The storage refuses the chunk at commit, as a full phone does (QuotaExceededError).
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (
      this: IDBObjectStore,
      value: unknown,
      key?: IDBValidKey,
    ) {
      const request = put.call(this, value, key);
      if (this.name === 'chunks') {
        request.addEventListener('success', () => {
          Object.defineProperty(this.transaction, 'error', {
            value: new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
          });
          this.transaction.abort();
        });
      }
      return request;
    });
    try {
      await expect(appendChunk(recording, new Blob(['lost']), 2)).rejects.toMatchObject({
        name: 'QuotaExceededError',
      });
    } finally {
      vi.restoreAllMocks();
    }
    const unchanged = { chunkCount: 1, size: 4, duration: 1 };
    expect(recording).toMatchObject(unchanged);
    // What was scanned since is stored; the chunks' count, size and length stay what was stored.
    recording.scans.push({ code: 'T1', videoTime: 1.5, at: new Date().toISOString(), tagIndex: 0 });
    await saveCapture(recording);
    expect(await loadRecording('refused')).toMatchObject({ ...unchanged, scans: recording.scans });
    expect(await loadChunks('refused')).toHaveLength(1);
  });

  it('in flight is not undone by what is scanned meanwhile', async () => {
    const recording = startedRecording('meanwhile');
    await saveRecording(recording);
    const writing = appendChunk(recording, new Blob(['abc']), 1);
    recording.scans.push({ code: 'T1', videoTime: 0.5, at: new Date().toISOString(), tagIndex: 0 });
    await saveCapture(recording);
    await writing;
    expect(await loadRecording('meanwhile')).toMatchObject({ chunkCount: 1, size: 3, duration: 1 });
    expect((await loadRecording('meanwhile'))?.scans).toHaveLength(1);
  });
});

describe('the capture data sent', () => {
  it('keeps the scans and motion samples within the stored video, and all of them when they fit', () => {
    const motion = {
      t: [0, 5, 10, 11, 12],
      ax: [1, 2, 3, 4, 5],
      ay: [1, 2, 3, 4, 5],
      az: [1, 2, 3, 4, 5],
      alpha: [1, 2, 3, 4, 5],
      beta: [1, 2, 3, 4, 5],
      gamma: [1, 2, 3, 4, 5],
      absolute: false,
    };
    const scan = (videoTime: number) => ({
      code: 'A',
      videoTime,
      at: '2026-11-27T10:00:00.000Z',
      tagIndex: null,
    });
    const cut = keptCapture({ scans: [scan(3), scan(10.5)], motion, duration: 10 });
    expect(cut.scans.map((s) => s.videoTime)).toEqual([3]);
    expect(cut.motion?.t).toEqual([0, 5, 10]);
    expect(cut.motion?.gamma).toEqual([1, 2, 3]);
    expect(cut.motion?.absolute).toBe(false);
    expect(keptCapture({ scans: [], motion, duration: 12 }).motion).toEqual(motion);
  });
});
