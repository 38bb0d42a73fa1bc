import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { DetectionsList } from './detections-list.tsx';

afterEach(cleanup);

const list = (emptyNote: string | null) => (
  <DetectionsList
    title="Detections"
    detections={[]}
    selectedId={null}
    onOpen={() => {}}
    onHover={() => {}}
    emptyNote={emptyNote}
  />
);

describe('DetectionsList without detections', () => {
  it('says "No detections" when a detector looked', async () => {
    await render(list(null));
    await expect.element(page.getByText('No detections')).toBeVisible();
  });

  it('says why instead when none looked: "No detections" would read as a clean result', async () => {
    await render(list('Object detection was not run (no detector configured)'));
    await expect
      .element(page.getByText('Object detection was not run (no detector configured).'))
      .toBeVisible();
    expect(page.getByText('No detections').query()).toBeNull();
  });
});
