import { format } from 'date-fns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { reportRow } from '../../../tests/web/report-row.ts';
import { signIn, signOut } from '../../stores/session.ts';
import type { ReportFilters } from '../../types/api.ts';
import ReportsPage from './reports-page.tsx';

afterEach(async () => {
  await cleanup();
  signOut();
  vi.unstubAllGlobals();
});

const none = { count: 0, more: false };
const one = { count: 1, more: false };
/** A keyset cursor as the server gives it (`{ms}_{id}`). */
const cursor2 = '1763600000000_0123456789abcdef01230024';

const optionTexts = async (label: string, expected: string) => {
  const select = page.getByLabelText(label);
  await expect.element(select.getByRole('option', { name: expected })).toBeInTheDocument();
  return [...(select.element() as HTMLSelectElement).options].map((o) => o.text);
};

describe('the filters of /reports', () => {
  it('offer the lines and operators the server names for the caller, and filter by them', async () => {
    signIn('token', { id: 'u-lc', name: 'Lena', email: 'u-lc@example.com', roles: ['lc_manager'] });
    const filters: ReportFilters = {
      lines: [
        { id: 'c00000000000000000000001', name: 'Blister Line 1' },
        { id: 'c00000000000000000000004', name: 'Sachet Line 3' },
      ],
      operators: [{ id: 'a00000000000000000000007', name: 'Olga Operator' }],
    };
    const { fetchImpl } = fakeFetch({
      'GET /api/reports/filters': { body: filters },
      'GET /api/reports': { body: { rows: [], next: null, total: none } },
    });
    const urls: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      urls.push(String(input));
      return fetchImpl(input, init);
    });
    await render(
      <Router hook={memoryLocation({ path: '/reports' }).hook}>
        <ReportsPage />
      </Router>,
    );
    expect(await optionTexts('Line', 'Sachet Line 3')).toEqual([
      'All lines',
      'Blister Line 1',
      'Sachet Line 3',
    ]);
    expect(await optionTexts('Operator', 'Olga Operator')).toEqual([
      'All operators',
      'Olga Operator',
    ]);
    await page.getByLabelText('Operator').selectOptions('Olga Operator');
    await expect
      .poll(() => urls.some((url) => url.includes('operatorId=a00000000000000000000007')))
      .toBe(true);
  });
});

describe('paging /reports by keyboard', () => {
  it('keeps the focus on a pager button that has nowhere to go, and says what each page holds', async () => {
    signIn('token', { id: 'u-lc', name: 'Lena', email: 'u-lc@example.com', roles: ['lc_manager'] });
    const rows = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => ({
        ...reportRow,
        inspectionId: `0123456789abcdef0123${String(from + i).padStart(4, '0')}`,
      }));
    const { fetchImpl, calls } = fakeFetch({
      'GET /api/reports/filters': { body: { lines: [], operators: [] } },
    });
    const urls: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      urls.push(url);
      if (url.startsWith('/api/reports?')) {
        const page2 = url.includes('after=');
        const total = { count: 45, more: false };
        const body = url.includes('status=rejected')
          ? { rows: [], next: null, total: none }
          : page2
            ? { rows: rows(20, 25), next: null, total }
            : { rows: rows(25, 0), next: cursor2, total };
        return Promise.resolve(new Response(JSON.stringify(body)));
      }
      return fetchImpl(input, init);
    });
    await render(
      <Router hook={memoryLocation({ path: '/reports' }).hook}>
        <ReportsPage />
      </Router>,
    );
    // The page's status first, then the total's.
    const status = page.getByRole('status').first();
    await expect.element(status).toHaveTextContent('Page 1: 25 reports');
    const previous = page.getByRole('button', { name: 'Previous page' });
    const next = page.getByRole('button', { name: 'Next page' });
    await expect.element(previous).toHaveAttribute('aria-disabled', 'true');

    (next.element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    // With several pages, what this one holds and the total, in one line.
    await expect.element(status).toHaveTextContent('Page 2: 20 reports · 45 reports in all');
    // The last page: Next says so and keeps the focus (`disabled` dropped it to <body>).
    await expect.element(next).toHaveAttribute('aria-disabled', 'true');
    await expect.element(next).toHaveFocus();
    const asked = urls.length;
    await userEvent.keyboard('{Enter}');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(urls).toHaveLength(asked);

    await userEvent.click(previous);
    await expect.element(status).toHaveTextContent('Page 1: 25 reports');
    await expect.element(previous).toHaveFocus();

    await page.getByLabelText('Status').selectOptions('rejected');
    await expect.element(status).toHaveTextContent('No reports match these filters.');
    expect(calls).toEqual(['GET /api/reports/filters']);
  });
});

describe('the count of /reports', () => {
  it('is said once when one page holds every report', async () => {
    signIn('token', { id: 'u-lc', name: 'Lena', email: 'u-lc@example.com', roles: ['lc_manager'] });
    const rows = [1, 2, 3].map((n) => ({
      ...reportRow,
      inspectionId: `0123456789abcdef0123000${n}`,
    }));
    const { fetchImpl } = fakeFetch({
      'GET /api/reports/filters': { body: { lines: [], operators: [] } },
      'GET /api/reports': { body: { rows, next: null, total: { count: 3, more: false } } },
    });
    vi.stubGlobal('fetch', fetchImpl);
    await render(
      <Router hook={memoryLocation({ path: '/reports' }).hook}>
        <ReportsPage />
      </Router>,
    );
    const status = page.getByRole('status');
    await expect.element(status).toHaveTextContent('3 reports in all');
    // QA: 'Page 1: 3 reports' above '3 reports in all'.
    expect(status.elements()).toHaveLength(1);
    expect(page.getByText(/Page 1/).query()).toBeNull();
  });
});

describe('checking the signed records', () => {
  it('is offered to auditors, shows the progress, says what it found and lists the changed records', async () => {
    signIn('token', { id: 'u-a', name: 'Ada', email: 'audit@example.com', roles: ['audit'] });
    const changed = { ...reportRow, changedAfterSigning: true };
    const started = {
      startedAt: '2026-11-12T06:30:00.000Z',
      startedBy: { id: 'a00000000000000000000005', name: 'Ada' },
      total: 4,
    };
    const { fetchImpl } = fakeFetch({
      'GET /api/reports/filters': { body: { lines: [], operators: [] } },
      'GET /api/reports': { body: { rows: [reportRow], next: null, total: one } },
    });
    const urls: string[] = [];
    // The server's answers in turn: none yet, started, half way, then finished.
    let polls = 0;
    let checked = false;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      urls.push(url);
      if (url === '/api/reports/check-signatures') {
        if (init?.method === 'POST') {
          checked = true;
          return Promise.resolve(
            Response.json({ state: 'running', checked: 0, ...started }, { status: 202 }),
          );
        }
        if (!checked) return Promise.resolve(Response.json({ state: 'none' }));
        polls++;
        return Promise.resolve(
          Response.json(
            polls === 1
              ? { state: 'running', checked: 2, ...started }
              : {
                  state: 'finished',
                  checked: 4,
                  ...started,
                  finishedAt: '2026-11-12T06:31:00.000Z',
                  changed: 1,
                  inspectionIds: [reportRow.inspectionId],
                },
          ),
        );
      }
      // After the check the list answers with the row marked.
      if (polls > 1 && url.startsWith('/api/reports?')) {
        return Promise.resolve(Response.json({ rows: [changed], next: null, total: one }));
      }
      return fetchImpl(input, init);
    });
    await render(
      <Router hook={memoryLocation({ path: '/reports' }).hook}>
        <ReportsPage />
      </Router>,
    );
    const button = page.getByRole('button', { name: 'Check signed records' });
    await expect.element(button).toBeVisible();
    await button.click();
    const progress = page.getByText(/^Checking signed records/);
    await expect
      .element(progress)
      .toHaveTextContent(
        /^Checking signed records: 0 of 4 \(started 2026-11-12 06:30 UTC.* by Ada\)…$/,
      );
    await expect.element(page.getByRole('button', { name: 'Checking…' })).toBeVisible();
    // The page asks again every 2 s.
    await expect
      .element(progress, { timeout: 4000 })
      .toHaveTextContent(/^Checking signed records: 2 of 4 /);
    await expect
      .element(page.getByText(/^Checked 4 signed records/), { timeout: 4000 })
      .toHaveTextContent(
        'Checked 4 signed records: 1 changed after signing (choose Signature: Changed after signing).',
      );
    await expect.element(button).toBeVisible();
    await expect
      .element(page.getByRole('row').nth(1))
      .toHaveTextContent(/approved Changed after signing/);
    await page.getByLabelText('Signature').selectOptions('Changed after signing');
    await expect
      .poll(() => urls.some((url) => url.includes('changedAfterSigning=true')))
      .toBe(true);
  });

  it('follows a run already going when the page opens, without starting another', async () => {
    signIn('token', {
      id: 'u-f',
      name: 'Martin',
      email: 'fm@example.com',
      roles: ['factory_manager'],
    });
    const started = {
      startedAt: '2026-11-12T06:30:00.000Z',
      startedBy: { id: 'a00000000000000000000005', name: 'Helen Park' },
      total: 18836,
    };
    let polls = 0;
    const { fetchImpl, calls } = fakeFetch({
      'GET /api/reports/filters': { body: { lines: [], operators: [] } },
      'GET /api/reports': { body: { rows: [reportRow], next: null, total: one } },
    });
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) !== '/api/reports/check-signatures') return fetchImpl(input, init);
      if (init?.method === 'POST') throw new Error('no second run is started');
      polls++;
      return Promise.resolve(
        Response.json(
          polls === 1
            ? { state: 'running', checked: 9000, ...started }
            : {
                state: 'failed',
                checked: 9001,
                ...started,
                finishedAt: '2026-11-12T06:31:00.000Z',
                error:
                  'Record 0123456789abcdef01230000 could not be built; the server log says why.',
              },
        ),
      );
    });
    await render(
      <Router hook={memoryLocation({ path: '/reports' }).hook}>
        <ReportsPage />
      </Router>,
    );
    await expect
      .element(page.getByText(/^Checking signed records/))
      .toHaveTextContent(/^Checking signed records: 9000 of 18836 \(started .* by Helen Park\)…$/);
    await expect
      .element(page.getByText(/^The check of the signed records stopped/), { timeout: 4000 })
      .toHaveTextContent(
        'The check of the signed records stopped after 9001 of 18836: Record 0123456789abcdef01230000 could not be built; the server log says why.',
      );
    // A failed run changed nothing the list shows: it is not asked again.
    expect(calls.filter((call) => call === 'GET /api/reports')).toHaveLength(1);
  });

  it('is not offered to an LC manager, who reads only its lines', async () => {
    signIn('token', { id: 'u-lc', name: 'Lena', email: 'lc@example.com', roles: ['lc_manager'] });
    const { fetchImpl } = fakeFetch({
      'GET /api/reports/filters': { body: { lines: [], operators: [] } },
      'GET /api/reports': { body: { rows: [reportRow], next: null, total: one } },
    });
    vi.stubGlobal('fetch', fetchImpl);
    await render(
      <Router hook={memoryLocation({ path: '/reports' }).hook}>
        <ReportsPage />
      </Router>,
    );
    await expect.element(page.getByRole('link', { name: 'Export CSV' })).toBeVisible();
    expect(page.getByRole('button', { name: 'Check signed records' }).query()).toBeNull();
  });
});

describe('/reports keeps its filters, sort and page in the URL', () => {
  /** /reports on `path`, answering each list request with two rows and a next page. */
  async function open(memory: Pick<ReturnType<typeof memoryLocation>, 'hook' | 'searchHook'>) {
    signIn('token', { id: 'u-lc', name: 'Lena', email: 'u-lc@example.com', roles: ['lc_manager'] });
    const { fetchImpl } = fakeFetch({
      'GET /api/reports/filters': { body: { lines: [], operators: [] } },
    });
    const urls: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (!url.startsWith('/api/reports?')) return fetchImpl(input, init);
      urls.push(url);
      const total = url.includes('status=pending')
        ? { count: 200, more: true }
        : { count: 1234, more: false };
      return Promise.resolve(Response.json({ rows: [reportRow], next: cursor2, total }));
    });
    await render(
      <Router hook={memory.hook} searchHook={memory.searchHook}>
        <ReportsPage />
      </Router>,
    );
    return urls;
  }

  it('so that Back, a reload or a shared link shows the same list', async () => {
    const memory = memoryLocation({ path: '/reports', record: true });
    const urls = await open(memory);
    await expect.element(page.getByText('1,234 reports in all')).toBeVisible();
    await page.getByLabelText('Status').selectOptions('pending');
    await page.getByLabelText('Sort').selectOptions('Oldest first');
    await userEvent.click(page.getByRole('button', { name: 'Next page' }));
    await expect.element(page.getByRole('status').first()).toHaveTextContent('Page 2: 1 report');
    const shown = `/reports?status=pending&sort=startTime&after=${cursor2}`;
    // Each change replaced the entry: Back leaves /reports rather than undoing a filter.
    expect(memory.history).toEqual([shown]);
    expect(urls.at(-1)).toContain(`status=pending&sort=startTime&limit=25&after=${cursor2}`);
    await expect.element(page.getByText('More than 200 reports in all')).toBeVisible();

    // Coming back to that URL (Back from a report, a reload, a link) shows the same page.
    await cleanup();
    const again = await open(memoryLocation({ path: shown }));
    await expect.element(page.getByRole('status').first()).toHaveTextContent('Page 2: 1 report');
    expect(again).toEqual([urls.at(-1)]);
    await expect.element(page.getByLabelText('Status')).toHaveValue('pending');
    await expect.element(page.getByLabelText('Sort')).toHaveValue('startTime');
    await userEvent.click(page.getByRole('button', { name: 'Previous page' }));
    await expect.element(page.getByRole('status').first()).toHaveTextContent('Page 1: 1 report');
    expect(again.at(-1)).not.toContain('after=');
  });

  it('reads a hand-written day as that whole day here, and labels a range from elsewhere by its times', async () => {
    const urls = await open(memoryLocation({ path: '/reports?from=2026-11-19&to=2026-11-19' }));
    await expect.element(page.getByRole('status').first()).toHaveTextContent('Page 1: 1 report');
    const query = new URLSearchParams(urls[0]?.split('?')[1]);
    expect(query.get('from')).toBe(new Date(2026, 10, 19).toISOString());
    expect(query.get('to')).toBe(new Date(2026, 10, 19, 23, 59, 59, 999).toISOString());
    await expect
      .element(page.getByRole('button', { name: /^Filter by date range: / }))
      .toHaveTextContent('Nov 19, 2026 – Nov 19, 2026');

    // A day picked where it is 5 h 30 min ahead: here it is not whole days, so its times show.
    await cleanup();
    const from = new Date(new Date(2026, 10, 19).getTime() - 5.5 * 3600_000);
    const to = new Date(from.getTime() + 86_400_000 - 1);
    await open(
      memoryLocation({
        path: `/reports?from=${from.toISOString()}&to=${to.toISOString()}`,
      }),
    );
    await expect
      .element(page.getByRole('button', { name: /^Filter by date range: / }))
      .toHaveTextContent(
        `${format(from, 'MMM d, yyyy HH:mm')} – ${format(to, 'MMM d, yyyy HH:mm')}`,
      );
  });

  it('drops a value the server would refuse, so an edited link still lists', async () => {
    const memory = memoryLocation({
      path: '/reports?status=done&after=nonsense&flagged=true&sort=xyz',
      record: true,
    });
    const urls = await open(memory);
    await expect.element(page.getByRole('status').first()).toHaveTextContent('Page 1: 1 report');
    expect(urls).toEqual(['/api/reports?flagged=true&sort=-startTime&limit=25']);
    // Nor does the address bar keep them: replaced, so Back does not bring them back.
    expect(memory.history).toEqual(['/reports?flagged=true']);
  });

  it('applies a range open at one end as such, and says so', async () => {
    const from = '2026-11-15T00:00:00.000Z';
    const urls = await open(memoryLocation({ path: `/reports?from=${from}` }));
    // The test browser runs in UTC: the link's start is a whole day here.
    await expect.element(page.getByText('From Nov 15, 2026 on (no end date).')).toBeVisible();
    expect(urls).toEqual([
      `/api/reports?from=${encodeURIComponent(from)}&sort=-startTime&limit=25`,
    ]);
    await userEvent.click(page.getByRole('button', { name: 'Clear Filters' }));
    await expect.element(page.getByText(/no end date/)).not.toBeInTheDocument();
    expect(urls.at(-1)).toBe('/api/reports?sort=-startTime&limit=25');

    await cleanup();
    const to = '2026-11-20T12:00:00.000Z';
    const before = await open(memoryLocation({ path: `/reports?to=${to}` }));
    await expect.element(page.getByText('Up to Nov 20, 2026 12:00 (no start date).')).toBeVisible();
    expect(before).toEqual([`/api/reports?to=${encodeURIComponent(to)}&sort=-startTime&limit=25`]);

    // A link's range backwards matches nothing: said, not only 'No reports'.
    await cleanup();
    await open(memoryLocation({ path: '/reports?from=2026-11-19&to=2026-11-01' }));
    await expect
      .element(
        page.getByText(
          'This range ends before it starts (Nov 1, 2026 is before Nov 19, 2026), so nothing matches it: choose the dates again.',
        ),
      )
      .toBeVisible();
  });
});
