// A pending upload's card while the network fails: it stays on the waiting text, with the bytes
// sent and no speed, whether the queue waits or tus-js-client retries the upload in flight.
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { startedRecording } from '../../../tests/web/recording-fixture.ts';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { type RecordingSummary, uploadQueue } from '../../lib/capture/upload-queue.ts';
import { PendingUploads } from './pending-uploads.tsx';

afterEach(async () => {
  await cleanup();
  uploadQueue.recordings = [];
  uploadQueue.progress = {};
  uploadQueue.waitingUntil = null;
});

function listed(state: RecordingSummary['state']): RecordingSummary {
  const { scans: _scans, ...recording } = startedRecording('waiting-rec', 'u1');
  return { ...recording, state, size: 709_999, scansLeftOut: 0 };
}

describe('a pending upload waiting for the network', () => {
  it('while tus-js-client retries its upload: waiting, only the bytes, and Resume', async () => {
    uploadQueue.recordings = [listed('uploading')];
    uploadQueue.progress = {
      'waiting-rec': { sent: 131_072, total: 709_999, bytesPerSecond: null, secondsLeft: null },
    };
    uploadQueue.waitingUntil = Date.now() + 3000;
    await render(<PendingUploads />);
    const card = page.getByRole('region', { name: 'Pending uploads' });
    await expect.element(card.getByText('Waiting to upload')).toBeVisible();
    await expect
      .element(card.getByText('Waiting for the network; it retries by itself.'))
      .toBeVisible();
    await expect.element(card.getByText('128 KB of 693.36 KB', { exact: true })).toBeVisible();
    expect(card.getByText('Uploading').query()).toBeNull();
    await expect.element(card.getByRole('button', { name: /^Resume Line A/ })).toBeVisible();
  });

  it('uploading with the network there: its state, without the waiting text', async () => {
    uploadQueue.recordings = [listed('uploading')];
    uploadQueue.progress = {
      'waiting-rec': { sent: 262_144, total: 709_999, bytesPerSecond: 65_536, secondsLeft: 7 },
    };
    await render(<PendingUploads />);
    const card = page.getByRole('region', { name: 'Pending uploads' });
    await expect.element(card.getByText('Uploading')).toBeVisible();
    await expect.element(card.getByText('256 KB of 693.36 KB · 64 KB/s · 0:07 left')).toBeVisible();
    expect(card.getByText(/Waiting for the network/).query()).toBeNull();
    expect(card.getByRole('button', { name: /^Resume/ }).query()).toBeNull();
  });
});
