import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import AuditDashboardPage from './audit-dashboard-page.tsx';

afterEach(async () => {
  await cleanup();
  signOut();
  vi.unstubAllGlobals();
});

async function showAs(roles: string[]) {
  signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles });
  vi.stubGlobal(
    'fetch',
    fakeFetch({
      'GET /api/reports': { body: { rows: [], next: null } },
      'GET /api/audit-log': { body: [] },
      'GET /api/audit-log/facets': { body: { actions: [], entities: [] } },
    }).fetchImpl,
  );
  await render(
    <Router hook={memoryLocation({ path: '/audit' }).hook}>
      <AuditDashboardPage />
    </Router>,
  );
  await expect.element(page.getByRole('heading', { name: 'Audit Dashboard' })).toBeVisible();
}

describe('/audit', () => {
  it('tells auditors of the inspections and the audit trail, and shows both', async () => {
    await showAs(['audit']);
    await expect
      .element(
        page.getByText(
          'Inspections by review status, and the hash-chained audit trail of every change.',
        ),
      )
      .toBeVisible();
    await expect.element(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
  });

  it('tells an LC manager only of what it sees: its lines’ inspections, no trail', async () => {
    await showAs(['lc_manager']);
    await expect
      .element(page.getByText('Inspections on the lines you manage, by review status.'))
      .toBeVisible();
    await expect.element(page.getByRole('heading', { name: /^Pending inspections/ })).toBeVisible();
    expect(page.getByText(/audit trail/i).query()).toBeNull();
  });
});
