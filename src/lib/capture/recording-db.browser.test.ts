import { afterEach, describe, expect, it } from 'vitest';
import { startedRecording } from '../../../tests/web/recording-fixture.ts';
import {
  appendChunk,
  closeRecordingDb,
  deleteRecording,
  listRecordings,
  loadChunks,
  loadRecording,
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
      await appendChunk(recording, new Blob([new Uint8Array(size).fill(i + 1)]));
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
    await appendChunk(keep, new Blob(['a']));
    await appendChunk(drop, new Blob(['b']));
    await deleteRecording('drop');
    expect(await loadRecording('drop')).toBeUndefined();
    expect(await loadChunks('drop')).toEqual([]);
    expect(await loadChunks('keep')).toHaveLength(1);
  });
});
