// An upload's progress line: bytes always, speed and time left only while bytes move.
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { cleanup, render } from '../../tests/web/render.tsx';
import { UploadProgressBar, type UploadProgressValue } from './upload-progress-bar.tsx';

afterEach(cleanup);

/** The bar of 128 KB sent of 1 MB, at `bytesPerSecond` with `secondsLeft`. */
const showBar = (bytesPerSecond: number, secondsLeft: number) =>
  render(
    <UploadProgressBar
      label="Line A"
      progress={
        {
          sent: 131_072,
          total: 1_048_576,
          bytesPerSecond,
          secondsLeft,
        } satisfies UploadProgressValue
      }
    />,
  );

describe('UploadProgressBar', () => {
  it('shows the speed and time left while bytes move', async () => {
    await showBar(65_536, 14);
    await expect.element(page.getByText('128 KB of 1 MB · 64 KB/s · 0:14 left')).toBeVisible();
  });

  it('never says 0 Bytes/s: a stalled upload shows only its bytes', async () => {
    await showBar(0.3, 3_000_000);
    await expect.element(page.getByText('128 KB of 1 MB', { exact: true })).toBeVisible();
  });
});
