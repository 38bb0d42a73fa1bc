import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import type { LineClearance, User } from '../../types/api.ts';
import { linesInReportScope } from './line-scope.ts';
import ReportsPage from './reports-page.tsx';

afterEach(async () => {
  await cleanup();
  signOut();
  vi.unstubAllGlobals();
});

const line = (n: number, name: string, managerId: string | null, operators: string[] = []) =>
  ({
    _id: `c0000000000000000000000${n}`,
    name,
    description: '',
    location: '',
    status: 'active',
    managerId,
    assignedOperators: operators,
  }) satisfies LineClearance;
const blister = line(1, 'Blister Line 1', 'u-lc', ['u-op']);
const bottling = line(2, 'Bottling Line 2', 'u-lc2');
const qa = line(3, 'QA Line', null);
const sachet = line(4, 'Sachet Line 3', 'u-lc');
const lines = [blister, bottling, qa, sachet];

const user = (id: string, role: User['role'], lineClearanceIds: string[] = []): User => ({
  _id: id,
  id,
  name: `User ${id}`,
  email: `${id}@example.com`,
  role,
  lineClearanceIds,
  assignedOperators: [],
  status: 'active',
  lockedUntil: null,
});

const names = (list: LineClearance[]) => list.map((l) => l.name);

describe('the Line filter of /reports', () => {
  it('holds the lines in the caller’s scope', () => {
    const me = (id: string, ids: string[] = []) => ({ id, lineClearanceIds: ids });
    expect(names(linesInReportScope(lines, ['audit'], me('u-aud')))).toEqual(names(lines));
    expect(names(linesInReportScope(lines, ['factory_manager'], null))).toEqual(names(lines));
    expect(names(linesInReportScope(lines, ['lc_manager'], me('u-lc')))).toEqual([
      'Blister Line 1',
      'Sachet Line 3',
    ]);
    // An operator: the lines it works on, either way round.
    expect(names(linesInReportScope(lines, ['operator'], me('u-op', [qa._id])))).toEqual([
      'Blister Line 1',
      'QA Line',
    ]);
    // Several roles: the union.
    expect(
      names(linesInReportScope(lines, ['lc_manager', 'operator'], me('u-lc2', [qa._id]))),
    ).toEqual(['Bottling Line 2', 'QA Line']);
    expect(linesInReportScope(lines, ['lc_manager'], null)).toEqual([]);
  });

  it('offers an LC manager only its own lines', async () => {
    signIn('token', { id: 'u-lc', name: 'Lena', email: 'u-lc@example.com', roles: ['lc_manager'] });
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        'GET /api/line-clearances': { body: lines },
        'GET /api/users': { body: [user('u-op', ['operator'], [blister._id])] },
        'GET /api/reports': { body: { rows: [], next: null } },
      }).fetchImpl,
    );
    await render(
      <Router hook={memoryLocation({ path: '/reports' }).hook}>
        <ReportsPage />
      </Router>,
    );
    const select = page.getByLabelText('Line');
    await expect.element(select.getByRole('option', { name: 'Sachet Line 3' })).toBeInTheDocument();
    const options = [...(select.element() as HTMLSelectElement).options].map((o) => o.text);
    expect(options).toEqual(['All lines', 'Blister Line 1', 'Sachet Line 3']);
  });
});
