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
      'GET /api/reports': { body: { rows: [], next: null } },
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
        const body = url.includes('status=rejected')
          ? { rows: [], next: null }
          : page2
            ? { rows: rows(20, 25), next: null }
            : { rows: rows(25, 0), next: 'cursor-2' };
        return Promise.resolve(new Response(JSON.stringify(body)));
      }
      return fetchImpl(input, init);
    });
    await render(
      <Router hook={memoryLocation({ path: '/reports' }).hook}>
        <ReportsPage />
      </Router>,
    );
    const status = page.getByRole('status');
    await expect.element(status).toHaveTextContent('Page 1: 25 reports');
    const previous = page.getByRole('button', { name: 'Previous page' });
    const next = page.getByRole('button', { name: 'Next page' });
    await expect.element(previous).toHaveAttribute('aria-disabled', 'true');

    (next.element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    await expect.element(status).toHaveTextContent('Page 2: 20 reports');
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

describe('checking the signed records', () => {
  it('is offered to auditors, says what it found and lists the changed records', async () => {
    signIn('token', { id: 'u-a', name: 'Ada', email: 'audit@example.com', roles: ['audit'] });
    const changed = { ...reportRow, changedAfterSigning: true };
    const { fetchImpl } = fakeFetch({
      'GET /api/reports/filters': { body: { lines: [], operators: [] } },
      'GET /api/reports': { body: { rows: [reportRow], next: null } },
      'POST /api/reports/check-signatures': {
        body: { checked: 4, changed: 1, inspectionIds: [reportRow.inspectionId] },
      },
    });
    const urls: string[] = [];
    let checked = false;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      urls.push(url);
      if (init?.method === 'POST') checked = true;
      // After the check the list answers with the row marked.
      if (checked && url.startsWith('/api/reports?')) {
        return Promise.resolve(Response.json({ rows: [changed], next: null }));
      }
      return fetchImpl(input, init);
    });
    await render(
      <Router hook={memoryLocation({ path: '/reports' }).hook}>
        <ReportsPage />
      </Router>,
    );
    await page.getByRole('button', { name: 'Check signed records' }).click();
    await expect
      .element(page.getByText(/^Checked 4 signed records/))
      .toHaveTextContent(
        'Checked 4 signed records: 1 changed after signing (choose Signature: Changed after signing).',
      );
    await expect
      .element(page.getByRole('row').nth(1))
      .toHaveTextContent(/approved Changed after signing/);
    await page.getByLabelText('Signature').selectOptions('Changed after signing');
    await expect
      .poll(() => urls.some((url) => url.includes('changedAfterSigning=true')))
      .toBe(true);
  });

  it('is not offered to an LC manager, who reads only its lines', async () => {
    signIn('token', { id: 'u-lc', name: 'Lena', email: 'lc@example.com', roles: ['lc_manager'] });
    const { fetchImpl } = fakeFetch({
      'GET /api/reports/filters': { body: { lines: [], operators: [] } },
      'GET /api/reports': { body: { rows: [reportRow], next: null } },
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
