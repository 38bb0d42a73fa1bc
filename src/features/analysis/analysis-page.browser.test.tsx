import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { Toaster } from '../../components/toaster.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import type { AnalysisRow } from '../../types/api.ts';
import AnalysisPage from './analysis-page.tsx';

beforeEach(async () => {
  await page.viewport(1024, 768);
});

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const job = (state: string, extra: object = {}) => ({
  id: 'e00000000000000000000001',
  state,
  step: null,
  progress: 0,
  attempts: 1,
  maxAttempts: 3,
  error: null,
  pipelineVersion: 'lc-analysis/1',
  detector: { name: 'none', version: '', threshold: 0 },
  summary: null,
  createdAt: '2026-11-20T08:10:00.000Z',
  startedAt: '2026-11-20T08:10:01.000Z',
  finishedAt: null,
  ...extra,
});

const row = (videoId: string, extra: Partial<AnalysisRow>): AnalysisRow => ({
  videoId,
  filename: `${videoId}.mp4`,
  recordedAt: '2026-11-20T08:00:00.000Z',
  duration: 78,
  videoStatus: 'completed',
  statusReason: null,
  analysisVersion: 'lc-analysis/1',
  lineClearanceId: 'c00000000000000000000001',
  lineName: 'Blister Line 1',
  operatorId: 'b00000000000000000000001',
  operatorName: 'Tomás Rivera',
  inspectionId: 'd00000000000000000000001',
  signed: false,
  job: null,
  ...extra,
});

const completed = row('a00000000000000000000001', {
  job: job('completed', {
    progress: 1,
    finishedAt: '2026-11-20T08:10:31.000Z',
    summary: {
      duration: 78,
      container: 'mov,mp4',
      codec: 'h264',
      width: 1280,
      height: 720,
      keyframeImages: 85,
      anchors: 8,
      path: 'motion',
      pathPoints: 866,
      pathNote: null,
      predictions: null,
      detectorNote: 'no detector configured (DETECTOR=none): no detections were made',
      stepMs: {},
    },
  }) as AnalysisRow['job'],
});
const running = row('a00000000000000000000002', {
  videoStatus: 'processing',
  inspectionId: null,
  job: job('running', { step: 'keyframes', progress: 0.4 }) as AnalysisRow['job'],
});
const failed = row('a00000000000000000000003', {
  videoStatus: 'error',
  statusReason: 'not a readable video file (ffmpeg: moov atom not found)',
  job: job('failed', {
    error: 'not a readable video file (ffmpeg: moov atom not found)',
    finishedAt: '2026-11-20T08:10:02.000Z',
  }) as AnalysisRow['job'],
});

const SIGNED =
  'The video is evidence of a signed inspection (approved 2026-11-20 09:12 UTC); its analysis cannot be re-run';

async function show(roles: string[], rows: AnalysisRow[]) {
  signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles });
  const fake = fakeFetch({
    'GET /api/analysis': { body: rows },
    [`POST /api/analysis/videos/${failed.videoId}/run`]: {
      status: 202,
      body: { message: 'Analysis queued' },
    },
    [`POST /api/analysis/videos/${completed.videoId}/run`]: {
      status: 409,
      body: { message: SIGNED },
    },
  });
  vi.stubGlobal('fetch', fake.fetchImpl);
  await render(
    <Router hook={memoryLocation({ path: '/analysis' }).hook}>
      <AnalysisPage />
      <Toaster />
    </Router>,
  );
  return fake;
}

describe('/analysis', () => {
  it('lists the videos with state, step, progress, time taken and reasons', async () => {
    await show(['operator'], [completed, running, failed]);
    await expect.element(page.getByRole('heading', { name: 'Analysis', level: 1 })).toBeVisible();
    await expect.element(page.getByRole('status')).toHaveTextContent('1 running, 0 queued');
    await expect.element(page.getByText('Extracting keyframe images')).toBeVisible();
    await expect
      .element(page.getByRole('progressbar', { name: `Progress of ${running.filename}` }))
      .toHaveAttribute('value', '40');
    await expect
      .element(page.getByText('85 keyframe images, path from motion and QR scans, no detector'))
      .toBeVisible();
    await expect.element(page.getByText('30 s', { exact: true })).toBeVisible();
    // A finished job, completed or failed, says when it ended (the test browser's clock is UTC).
    const ended = page.getByText('at 2026-11-20 08:10 UTC', { exact: true });
    await expect.element(ended.first()).toBeVisible();
    expect(ended.all()).toHaveLength(2);
    expect(page.getByText('not queued').query()).toBeNull();
    await expect
      .element(page.getByText('not a readable video file (ffmpeg: moov atom not found)'))
      .toBeVisible();
    const video = page.getByRole('link', { name: /^Open video: Blister Line 1/ }).first();
    await expect.element(video).toHaveAttribute('href', `/video/${completed.videoId}`);
    await expect
      .element(page.getByRole('link', { name: /^Inspection report/ }).first())
      .toHaveAttribute('href', `/inspection-report/${completed.inspectionId}`);
    // Operators cannot re-run.
    expect(page.getByRole('button', { name: /^Re-run/ }).query()).toBeNull();
  });

  it('lets an admin re-run a finished job, not an open one, once confirmed', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const fake = await show(['admin'], [running, failed]);
    const buttons = page.getByRole('button', { name: /^Re-run/ });
    await expect.element(buttons.first()).toBeDisabled();
    await buttons.nth(1).click();
    await expect.element(page.getByText('Analysis queued')).toBeVisible();
    expect(fake.calls).toContain(`POST /api/analysis/videos/${failed.videoId}/run`);
    // The question names the video and what a run replaces.
    expect(confirm).toHaveBeenCalledWith(
      expect.stringMatching(
        /^Re-run the analysis of Blister Line 1 .+\? The new run replaces this video's keyframes, path and detections\.$/,
      ),
    );
  });

  it('offers no re-run of a signed inspection’s video, and says why', async () => {
    await show(['admin'], [{ ...completed, signed: true }, failed]);
    await expect.element(page.getByText('Signed: results kept as evidence')).toBeVisible();
    expect(page.getByRole('button', { name: /^Re-run/ }).all()).toHaveLength(1);
    await expect
      .element(page.getByRole('button', { name: /^Re-run/ }))
      .toHaveAccessibleName(/^Re-run: Blister Line 1 /);
  });

  it('queues nothing when the admin cancels the confirmation', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const fake = await show(['admin'], [failed]);
    await page.getByRole('button', { name: /^Re-run/ }).click();
    expect(confirm).toHaveBeenCalledOnce();
    expect(fake.calls.filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('shows the server’s refusal of a signed inspection’s video in the error toast', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const fake = await show(['admin'], [completed]);
    await page.getByRole('button', { name: /^Re-run/ }).click();
    await expect.element(page.getByText(`Failed to queue the analysis: ${SIGNED}`)).toBeVisible();
    expect(fake.calls).toContain(`POST /api/analysis/videos/${completed.videoId}/run`);
    // Refused: the list is not read again for a job that was never queued.
    expect(fake.calls.filter((call) => call === 'GET /api/analysis')).toHaveLength(1);
  });

  it('says what a video without a job here is: results from elsewhere, a file to come, or nothing', async () => {
    const ingested = row('a00000000000000000000007', { analysisVersion: 'lc-demo-generator/1' });
    const uploading = row('a00000000000000000000008', { videoStatus: 'pending' });
    const stuck = row('a00000000000000000000009', { videoStatus: 'processing' });
    await show(['operator'], [ingested, uploading, stuck]);
    const cells = (videoId: string) =>
      page
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name: /^Open video/ }) })
        .nth([ingested, uploading, stuck].findIndex((r) => r.videoId === videoId));
    const first = cells(ingested.videoId);
    await expect.element(first.getByText('completed', { exact: true })).toBeVisible();
    await expect
      .element(first.getByText('results from lc-demo-generator/1; no run recorded here'))
      .toBeVisible();
    await expect.element(cells(uploading.videoId)).toHaveTextContent(/waiting for the file/);
    await expect
      .element(cells(uploading.videoId))
      .toHaveTextContent(
        /has not finished uploading.+Pending uploads.+starts when the file arrives/,
      );
    await expect.element(cells(stuck.videoId)).toHaveTextContent(/not analysed/);
    await expect
      .element(cells(stuck.videoId))
      .toHaveTextContent(
        'No analysis has run or is queued for this video. An admin can start one here (Re-run).',
      );
    // Nothing contradicts itself: no 'no job' beside a 'processing'.
    expect(page.getByText(/no job|not queued|processing/).query()).toBeNull();
  });

  it('tells an admin Re-run starts the missing analysis, and a signed one without results is kept as is', async () => {
    const stuck = row('a00000000000000000000009', { videoStatus: 'processing' });
    const signedStuck = row('a0000000000000000000000a', {
      videoStatus: 'processing',
      signed: true,
    });
    const uploading = row('a0000000000000000000000b', { videoStatus: 'pending' });
    await show(['admin'], [stuck, signedStuck, { ...completed, signed: true }, uploading]);
    await expect
      .element(
        page.getByText('No analysis has run or is queued for this video. Re-run starts one.'),
      )
      .toBeVisible();
    await expect
      .element(
        page.getByText('Signed: not analysed again (the inspection was signed without results)'),
      )
      .toBeVisible();
    // Only the video with results says they are kept.
    expect(page.getByText('Signed: results kept as evidence').all()).toHaveLength(1);
    // Re-run for the one with nothing; not before a recording's file has arrived.
    const buttons = page.getByRole('button', { name: /^Re-run/ });
    expect(buttons.all()).toHaveLength(2);
    await expect.element(buttons.first()).toBeEnabled();
    await expect.element(buttons.last()).toBeDisabled();
  });

  it('lines each row’s actions up with its other cells', async () => {
    await page.viewport(1280, 800);
    await show(['admin'], [completed, running, failed]);
    await expect.element(page.getByRole('button', { name: /^Re-run/ }).first()).toBeVisible();
    for (const tr of page.getByRole('row').all().slice(1)) {
      const cells = [...tr.element().children] as HTMLElement[];
      const bottoms = cells.map((cell) => Math.round(cell.getBoundingClientRect().bottom));
      expect(new Set(bottoms).size, bottoms.join(' ')).toBe(1);
      expect(getComputedStyle(cells.at(-1) as HTMLElement).display).toBe('table-cell');
    }
  });

  it('says when there is nothing yet', async () => {
    await show(['lc_manager'], []);
    await expect.element(page.getByText('No inspection videos yet.')).toBeVisible();
  });

  it('shows a job shorter than 10 s with one decimal, not as 0 s', async () => {
    const quick = row('a0000000000000000000000c', {
      job: job('failed', {
        error: 'not a readable video file',
        startedAt: '2026-11-20T08:10:01.000Z',
        finishedAt: '2026-11-20T08:10:01.500Z',
      }) as AnalysisRow['job'],
    });
    const short = row('a0000000000000000000000d', {
      job: job('failed', {
        error: 'not a readable video file',
        startedAt: '2026-11-20T08:10:01.000Z',
        finishedAt: '2026-11-20T08:10:04.250Z',
      }) as AnalysisRow['job'],
    });
    await show(['operator'], [quick, short]);
    await expect.element(page.getByText('0.5 s', { exact: true })).toBeVisible();
    await expect.element(page.getByText('3.3 s', { exact: true })).toBeVisible();
    expect(page.getByText('0 s', { exact: true }).query()).toBeNull();
  });

  it('stacks each video as a card on a phone: every cell on screen, Details readable, no sideways page', async () => {
    await page.viewport(390, 844);
    await show(['admin'], [completed, running, failed]);
    await expect.element(page.getByRole('button', { name: /^Re-run/ }).first()).toBeVisible();
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(390);
    const rows = page.getByRole('row').all().slice(1);
    expect(rows).toHaveLength(3);
    for (const tr of rows) {
      const cells = [...tr.element().children] as HTMLElement[];
      expect(cells).toHaveLength(7);
      for (const cell of cells) {
        const box = cell.getBoundingClientRect();
        expect(box.left, cell.textContent ?? '').toBeGreaterThanOrEqual(0);
        expect(box.right, cell.textContent ?? '').toBeLessThanOrEqual(390);
      }
      expect(tr.element().getBoundingClientRect().height).toBeLessThan(450);
    }
    // The column names show beside the values, and Details gets most of the width.
    const details = page.getByText(
      '85 keyframe images, path from motion and QR scans, no detector',
    );
    expect(details.element().getBoundingClientRect().width).toBeGreaterThan(200);
    await expect
      .element(page.getByRole('row').nth(1).getByText('Time taken', { exact: true }))
      .toBeVisible();
    // Still a table of rows and column headers for a screen reader.
    expect(page.getByRole('columnheader').all()).toHaveLength(7);
  });
});
