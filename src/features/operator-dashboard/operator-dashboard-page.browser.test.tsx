// The operator dashboard with the device's upload queue running: the signed-in operator's own
// recordings only, a refused one explained and corrected in place, and touch-sized buttons.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { myInspection } from '../../../tests/web/my-inspection-fixture.ts';
import { myLine } from '../../../tests/web/my-line-fixture.ts';
import { startedRecording } from '../../../tests/web/recording-fixture.ts';
import { cleanup, render, unexpectedRequest } from '../../../tests/web/render.tsx';
import {
  appendChunk,
  deleteRecording,
  listRecordings,
  saveRecording,
} from '../../lib/capture/recording-db.ts';
import { startUploadQueue } from '../../lib/capture/upload-queue.ts';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import OperatorDashboardPage from './operator-dashboard-page.tsx';

afterEach(async () => {
  await cleanup();
  signOut();
  for (const recording of await listRecordings()) await deleteRecording(recording.id);
  vi.unstubAllGlobals();
  toasts.items = [];
});

const recent = myInspection('c'.repeat(24), {
  productLeaving: 'P1',
  batchLeaving: 'B1',
  productComing: 'P2',
  batchComing: 'B2',
});

/** Answers the dashboard's lists; records each submit's body and answers 503 (no server yet). */
function serve() {
  const submits: Record<string, unknown>[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${new URL(input, window.location.origin).pathname}`;
    if (key === 'GET /api/my/lines' || key === 'GET /api/my/devices') return Response.json([]);
    if (key === 'GET /api/my/inspections') return Response.json([recent]);
    if (key === 'POST /api/inspections') {
      submits.push(JSON.parse(String(init?.body)));
      return Response.json({ message: 'Service unavailable' }, { status: 503 });
    }
    return unexpectedRequest(key);
  });
  return submits;
}

async function stored(id: string, userId: string, patch: object) {
  const recording = startedRecording(id, userId);
  await saveRecording(recording);
  await appendChunk(recording, new Blob([new Uint8Array(2048)]), 1);
  Object.assign(recording, { state: 'queued', endedAt: new Date().toISOString() }, patch);
  await saveRecording(recording);
}

async function showDashboard() {
  signIn('token-u1', { id: 'u1', name: 'Olga', email: 'o@example.com', roles: ['operator'] });
  await startUploadQueue('u1');
  await render(<OperatorDashboardPage />);
}

describe('the operator dashboard', () => {
  it('lists only this operator’s recordings, and a refused one says why and can be corrected', async () => {
    const submits = serve();
    await stored('mine-rec', 'u1', { lineName: 'Line A', batchComing: 'x'.repeat(228) });
    await stored('theirs-rec', 'u2', { lineName: 'Line of another operator' });
    await showDashboard();

    const pending = page.getByRole('region', { name: 'Pending uploads' });
    await expect
      .element(pending.getByText('Batch coming next must be at most 200 characters (it has 228)'))
      .toBeVisible();
    expect(pending.getByText('Line of another operator').query()).toBeNull();
    expect(submits).toEqual([]);

    await pending.getByRole('button', { name: /^Correct details Line A/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Correct details: Line A' });
    const batch = dialog.getByLabelText('Batch coming next');
    await expect.element(batch).toHaveAttribute('aria-invalid', 'true');
    await batch.fill('B-2002');
    await dialog.getByLabelText('Operator notes').fill('Corrected the batch number');
    await dialog.getByRole('button', { name: 'Save and upload' }).click();

    await vi.waitFor(() => expect(submits).toHaveLength(1));
    expect(submits[0]).toMatchObject({
      clientRef: 'mine-rec',
      batchComing: 'B-2002',
      operatorNotes: 'Corrected the batch number',
    });
    // Sent again, only the network is missing now: the recording waits to upload.
    await expect.element(pending.getByText('Waiting to upload')).toBeVisible();
    expect(pending.getByText(/must be at most 200/).query()).toBeNull();
  });

  it('shows a recording another tab is writing as such, with nothing to do to it there', async () => {
    serve();
    const recording = startedRecording('other-tab-rec', 'u1');
    let release = () => {};
    // Another tab of this browser records it: it holds the recording's lock.
    await new Promise<void>((granted) => {
      void navigator.locks.request(`line-clearance-capture:recording:${recording.id}`, () => {
        granted();
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      });
    });
    try {
      await saveRecording(recording);
      await appendChunk(recording, new Blob([new Uint8Array(2048)]), 1);
      await showDashboard();
      const pending = page.getByRole('region', { name: 'Pending uploads' });
      await expect.element(pending.getByText('Being recorded in another tab')).toBeVisible();
      expect(pending.getByRole('button').elements()).toEqual([]);
    } finally {
      release();
    }
    // That tab stopped it: here it can now be submitted.
    await expect.element(page.getByText('Recording interrupted')).toBeVisible();
  });

  it('reloads the line cards and recent inspections after a discard the server recorded', async () => {
    const videoId = 'e'.repeat(24);
    let discarded = false;
    const loads: string[] = [];
    const line = myLine('a'.repeat(24), {
      lastInspection: {
        _id: recent.inspection._id,
        startTime: recent.inspection.startTime,
        status: 'pending',
      },
    });
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${new URL(input, window.location.origin).pathname}`;
      loads.push(key);
      if (key === 'GET /api/my/lines') return Response.json([line]);
      if (key === 'GET /api/my/devices') return Response.json([]);
      if (key === 'GET /api/my/inspections') {
        const video = {
          _id: videoId,
          filename: 'walk.webm',
          status: discarded ? 'error' : 'pending',
          statusReason: discarded ? 'Recording discarded on the device' : null,
          verified: false,
          sha256: null,
          size: 0,
        };
        return Response.json([{ ...recent, video }]);
      }
      if (key === `POST /api/videos/${videoId}/discard`) {
        discarded = true;
        return Response.json({ message: 'Recording discarded' });
      }
      return unexpectedRequest(key);
    });
    vi.stubGlobal('confirm', () => true);
    await stored('discard-rec', 'u1', {
      lineName: 'Blister Line 1',
      state: 'failed',
      inspectionId: recent.inspection._id,
      videoId,
    });
    await showDashboard();
    const recentRegion = page.getByRole('region', { name: 'Recent Inspections' });
    await expect.element(recentRegion.getByText('File not uploaded yet')).toBeVisible();
    const linesLoaded = () => loads.filter((key) => key === 'GET /api/my/lines').length;
    expect(linesLoaded()).toBe(1);

    const pending = page.getByRole('region', { name: 'Pending uploads' });
    await pending.getByRole('button', { name: /^Discard Blister Line 1/ }).click();
    await expect.element(pending.getByText('Nothing waiting on this device.')).toBeVisible();
    await expect.element(recentRegion.getByText('Recording discarded on the device')).toBeVisible();
    await vi.waitFor(() => expect(linesLoaded()).toBe(2));
  });

  it('gives each card button a touch target of at least 44 px', async () => {
    serve();
    await showDashboard();
    const open = page.getByRole('link', { name: /^Open Blister Line 1/ });
    await expect.element(open).toBeVisible();
    expect(open.element().getBoundingClientRect().height).toBeGreaterThanOrEqual(44);
  });
});
