import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { cleanup, render } from '../../../../tests/web/render.tsx';
import type { Floorplan, LineClearance } from '../../../types/api.ts';
import { canChangeLine } from '../permissions.ts';
import { UploadStep } from './upload-step.tsx';

afterEach(() => cleanup());

const line = (id: string, name: string, managerId: string): LineClearance => ({
  _id: id,
  name,
  description: '',
  location: '',
  status: 'active',
  managerId,
  assignedOperators: [],
  version: 1,
});
const own = line('c00000000000000000000001', 'Sachet Line 3', 'u-lc');
const other = line('c00000000000000000000002', 'Bottling Line 2', 'u-lc2');
const plan = (lineID: string): Floorplan => ({
  _id: `f${lineID.slice(1)}`,
  name: 'Floorplan',
  imagePath: `floorplans/${lineID}.png`,
  lineID,
  createdAt: '2026-11-20T08:00:00.000Z',
});

/** Step 1 as the LC manager 'u-lc' sees it, with the given line chosen. */
async function showFor(lineId: string) {
  const onContinue = vi.fn();
  await render(
    <UploadStep
      lines={[own, other]}
      floorplans={{
        list: [plan(own._id), plan(other._id)],
        failed: false,
        reload: () => undefined,
        replaceForLine: () => undefined,
      }}
      lineId={lineId}
      onLineChange={() => undefined}
      canChange={(candidate) => canChangeLine(['lc_manager'], 'u-lc', candidate)}
      beforeUpload={(upload) => upload()}
      onUploaded={() => undefined}
      onContinue={onContinue}
    />,
  );
  return onContinue;
}

describe('step 1 of the floor plan wizard', () => {
  it('states the size limit at the file field, named as the server’s default', async () => {
    await showFor(own._id);
    await expect
      .element(page.getByLabelText('Floor plan image (PNG, JPG, JPEG, GIF)'))
      .toHaveAccessibleDescription('Up to 20 MB, unless your administrator has set another limit.');
  });

  it('offers to replace the floor plan of a line the user manages', async () => {
    await showFor(own._id);
    await expect
      .element(
        page.getByText(
          /^Sachet Line 3 already has a floor plan \(uploaded .+\)\. Uploading a new image replaces it; the saved configuration is kept\.$/,
        ),
      )
      .toBeVisible();
    await expect.element(page.getByRole('button', { name: 'Replace Floorplan' })).toBeVisible();
    expect(page.getByText(/Your role can look/).query()).toBeNull();
  });

  it('on another manager’s line says only that there is one, to look at, not to replace', async () => {
    const onContinue = await showFor(other._id);
    await expect
      .element(page.getByText(/^Bottling Line 2 has a floor plan \(uploaded .+\)\.$/))
      .toBeVisible();
    expect(page.getByText(/replaces it/).query()).toBeNull();
    expect(page.getByRole('button', { name: 'Replace Floorplan' }).query()).toBeNull();
    await expect.element(page.getByText(/^Your role can look at this floor plan/)).toBeVisible();
    await page.getByRole('button', { name: 'Continue to Configuration' }).click();
    expect(onContinue).toHaveBeenCalledWith(other._id);
  });
});
