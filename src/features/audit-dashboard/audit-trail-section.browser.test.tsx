import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import type { AuditEntry } from '../../types/api.ts';
import { AuditTrailSection, changes, reasonOf } from './audit-trail-section.tsx';

const approval: AuditEntry = {
  id: 7,
  at: '2026-11-20T10:35:00.125Z',
  actorId: 'a'.repeat(24),
  actorEmail: 'lc.manager@example.com',
  action: 'approve',
  entity: 'inspection',
  entityId: 'b'.repeat(24),
  oldValue: { status: 'pending' },
  newValue: { status: 'approved' },
  ip: '127.0.0.1',
  prevHash: 'c'.repeat(64),
  hash: 'd'.repeat(64),
};

const entry = (newValue: unknown): AuditEntry => ({ ...approval, oldValue: null, newValue });

/** Answers the trail's calls and keeps each query the section sent. */
function stubTrail() {
  const queries: URLSearchParams[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(String(input), window.location.origin);
    if (url.pathname === '/api/audit-log') queries.push(url.searchParams);
    const body =
      url.pathname === '/api/audit-log/facets'
        ? { actions: ['approve', 'create', 'login'], entities: ['inspection', 'user'] }
        : url.pathname === '/api/audit-log'
          ? url.searchParams.get('action')
            ? [approval]
            : []
          : null;
    return new Response(JSON.stringify(body), {
      status: body ? 200 : 404,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return queries;
}

afterEach(async () => {
  await cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('the audit trail viewer', () => {
  it('shows old → new for each changed field only', () => {
    expect(
      changes(
        { status: 'pending', reviewerId: null, notes: 'same' },
        { status: 'approved', reviewerId: 'u1', notes: 'same' },
      ),
    ).toEqual(['status: pending → approved', 'reviewerId: null → u1']);
    // A record created or removed reads as its fields, the empty ones left out.
    expect(changes(null, { name: 'Line 1', reason: 'x', note: null, tags: ['a'] })).toEqual([
      'name: Line 1',
      'tags: ["a"]',
    ]);
    expect(changes({ name: 'Line 1' }, null)).toEqual(['name: Line 1 → —']);
    expect(changes(null, 'logged in')).toEqual(['logged in']);
    expect(changes(null, null)).toEqual([]);
    expect(changes({ a: 'x'.repeat(300) }, { a: 'y' })[0]).toMatch(/^a: x{160}… → y$/);
  });

  it('finds the reason where the entry gives one', () => {
    expect(reasonOf(entry({ reason: 'wrong password' }))).toBe('wrong password');
    expect(reasonOf(entry({ signature: { notes: 'Approved by LC Manager' } }))).toBe(
      'Approved by LC Manager',
    );
    expect(reasonOf(entry({ status: 'approved' }))).toBeNull();
    expect(reasonOf(entry('text'))).toBeNull();
  });

  it('offers the actions and object types the trail holds, and filters by the one chosen', async () => {
    signIn('token', {
      id: 'u1',
      name: 'Ada Auditor',
      email: 'audit@example.com',
      roles: ['audit'],
    });
    const queries = stubTrail();
    await render(<AuditTrailSection />);
    await expect.element(page.getByText('No entries match these filters.')).toBeVisible();
    const action = page.getByLabelText('Action');
    await expect.element(action.getByRole('option', { name: 'login' })).toBeInTheDocument();
    await expect
      .element(page.getByLabelText('Object type').getByRole('option', { name: 'user' }))
      .toBeInTheDocument();
    await action.selectOptions('approve');
    await expect.poll(() => queries.at(-1)?.get('action')).toBe('approve');
    // The record's clock (the test browser runs in UTC, so no local time beside it).
    await expect.element(page.getByRole('rowheader')).toHaveTextContent('2026-11-20 10:35:00 UTC');
    await expect.element(page.getByText('status: pending → approved')).toBeVisible();
    await action.selectOptions('All actions');
    await expect.poll(() => queries.at(-1)?.has('action')).toBe(false);
  });
});
