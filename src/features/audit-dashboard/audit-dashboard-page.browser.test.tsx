import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import type { AuditEntry } from '../../types/api.ts';
import AuditDashboardPage from './audit-dashboard-page.tsx';

afterEach(async () => {
  await cleanup();
  signOut();
  vi.unstubAllGlobals();
});

async function showAs(roles: string[], trail: AuditEntry[] = [], path = '/audit') {
  signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles });
  const fake = fakeFetch({
    'GET /api/reports': { body: { rows: [], next: null } },
    'GET /api/audit-log': { body: trail },
    'GET /api/audit-log/facets': { body: { actions: [], entities: [] } },
  });
  // The trail's queries, as sent (the fake keeps only method and path).
  const queries: string[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), window.location.origin);
    if (url.pathname === '/api/audit-log') queries.push(url.search);
    return fake.fetchImpl(input, init);
  });
  const memory = memoryLocation({ path, record: true });
  await render(
    <Router hook={memory.hook} searchHook={memory.searchHook}>
      <AuditDashboardPage />
    </Router>,
  );
  await expect.element(page.getByRole('heading', { name: 'Audit Dashboard' })).toBeVisible();
  return { queries, memory };
}

const inspectionId = 'b'.repeat(24);
const videoId = 'v'.repeat(24);
/** A record's history as the trail answers it, newest first: a signature and a hash check. */
const history: AuditEntry[] = [
  {
    id: 9,
    at: '2026-11-20T10:35:00.125Z',
    actorId: 'a'.repeat(24),
    actorEmail: 'lc.manager.with.a.long.name@pharma-site.example.com',
    action: 'approve',
    entity: 'inspection',
    entityId: inspectionId,
    oldValue: { status: 'pending', reviewedAt: null },
    newValue: {
      status: 'approved',
      reviewedAt: '2026-11-20T10:35:00.125Z',
      signature: {
        notes: 'The line was seen clear after the debris was removed',
        meaning: 'approved',
      },
    },
    ip: '127.0.0.1',
    reason: 'The line was seen clear after the debris was removed',
    prevHash: 'c'.repeat(64),
    hash: 'd'.repeat(64),
  },
  {
    id: 5,
    at: '2026-11-20T09:00:00.000Z',
    actorId: 'o'.repeat(24),
    actorEmail: 'operator@example.com',
    action: 'verify',
    entity: 'video',
    entityId: videoId,
    oldValue: { sha256: null, size: 0 },
    newValue: { sha256: 'e'.repeat(64), size: 123456, upload: 'u'.repeat(24) },
    ip: null,
    reason: null,
    prevHash: 'f'.repeat(64),
    hash: '0'.repeat(64),
  },
];

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

describe('/audit: a record’s whole history', () => {
  it('opens on the record the address names, and follows the Record filter', async () => {
    const { queries, memory } = await showAs(['audit'], history, `/audit?record=${inspectionId}`);
    await expect.poll(() => queries[0]).toBe(`?record=${inspectionId}&limit=50`);
    await expect
      .element(page.getByText(`The whole history of inspection ${inspectionId}`, { exact: false }))
      .toBeVisible();
    // An auditor gets the PDF; the route table keeps it off the report page.
    await expect
      .element(page.getByRole('link', { name: 'Download its PDF' }))
      .toHaveAttribute('href', expect.stringContaining(`/api/reports/${inspectionId}/pdf`));
    await expect
      .element(page.getByRole('link', { name: 'its electronic copy (JSON)' }))
      .toHaveAttribute('href', `/api/reports/${inspectionId}/record.json`);
    expect(page.getByRole('link', { name: 'Open its report' }).query()).toBeNull();
    await expect.element(page.getByLabelText('Record (inspection id)')).toHaveValue(inspectionId);
    await userEvent.click(page.getByRole('button', { name: 'Clear Filters' }));
    await expect.poll(() => queries.at(-1)).toBe('?limit=50');
    expect(memory.history?.at(-1)).toBe('/audit');
  });
});

describe('/audit on a phone', () => {
  it('stacks each entry as a block: no sideways page, Who, What and Old → new on screen', async () => {
    await page.viewport(390, 844);
    try {
      await showAs(['audit'], history);
      await expect.element(page.getByText('status: pending → approved')).toBeVisible();
      expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(390);
      // Between entries 9 and 5, the numbers no entry has (a row of their own, on screen too).
      const gap = page.getByRole('row').filter({ hasText: /^No entry 6–8:/ });
      expect(gap.element().getBoundingClientRect().right).toBeLessThanOrEqual(390);
      const rows = page
        .getByRole('row')
        .all()
        .slice(1)
        .filter((row) => row.element() !== gap.element());
      expect(rows).toHaveLength(history.length);
      for (const row of rows) {
        for (const cell of [...row.element().children] as HTMLElement[]) {
          const box = cell.getBoundingClientRect();
          expect(box.left, cell.textContent ?? '').toBeGreaterThanOrEqual(0);
          expect(box.right, cell.textContent ?? '').toBeLessThanOrEqual(390);
        }
        // As table rows at this width, a signature's entry was about 700 px tall.
        expect(row.element().getBoundingClientRect().height).toBeLessThan(500);
        for (const label of ['Who', 'What', 'Old → new']) {
          await expect.element(row.getByText(label, { exact: true })).toBeVisible();
        }
      }
      for (const text of [
        'lc.manager.with.a.long.name@pharma-site.example.com',
        'approve inspection',
        'verify video',
        `sha256: — → ${'e'.repeat(64)}`,
      ]) {
        await expect.element(page.getByText(text, { exact: false }).first()).toBeVisible();
      }
      // No scroll frame: the entries fit, so nothing says to scroll sideways.
      expect(page.getByText('Scroll sideways for more columns').query()).toBeNull();
    } finally {
      await page.viewport(1024, 768);
    }
  });
});
