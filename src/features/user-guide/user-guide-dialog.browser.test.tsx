import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { cleanup, render } from '../../../tests/web/render.tsx';
import UserGuideDialog from './user-guide-dialog.tsx';

afterEach(cleanup);

describe('User Guide: AI analysis', () => {
  it('lists the keyboard shortcuts of the Video Analysis page', async () => {
    await render(<UserGuideDialog open onOpenChange={() => {}} />);
    await page.getByRole('tab', { name: 'AI Analysis' }).click();
    const table = page.getByRole('table');
    await expect.element(table).toBeVisible();
    const rows = table
      .getByRole('row')
      .elements()
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'KeyWhat it does',
      'SpacePlay or pause the video',
      '←Go to the previous keyframe image (an open keyframe window follows)',
      '→Go to the next keyframe image (an open keyframe window follows)',
      'JJump back 5 seconds',
      'KPause',
      'LPlay; while playing, play faster (up to 2×)',
      '[Slower playback (down to 0.25×)',
      ']Faster playback (up to 2×)',
      'NGo to the next detection and highlight it (an open keyframe window shows it)',
      'PGo to the previous detection and highlight it (an open keyframe window shows it)',
    ]);
  });
});
