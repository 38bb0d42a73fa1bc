import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { activeLine } from '../../../tests/web/line-fixture.ts';
import { startedRecording } from '../../../tests/web/recording-fixture.ts';
import { cleanup, render } from '../../../tests/web/render.tsx';
import type { MyLineDetail } from '../../types/api.ts';
import { RecordStep } from './record-step.tsx';

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

/** The record step of a line with `tags` checkpoints; the camera stays closed (not allowed). */
async function showRecordStep(tags: number) {
  vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockRejectedValue(
    new DOMException('camera', 'NotAllowedError'),
  );
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
    <RecordStep
      detail={detail}
      recording={{ ...startedRecording('r1'), checklist }}
      onStopped={() => {}}
      onBack={() => {}}
    />,
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
