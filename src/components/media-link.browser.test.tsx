import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { watchDownloads } from '../../tests/web/downloads.ts';
import { cleanup, fakeFetch, render } from '../../tests/web/render.tsx';
import { reportRow } from '../../tests/web/report-row.ts';
import { signIn, signOut } from '../stores/session.ts';
import { toasts } from '../stores/toasts.ts';
import { MediaLink } from './media-link.tsx';
import { ReportTable } from './report-table.tsx';

const testPage = window.location.href;
let stopWatching = () => {};

afterEach(async () => {
  stopWatching();
  await cleanup();
  vi.unstubAllGlobals();
  signOut();
  toasts.items = [];
  window.history.replaceState(null, '', testPage);
});

const me = { id: 'u1', name: 'Ada Auditor', email: 'audit@example.com', roles: ['audit'] };

/** Signed in, with these answers; records the downloads the page starts. */
function answers(routes: Parameters<typeof fakeFetch>[0]) {
  signIn('token', me);
  const fake = fakeFetch(routes);
  vi.stubGlobal('fetch', fake.fetchImpl);
  const watch = watchDownloads(fake.calls);
  stopWatching = watch.stop;
  return { calls: fake.calls, downloads: watch.downloads };
}

const row = reportRow;

describe('MediaLink', () => {
  it("a report's PDF link renews the media cookie before it downloads", async () => {
    const { calls, downloads } = answers({ 'GET /api/me': { body: me } });
    await render(<ReportTable rows={[row]} roles={['audit']} caption="Inspection reports" />);
    const link = page.getByRole('link', { name: /^PDF of report Bottling Line 2/ });
    // Still a real link: it can be opened in another tab or saved.
    await expect.element(link).toHaveAttribute('href', `/api/reports/${row.inspectionId}/pdf`);
    await expect.element(link).toHaveAttribute('download');
    await link.click();
    await expect
      .poll(() => downloads)
      .toEqual([{ href: `/api/reports/${row.inspectionId}/pdf`, callsBefore: ['GET /api/me'] }]);
    expect(calls).toEqual(['GET /api/me']);
  });

  it('downloads nothing when the session has ended, and says so', async () => {
    const { downloads } = answers({
      'GET /api/me': { status: 401, body: { message: 'Invalid or expired token' } },
    });
    await render(
      <MediaLink className="btn" href="/api/reports.csv">
        Export CSV
      </MediaLink>,
    );
    await page.getByRole('link', { name: 'Export CSV' }).click();
    await expect.poll(() => toasts.items.at(-1)?.summary).toBe('Session expired');
    expect(downloads).toEqual([]);
    expect(window.location.pathname).toBe('/login');
  });
});
