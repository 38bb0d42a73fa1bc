import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { myInspection } from '../../../tests/web/my-inspection-fixture.ts';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { RecentInspections } from './recent-inspections.tsx';

afterEach(cleanup);

describe('RecentInspections', () => {
  it('tells the operator who reviewed an inspection, when, and why it was rejected', async () => {
    const notes = 'Loose carton under the sealer; clear it and inspect again';
    await render(
      <RecentInspections
        loading={false}
        inspections={[
          myInspection('c'.repeat(24), {}),
          myInspection('d'.repeat(24), {
            status: 'rejected',
            signature: {
              signerId: 'e'.repeat(24),
              signerName: 'Lee Manager',
              signerEmail: 'lc.manager@example.com',
              meaning: 'rejected',
              statement: 'Rejected: the line is not clear',
              notes,
              signedAt: '2026-11-20T10:35:00.000Z',
              recordHash: 'f'.repeat(64),
            },
          }),
        ]}
      />,
    );
    await expect.element(page.getByText('Waiting for review')).toBeVisible();
    // The test browser runs in UTC, so the local time carries that offset.
    await expect
      .element(page.getByText('Rejected by Lee Manager, 2026-11-20 10:35 UTC'))
      .toBeVisible();
    await expect.element(page.getByText(notes)).toBeVisible();
    await expect
      .element(page.getByRole('link', { name: 'Open Blister Line 1 2026-11-20 10:10 UTC' }).first())
      .toBeVisible();
  });

  it('shows the analysis status as a tag, and why an analysis failed', async () => {
    const video = (status: 'completed' | 'error', statusReason: string | null) => ({
      _id: '1'.repeat(24),
      filename: 'walk.webm',
      status,
      statusReason,
      verified: true,
      sha256: '2'.repeat(64),
      size: 1024,
    });
    const reason = 'the file is not a video ffprobe can read';
    await render(
      <RecentInspections
        loading={false}
        inspections={[
          { ...myInspection('c'.repeat(24), {}), video: video('completed', null) },
          { ...myInspection('d'.repeat(24), {}), video: video('error', reason) },
        ]}
      />,
    );
    await expect.element(page.getByText('completed', { exact: true })).toHaveClass(/tag-success/);
    await expect.element(page.getByText('error', { exact: true })).toHaveClass(/tag-danger/);
    await expect.element(page.getByText(reason)).toBeVisible();
  });

  it('says a file given up on (discarded on the device) will not arrive, not that it is coming', async () => {
    const discarded = {
      _id: '1'.repeat(24),
      filename: 'walk.webm',
      status: 'error' as const,
      statusReason: 'Recording discarded on the device',
      verified: false,
      sha256: null,
      size: 0,
    };
    await render(
      <RecentInspections
        loading={false}
        inspections={[{ ...myInspection('c'.repeat(24), {}), video: discarded }]}
      />,
    );
    await expect.element(page.getByText('File will not arrive')).toHaveClass(/tag-danger/);
    expect(page.getByText('File not uploaded yet').query()).toBeNull();
  });
});
