import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { activeLine } from '../../../tests/web/line-fixture.ts';
import { myInspection } from '../../../tests/web/my-inspection-fixture.ts';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import {
  deleteRecording,
  listRecordings,
  newRecording,
  saveRecording,
} from '../../lib/capture/recording-db.ts';
import { type RecordingSummary, uploadQueue } from '../../lib/capture/upload-queue.ts';
import { signIn, signOut } from '../../stores/session.ts';
import type { MyInspection } from '../../types/api.ts';
import { SubmittedStep } from './submitted-step.tsx';

afterEach(async () => {
  await cleanup();
  for (const recording of await listRecordings()) await deleteRecording(recording.id);
  uploadQueue.recordings = [];
  uploadQueue.progress = {};
  uploadQueue.waitingUntil = null;
  signOut();
  vi.unstubAllGlobals();
});

const recordingId = 'r'.repeat(32);
const inspectionId = 'c'.repeat(24);

const summary = (patch: Partial<RecordingSummary>): RecordingSummary => ({
  id: recordingId,
  lineName: 'Blister Line 1',
  startedAt: '2026-11-29T05:00:00.000Z',
  size: 1000,
  duration: 9,
  state: 'queued',
  error: null,
  videoId: null,
  inspectionId: null,
  captureAttached: false,
  productLeaving: 'A',
  batchLeaving: 'B',
  productComing: 'C',
  batchComing: 'D',
  notes: '',
  scansLeftOut: 0,
  ...patch,
});

/** The server's answer for the operator's inspection, its video as given. */
const onServer = (video: Partial<NonNullable<MyInspection['video']>>): MyInspection => ({
  ...myInspection(inspectionId),
  video: {
    _id: 'v'.repeat(24),
    filename: 'a.webm',
    status: 'pending',
    statusReason: null,
    verified: false,
    sha256: null,
    size: 1000,
    ...video,
  },
});

async function show(listed: RecordingSummary | null, mine: MyInspection[] = []) {
  const { fetchImpl, calls } = fakeFetch({ 'GET /api/my/inspections': { body: mine } });
  vi.stubGlobal('fetch', fetchImpl);
  signIn('token', { id: 'u1', name: 'Olga', email: 'o@example.com', roles: ['operator'] });
  uploadQueue.recordings = listed ? [listed] : [];
  await render(
    <SubmittedStep recordingId={recordingId} lineName="Blister Line 1" heading={createRef()} />,
  );
  return calls;
}

const heading = (name: string) => page.getByRole('heading', { name, exact: true });

describe('after Submit: the recording on its way', () => {
  it('does not call a refused submit submitted: says why and where to act', async () => {
    const refusal = 'Blister Line 1 is under maintenance: it cannot be inspected now.';
    await show(summary({ state: 'failed', error: refusal }));
    await expect.element(heading('Inspection not submitted')).toBeVisible();
    await expect.element(page.getByText(refusal)).toBeVisible();
    await expect
      .element(page.getByText(/kept on this device: resume, correct or discard/))
      .toBeVisible();
    expect(page.getByText(/uploads in the background/).query()).toBeNull();
  });

  it('says the upload stopped when the server has the inspection but refused the file', async () => {
    await show(summary({ state: 'failed', error: 'Checksum mismatch', inspectionId }));
    await expect.element(heading('Upload stopped')).toBeVisible();
  });

  it('says it waits for the network while the queue does', async () => {
    await show(summary({ state: 'uploading', inspectionId }));
    expect(page.getByText('Waiting for the network; it retries by itself.').query()).toBeNull();
    uploadQueue.waitingUntil = Date.now() + 5000;
    await expect
      .element(page.getByText('Waiting for the network; it retries by itself.'))
      .toBeVisible();
  });

  it('is submitting until the server has the inspection, then submitted while it uploads', async () => {
    await show(summary({ state: 'uploading' }));
    await expect.element(heading('Submitting the inspection')).toBeVisible();
    uploadQueue.recordings = [summary({ state: 'uploading', inspectionId })];
    await expect.element(heading('Inspection submitted')).toBeVisible();
    await expect.element(page.getByText(/uploads in the background/)).toBeVisible();
  });
});

describe('after Submit: the recording left the queue', () => {
  it('calls the upload verified only when the server says so, and links the report', async () => {
    const calls = await show(summary({ state: 'uploading', inspectionId }), [
      onServer({ verified: true, sha256: 'a'.repeat(64) }),
    ]);
    uploadQueue.recordings = [];
    await expect.element(page.getByText('Upload complete and verified.')).toBeVisible();
    await expect
      .element(page.getByRole('link', { name: 'Open the inspection report' }))
      .toHaveAttribute('href', `/inspection-report/${inspectionId}`);
    expect(calls).toContain('GET /api/my/inspections');
  });

  it('says a recording discarded (here or in another tab) is discarded, not verified', async () => {
    await show(summary({ state: 'uploading', inspectionId }), [
      onServer({ status: 'error', statusReason: 'Recording discarded on the device' }),
    ]);
    uploadQueue.recordings = [];
    await expect.element(heading('Recording discarded')).toBeVisible();
    await expect.element(page.getByText(/the inspection has no video on the server/)).toBeVisible();
    expect(page.getByText('Upload complete and verified.').query()).toBeNull();
  });

  it('says one discarded before the server knew it was never submitted, asking nothing', async () => {
    const calls = await show(summary({ state: 'queued' }));
    uploadQueue.recordings = [];
    await expect
      .element(
        page.getByText('The recording was discarded on this device before it was submitted.'),
      )
      .toBeVisible();
    expect(calls).toEqual([]);
  });

  it('claims nothing when the server cannot be asked', async () => {
    const { fetchImpl } = fakeFetch({ 'GET /api/my/inspections': { lost: true } });
    await show(summary({ state: 'uploading', inspectionId }));
    vi.stubGlobal('fetch', fetchImpl);
    uploadQueue.recordings = [];
    await expect
      .element(page.getByText(/Its report shows whether the server verified/))
      .toBeVisible();
    expect(page.getByText('Upload complete and verified.').query()).toBeNull();
  });

  it('a recording still on the device but not listed here is not taken for gone', async () => {
    const stored = newRecording({
      id: recordingId,
      userId: 'u1',
      lineId: activeLine('a'.repeat(24))._id,
      lineName: 'Blister Line 1',
      productLeaving: 'A',
      batchLeaving: 'B',
      productComing: 'C',
      batchComing: 'D',
      deviceId: null,
      checklist: { floorplanConfigId: null, tags: [], hotZones: [] },
    });
    await saveRecording(stored);
    const calls = await show(null);
    await expect.element(heading('Submitting the inspection')).toBeVisible();
    expect(page.getByText('Upload complete and verified.').query()).toBeNull();
    expect(calls).toEqual([]);
  });
});
