import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { paths } from '../../config/paths.ts';
import { signIn, signOut } from '../../stores/session.ts';
import InspectionReportPage from './inspection-report-page.tsx';

afterEach(async () => {
  await cleanup();
  signOut();
  vi.unstubAllGlobals();
});

async function visit(id: string, routes: Parameters<typeof fakeFetch>[0] = {}) {
  const { fetchImpl, calls } = fakeFetch(routes);
  vi.stubGlobal('fetch', fetchImpl);
  signIn('token', { id: 'u1', name: 'Sofia', email: 's@example.com', roles: ['lc_manager'] });
  const memory = memoryLocation({ path: `/inspection-report/${id}` });
  await render(
    <Router hook={memory.hook}>
      <Route path={paths.inspectionReport}>
        <InspectionReportPage />
      </Route>
    </Router>,
  );
  return calls;
}

describe('inspection report: an id that names no inspection', () => {
  it('says "Inspection not found" for a malformed id, without asking the server', async () => {
    const calls = await visit('nonsense');
    await expect.element(page.getByRole('alert')).toHaveTextContent('Inspection not found');
    expect(page.getByText(/params\.id/).query()).toBeNull();
    expect(calls).toEqual([]);
  });

  it('says "Inspection not found" for a well-formed id the server does not know', async () => {
    const id = '0123456789abcdef01234567';
    const calls = await visit(id, {
      [`GET /api/reports/${id}`]: { status: 404, body: { message: 'Inspection not found' } },
    });
    await expect.element(page.getByRole('alert')).toHaveTextContent('Inspection not found');
    expect(calls).toEqual([`GET /api/reports/${id}`]);
  });
});
