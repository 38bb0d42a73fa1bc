import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
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
