import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { Toaster } from '../../components/toaster.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import { VideosTab } from './videos-tab.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const video = {
  _id: 'dddddddddddddddddddddddd',
  id: 'dddddddddddddddddddddddd',
  filename: 'v.mp4',
  timestamp: '2026-11-10T14:05:00Z',
  userId: null,
  deviceId: null,
  lineClearanceId: null,
  path: { video: '/api/videos/v.mp4', keyframesData: '/api/keyframes/d.txt' },
  status: 'completed',
  size: 1536,
  duration: 30,
  relatedData: { predictions: 15, reports: 1, floorplanConfigs: 0, floorplans: 0 },
};
const SIGNED =
  'The video is evidence of a signed inspection (approved 2026-11-10 15:02 UTC); it cannot be deleted';

describe('Videos tab: deleting', () => {
  it('shows the server’s refusal after the spec’s failure text and keeps the card', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const fake = fakeFetch({
      'GET /api/admin/videos': { body: [video] },
      [`DELETE /api/admin/videos/${video.id}`]: { status: 409, body: { message: SIGNED } },
    });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await render(
      <>
        <VideosTab lineClearances={[]} users={[]} devices={[]} />
        <Toaster />
      </>,
    );
    await page.getByRole('button', { name: /^Delete / }).click();
    await expect.element(page.getByText(`Failed to delete video: ${SIGNED}`)).toBeVisible();
    expect(fake.calls).toContain(`DELETE /api/admin/videos/${video.id}`);
    // Nothing was deleted: the list is not read again.
    expect(fake.calls.filter((call) => call === 'GET /api/admin/videos')).toHaveLength(1);
    await expect.element(page.getByRole('heading', { name: /^Unknown Line – / })).toBeVisible();
  });
});
