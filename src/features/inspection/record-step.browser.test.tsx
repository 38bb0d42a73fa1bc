import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { activeLine } from '../../../tests/web/line-fixture.ts';
import { startedRecording } from '../../../tests/web/recording-fixture.ts';
import { cleanup, render } from '../../../tests/web/render.tsx';
import type { MyLineDetail } from '../../types/api.ts';
import { RecordStep } from './record-step.tsx';
import './inspection.css';

afterEach(async () => {
  await cleanup();
  vi.restoreAllMocks();
});

const tag = (index: number) => ({
  index,
  name: `Tag ${index + 1}`,
  qrCode: `LC1-TAG-0${index + 1}`,
  x: 100 * index,
  y: 0,
});

/**
 * The record step of a line with `tags` checkpoints; the camera stays closed (not allowed) unless
 * `camera` gives its stream. `above` px of page stand for the app's toolbar, title and step line.
 */
async function showRecordStep(tags: number, camera?: MediaStream, above = 0) {
  if (camera) vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockResolvedValue(camera);
  else {
    vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockRejectedValue(
      new DOMException('camera', 'NotAllowedError'),
    );
  }
  const checklist = {
    floorplanConfigId: 'f'.repeat(24),
    tags: Array.from({ length: tags }, (_, index) => tag(index)),
    hotZones: [],
  };
  const detail: MyLineDetail = {
    line: activeLine('a'.repeat(24)),
    checklist,
    otherLineTags: [],
    minVideoSeconds: 30,
  };
  await render(
    <div style={{ paddingTop: above }}>
      <RecordStep
        detail={detail}
        recording={{ ...startedRecording('r1'), checklist }}
        onStopped={() => {}}
        onBack={() => {}}
      />
    </div>,
  );
}

const hint = 'Scan at least 2 checkpoints: the analysis draws the path you walked from them.';

describe('the record step’s checklist', () => {
  it('says that the path needs two checkpoints scanned, before any is', async () => {
    await showRecordStep(4);
    await expect.element(page.getByText('0 of 4 checkpoints scanned')).toBeVisible();
    await expect.element(page.getByText(hint)).toBeVisible();
  });

  it('says nothing of it on a line with a single checkpoint', async () => {
    await showRecordStep(1);
    await expect.element(page.getByText('0 of 1 checkpoints scanned')).toBeVisible();
    expect(page.getByText(hint).query()).toBeNull();
  });
});

describe('the record step on a phone held in landscape (844×390)', () => {
  afterEach(() => page.viewport(414, 896));

  it('shows the scanned count and the last scan beside the preview, under the controls', async () => {
    await page.viewport(844, 390);
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 480;
    canvas.getContext('2d')?.fillRect(0, 0, 640, 480);
    // Above the step, the app's toolbar, title and step line take 148 px (measured in Chromium).
    await showRecordStep(8, canvas.captureStream(10), 148);
    const record = page.getByRole('button', { name: 'Record' });
    await expect.element(record).toBeVisible();
    const box = (element: Element) => element.getBoundingClientRect();
    const preview = box(document.querySelector('.capture-preview') as Element);
    const controls = box(record.element());
    const count = box(page.getByText('0 of 8 checkpoints scanned').element());
    const lastScan = box(page.getByRole('status').element());
    for (const shown of [count, lastScan]) {
      expect(shown.left).toBeGreaterThanOrEqual(preview.right);
      expect(shown.top).toBeGreaterThanOrEqual(controls.bottom);
      // On screen without scrolling.
      expect(shown.bottom).toBeLessThanOrEqual(390);
    }
    expect(window.scrollY).toBe(0);
  });
});
