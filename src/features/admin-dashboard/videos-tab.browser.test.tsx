import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
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
const REASON = 'Recorded on the wrong line by mistake';
const deletion = {
  deleted: {
    video: 1,
    predictions: 15,
    reports: 1,
    floorplanConfigs: 0,
    floorplans: 0,
    minio: { video: true, keyframesText: true, keyframesImages: 43, results: false },
  },
};

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
    await page.getByRole('textbox', { name: 'Reason (required)' }).fill(REASON);
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.element(page.getByText(`Failed to delete video: ${SIGNED}`)).toBeVisible();
    expect(fake.calls).toContain(`DELETE /api/admin/videos/${video.id}`);
    // Signed meanwhile: trying again does not help, so the dialog closes on the refusal.
    await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
    // Nothing was deleted: the list is read again to show the video as it is now (signed), and
    // its card stays.
    expect(fake.calls.filter((call) => call === 'GET /api/admin/videos')).toHaveLength(2);
    await expect.element(page.getByRole('heading', { name: /^Unknown Line – / })).toBeVisible();
  });
});

describe('Videos tab: the reason for a deletion', () => {
  it('asks for it after the spec’s confirmation, by the server’s rule, and sends it', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const fake = fakeFetch({
      'GET /api/admin/videos': { body: [video] },
      [`DELETE /api/admin/videos/${video.id}`]: { body: deletion },
    });
    const sent: unknown[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'DELETE') sent.push(JSON.parse(String(init.body)));
      return fake.fetchImpl(input, init);
    });
    await render(
      <>
        <VideosTab lineClearances={[]} users={[]} devices={[]} />
        <Toaster />
      </>,
    );
    await page.getByRole('button', { name: /^Delete Unknown Line – / }).click();
    expect(confirm).toHaveBeenCalledWith(
      'Are you sure you want to delete this video? Its predictions, reports, floorplans, keyframes and results will also be deleted.',
    );
    const dialog = page.getByRole('dialog', { name: 'Delete video' });
    await expect.element(dialog).toBeVisible();
    const reason = dialog.getByRole('textbox', { name: 'Reason (required)' });
    const submit = dialog.getByRole('button', { name: 'Delete', exact: true });
    // Two words say nothing an auditor can check: refused here, nothing sent.
    await reason.fill('not needed');
    await submit.click();
    const missing = 'Please give the reason for deleting this video, in at least 3 different words';
    await expect.element(reason).toHaveAccessibleDescription(expect.stringContaining(missing));
    expect(sent).toEqual([]);

    await reason.fill(`  ${REASON} `);
    await submit.click();
    await expect.element(page.getByText(/^Video deleted successfully\./)).toBeVisible();
    expect(sent).toEqual([{ reason: REASON }]);
    await expect.element(dialog).not.toBeInTheDocument();
    // The list is read again.
    expect(fake.calls.filter((call) => call === 'GET /api/admin/videos')).toHaveLength(2);
  });

  it('says the server’s refusal of the reason at the field and keeps the dialog open', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const refusal =
      'body.reason is required to delete the video of an inspection (at least 3 different words)';
    const fake = fakeFetch({
      'GET /api/admin/videos': { body: [video] },
      [`DELETE /api/admin/videos/${video.id}`]: { status: 400, body: { message: refusal } },
    });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await render(<VideosTab lineClearances={[]} users={[]} devices={[]} />);
    await page.getByRole('button', { name: /^Delete Unknown Line – / }).click();
    const reason = page.getByRole('textbox', { name: 'Reason (required)' });
    await reason.fill(REASON);
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect
      .element(reason)
      .toHaveAccessibleDescription(expect.stringContaining(`Failed to delete video: ${refusal}`));
    await expect.element(reason).toHaveValue(REASON);
    expect(fake.calls).toEqual(['GET /api/admin/videos', `DELETE /api/admin/videos/${video.id}`]);
  });

  it('deletes nothing and asks nothing when the confirmation is declined', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const fake = fakeFetch({ 'GET /api/admin/videos': { body: [video] } });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await render(<VideosTab lineClearances={[]} users={[]} devices={[]} />);
    await page.getByRole('button', { name: /^Delete Unknown Line – / }).click();
    expect(page.getByRole('dialog').all()).toHaveLength(0);
    expect(fake.calls).toEqual(['GET /api/admin/videos']);
  });
});

describe('Videos tab: signed evidence', () => {
  const line = (_id: string, name: string) => ({
    _id,
    name,
    description: '',
    location: '',
    status: 'active' as const,
    managerId: null,
    assignedOperators: [],
    version: 1,
  });
  const lines = [
    line('c00000000000000000000001', 'Open Line'),
    line('c00000000000000000000002', 'Signed Line'),
  ];
  const open = { ...video, lineClearanceId: lines[0]?._id, signedEvidence: false };
  const kept = {
    ...video,
    _id: 'eeeeeeeeeeeeeeeeeeeeeeee',
    id: 'eeeeeeeeeeeeeeeeeeeeeeee',
    filename: 'k.mp4',
    lineClearanceId: lines[1]?._id,
    signedEvidence: true,
  };

  it('offers no working Delete for a signed inspection’s video and says why', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const fake = fakeFetch({ 'GET /api/admin/videos': { body: [open, kept] } });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await render(<VideosTab lineClearances={lines} users={[]} devices={[]} />);

    const note = 'Signed evidence: kept (the video of an approved or rejected inspection)';
    const keptDelete = page.getByRole('button', { name: /^Delete Signed Line – / });
    await expect.element(keptDelete).toHaveAttribute('aria-disabled', 'true');
    await expect.element(keptDelete).toHaveAccessibleDescription(note);
    await expect.element(page.getByText(note)).toBeVisible();
    expect(page.getByText(note).all()).toHaveLength(1);
    // Still reachable by keyboard, so a screen reader announces it with its reason; it does nothing.
    const button = keptDelete.element() as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    button.focus();
    expect(document.activeElement).toBe(button);
    await userEvent.keyboard('{Enter}');
    // A click dispatched as is: Playwright's own click waits for the button to become enabled.
    button.click();
    expect(confirm).not.toHaveBeenCalled();

    // The video of a pending inspection keeps its working Delete, which asks first.
    const openDelete = page.getByRole('button', { name: /^Delete Open Line – / });
    await expect.element(openDelete).not.toHaveAttribute('aria-disabled');
    await expect.element(openDelete).not.toHaveAccessibleDescription();
    await userEvent.click(openDelete);
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(fake.calls).toEqual(['GET /api/admin/videos']);
  });
});

describe('Videos tab: a video whose file has not arrived', () => {
  it('says the file is not uploaded yet where a size would be, beside a stored one’s size', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    const submitted = {
      ...video,
      _id: 'ffffffffffffffffffffffff',
      id: 'ffffffffffffffffffffffff',
      filename: 'ffffffffffffffffffffffff.webm',
      timestamp: '2026-11-21T07:00:00Z',
      status: 'pending',
      size: 0,
      duration: 36.78,
      relatedData: { predictions: 0, reports: 1, floorplanConfigs: 0, floorplans: 0 },
    };
    const fake = fakeFetch({ 'GET /api/admin/videos': { body: [submitted, video] } });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await render(<VideosTab lineClearances={[]} users={[]} devices={[]} />);
    // The cards in the answer's order: the submitted one first.
    const [notArrived, stored] = [0, 1].map((i) => page.getByRole('article').nth(i));
    if (!notArrived || !stored) throw new Error('two cards expected');
    await expect.element(notArrived).toHaveTextContent(/SizeFile not uploaded yet/);
    // Whole seconds, floored, as on /video and the report page.
    await expect.element(notArrived).toHaveTextContent(/Duration36 s/);
    await expect.element(notArrived).not.toHaveTextContent(/Bytes/);
    await expect.element(stored).toHaveTextContent(/Size1\.5 KB/);
  });
});

describe('Videos tab: a plant’s list', () => {
  it('draws one page of cards and says how many videos there are in all', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    const many = Array.from({ length: 5000 }, (_, index) => {
      const id = index.toString(16).padStart(24, '0');
      return { ...video, _id: id, id, filename: `${id}.mp4` };
    });
    const fake = fakeFetch({ 'GET /api/admin/videos': { body: many } });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await render(<VideosTab lineClearances={[]} users={[]} devices={[]} />);
    // All 20,006 of a plant drawn at once took 39 s and 639,060 DOM elements.
    await expect.element(page.getByText('1–24 of 5000 videos · Page 1 of 209')).toBeVisible();
    expect(page.getByRole('article').all()).toHaveLength(24);
    await userEvent.click(page.getByRole('button', { name: 'Next page' }));
    await expect.element(page.getByText('25–48 of 5000 videos · Page 2 of 209')).toBeVisible();
    expect(page.getByRole('article').all()).toHaveLength(24);
    // Paging draws from the list already read: it is not fetched again.
    expect(fake.calls).toEqual(['GET /api/admin/videos']);
  });
});
