import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { cleanup, render } from '../../tests/web/render.tsx';
import { reportRow } from '../../tests/web/report-row.ts';
import {
  answerRequests,
  errorAnswer,
  fileAnswer,
  watchSavedFiles,
} from '../lib/media-download.fixtures.ts';
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

/** Signed in, with these answers; records the files the page saves. */
function answers(routes: Parameters<typeof answerRequests>[0]) {
  signIn('token', me);
  const sent = answerRequests(routes);
  const watch = watchSavedFiles();
  stopWatching = watch.stop;
  return { sent, saved: watch.saved, clicked: watch.clicked };
}

const row = reportRow;
const pdf = `/api/reports/${row.inspectionId}/pdf`;

describe('MediaLink', () => {
  it("a report's PDF link fetches the file and saves it under the server's name", async () => {
    const { sent, saved } = answers({
      [`GET ${pdf}`]: () => fileAnswer('application/pdf', 'inspection-LC-1.pdf', '%PDF-1.7 …'),
    });
    await render(<ReportTable rows={[row]} roles={['audit']} caption="Inspection reports" />);
    const link = page.getByRole('link', { name: /^PDF of report Bottling Line 2/ });
    // Still a real link: it can be opened in another tab or saved.
    await expect.element(link).toHaveAttribute('href', pdf);
    await expect.element(link).toHaveAttribute('download');
    await link.click();
    await expect
      .poll(() => saved)
      .toEqual([{ name: 'inspection-LC-1.pdf', bytes: new TextEncoder().encode('%PDF-1.7 …') }]);
    expect(sent).toEqual([{ key: `GET ${pdf}`, authorization: 'Bearer token' }]);
    await expect.element(link).not.toHaveAttribute('aria-busy');
  });

  it("says the server's refusal and saves nothing, instead of a broken 'reports.json'", async () => {
    const busy = 'The server is busy with other reports, exports and checks; try again in a moment';
    const { clicked } = answers({
      'GET /api/reports.csv': () => errorAnswer(503, busy),
    });
    await render(
      <MediaLink className="btn" href="/api/reports.csv">
        Export CSV
      </MediaLink>,
    );
    await page.getByRole('link', { name: 'Export CSV' }).click();
    await expect.poll(() => toasts.items.at(-1)?.detail).toBe(`Failed to download: ${busy}`);
    expect(clicked).toEqual([]);
  });

  it('is busy while the file arrives, and a second click does not download it twice', async () => {
    let send = (_answer: Response) => {};
    const { sent, saved } = answers({
      'GET /api/reports.csv': () =>
        new Promise<Response>((resolve) => {
          send = resolve;
        }),
    });
    await render(
      <MediaLink className="btn" href="/api/reports.csv">
        Export CSV
      </MediaLink>,
    );
    const link = page.getByRole('link', { name: 'Export CSV' });
    await link.click();
    await expect.element(link).toHaveAttribute('aria-busy', 'true');
    await expect.element(page.getByRole('status')).toHaveTextContent('Preparing the download…');
    expect(getComputedStyle(link.element()).cursor).toBe('progress');
    await link.click();
    send(fileAnswer('text/csv', 'inspection-reports.csv', 'Inspection\r\n'));
    await expect.poll(() => saved.map(({ name }) => name)).toEqual(['inspection-reports.csv']);
    await expect.element(link).not.toHaveAttribute('aria-busy');
    expect(page.getByRole('status').query()).toBeNull();
    expect(sent).toHaveLength(1);
  });

  it('downloads nothing when the session has ended, and says so', async () => {
    const { clicked } = answers({
      'GET /api/reports.csv': () => errorAnswer(401, 'Invalid or expired token'),
    });
    await render(
      <MediaLink className="btn" href="/api/reports.csv">
        Export CSV
      </MediaLink>,
    );
    await page.getByRole('link', { name: 'Export CSV' }).click();
    await expect.poll(() => toasts.items.at(-1)?.summary).toBe('Session expired');
    expect(clicked).toEqual([]);
    expect(window.location.pathname).toBe('/login');
  });
});
