import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { runOptions } from '../../../tests/e2e/support/axe.ts';
import { activeLine } from '../../../tests/web/line-fixture.ts';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { localTime, recordTime } from '../../lib/record-time.ts';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import type { LineOverview, LinesOverview, User } from '../../types/api.ts';
import AdminDashboardPage from './admin-dashboard-page.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
  await page.viewport(1280, 900);
});

const blisterId = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const labellerId = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const signedId = 'cccccccccccccccccccccccc';
const quiet = {
  lastSigned: null,
  pending: 0,
  overdue: 0,
  oldestPendingSince: null,
  recentInspections: 0,
  recentRejections: 0,
} satisfies Partial<LineOverview>;
const overview: LinesOverview = {
  asOf: '2026-11-20T12:00:00.000Z',
  windowDays: 30,
  overdueAfterHours: 24,
  totals: { pending: 4, overdue: 2, recentRejections: 3 },
  lines: [
    {
      lineClearanceId: blisterId,
      name: 'Blister Line 1',
      status: 'active',
      manager: { id: 'dddddddddddddddddddddddd', name: 'Sofia Lindqvist' },
      lastSigned: {
        inspectionId: signedId,
        status: 'rejected',
        signedAt: '2026-11-19T08:30:00.000Z',
        signerName: 'Łukasz Kowalski',
      },
      pending: 4,
      overdue: 2,
      oldestPendingSince: '2026-11-17T12:00:00.000Z',
      recentInspections: 12,
      recentRejections: 3,
    },
    {
      ...quiet,
      lineClearanceId: labellerId,
      name: 'Labeller',
      status: 'maintenance',
      manager: null,
    },
  ],
};
const emptyAlerts = { reviewed: null, count: 0, entries: [], lockedAccounts: [] };

/** The dashboard as `roles` see it, with this overview answer; answers the calls made. */
async function showDashboard(
  roles: string[],
  answer: { status?: number; body?: unknown } = { body: overview },
) {
  signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles });
  const fake = fakeFetch({
    'GET /api/line-clearances': { body: [activeLine(blisterId)] },
    'GET /api/users': { body: [] },
    'GET /api/devices': { body: [] },
    'GET /api/security-alerts': { body: emptyAlerts },
    'GET /api/reports/overview': answer,
  });
  vi.stubGlobal('fetch', fake.fetchImpl);
  await render(<AdminDashboardPage />);
  return fake.calls;
}

const section = () => page.getByRole('region', { name: 'Line clearance overview' });
const rows = () => section().getByRole('row');

describe('line clearance overview on the admin dashboard', () => {
  it('shows the totals and one row per line, active ones first, the others marked', async () => {
    await showDashboard(['factory_manager']);
    await expect
      .element(section().getByRole('rowheader', { name: 'Blister Line 1' }))
      .toBeVisible();
    const totals = section().getByRole('definition');
    expect(totals.elements().map((item) => item.textContent)).toEqual(['4', '2', '3']);
    await expect.element(section().getByText('Overdue (waiting over 24 h)')).toBeVisible();
    await expect.element(section().getByText('Rejections, last 30 days')).toBeVisible();

    const [, blister, labeller] = rows().elements();
    expect(blister?.textContent).toBe(
      [
        'Blister Line 1',
        'LC managerSofia Lindqvist',
        `Last signedrejected ${recordTime(overview.lines[0]?.lastSigned?.signedAt ?? null)}, Łukasz KowalskiOpen report`,
        'Pending4 pendingoldest waiting 3 days 2 overdue',
        'Last 30 days12 inspections, 3 rejected',
      ].join(''),
    );
    expect(blister?.classList).toContain('row-flagged');
    expect(labeller?.textContent).toBe(
      [
        'Labeller maintenance',
        'LC managernone',
        'Last signedNone signed yet',
        'PendingNone',
        'Last 30 days0 inspections, 0 rejected',
      ].join(''),
    );
    expect(labeller?.classList).not.toContain('row-flagged');
    await expect
      .element(section().getByText(`Counted at ${localTime(overview.asOf)}.`))
      .toBeVisible();
  });

  it('links the pending ones to /reports for the line, and the last signed one to its report', async () => {
    await showDashboard(['admin']);
    await expect
      .element(section().getByRole('link', { name: '4 pending on Blister Line 1, oldest first' }))
      .toHaveAttribute(
        'href',
        `/reports?lineClearanceId=${blisterId}&status=pending&sort=startTime`,
      );
    await expect
      .element(section().getByRole('link', { name: 'Open report, last signed on Blister Line 1' }))
      .toHaveAttribute('href', `/inspection-report/${signedId}`);
  });

  it.each([['lc_manager'], ['audit'], ['operator']])(
    'is neither shown nor asked for as %s',
    async (role) => {
      const calls = await showDashboard([role]);
      await expect.element(page.getByRole('tab', { name: 'Line Clearances' })).toBeVisible();
      await expect.poll(() => calls).toContain('GET /api/security-alerts');
      expect(calls).not.toContain('GET /api/reports/overview');
      expect(section().query()).toBeNull();
    },
  );

  it('a failed load says so, and Refresh asks again', async () => {
    const answer: { status?: number; body?: unknown } = {
      status: 500,
      body: { message: 'Database down' },
    };
    const calls = await showDashboard(['factory_manager'], answer);
    await expect.element(section().getByText('The overview could not be loaded.')).toBeVisible();
    expect(toasts.items.map((toast) => toast.detail)).toEqual([
      'Failed to load the line clearance overview',
    ]);
    answer.status = 200;
    answer.body = overview;
    await userEvent.click(
      section().getByRole('button', { name: 'Refresh the line clearance overview' }),
    );
    await expect.element(section().getByRole('rowheader', { name: 'Labeller' })).toBeVisible();
    expect(calls.filter((call) => call === 'GET /api/reports/overview')).toHaveLength(2);
  });

  it('fits a 390 px phone without sideways scrolling, each row a labelled block', async () => {
    await page.viewport(390, 844);
    await showDashboard(['factory_manager']);
    await expect
      .element(section().getByRole('rowheader', { name: 'Blister Line 1' }))
      .toBeVisible();
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(390);
    // The stacked rows fit: the table's frame neither scrolls nor says it does.
    expect(section().getByText('Scroll sideways for more columns').query()).toBeNull();
    await expect.element(section().getByText('LC manager').first()).toBeVisible();
    // An overdue row's marker is drawn inside its name's cell: the name starts after it (QA).
    const name = section().getByRole('rowheader', { name: 'Blister Line 1' }).element();
    const marker = Number.parseFloat(
      getComputedStyle(name).boxShadow.match(/ (\d+)px 0px 0px/)?.[1] ?? '0',
    );
    expect(marker).toBeGreaterThan(0);
    expect(Number.parseFloat(getComputedStyle(name).paddingLeft)).toBeGreaterThan(marker);
  });

  it('passes axe (WCAG 2.2 AA) on a phone and on a desktop', async () => {
    for (const width of [1280, 390]) {
      await page.viewport(width, 844);
      await showDashboard(['factory_manager']);
      await expect
        .element(section().getByRole('rowheader', { name: 'Blister Line 1' }))
        .toBeVisible();
      const result = await axe.run(section().element(), runOptions);
      expect(result.violations.map((violation) => `${width}: ${violation.id}`)).toEqual([]);
      await cleanup();
    }
  });
});

describe('the overview after a line clearance is saved or deleted on the dashboard', () => {
  it('reloads, rather than showing the lines as they were until Refresh', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    const sachetId = 'eeeeeeeeeeeeeeeeeeeeeeee';
    const sachet = activeLine(sachetId, { name: 'Sachet Line 4' });
    const none = {
      ...overview,
      totals: { pending: 0, overdue: 0, recentRejections: 0 },
      lines: [],
    };
    const answer = { body: none as LinesOverview };
    const listed = { body: [] as unknown[] };
    const fake = fakeFetch({
      'GET /api/line-clearances': listed,
      'GET /api/users': { body: [] },
      'GET /api/devices': { body: [] },
      'GET /api/security-alerts': { body: emptyAlerts },
      'GET /api/reports/overview': answer,
      'POST /api/line-clearances': { body: sachet },
      [`DELETE /api/line-clearances/${sachetId}`]: { body: { message: 'deleted' } },
    });
    vi.stubGlobal('fetch', fake.fetchImpl);
    const asked = () => fake.calls.filter((call) => call === 'GET /api/reports/overview').length;
    await render(<AdminDashboardPage />);
    await expect.element(section().getByText('No line clearances yet.')).toBeVisible();
    expect(asked()).toBe(1);

    // Created: the server now counts the new line.
    listed.body = [sachet];
    answer.body = {
      ...none,
      lines: [
        {
          ...quiet,
          lineClearanceId: sachetId,
          name: 'Sachet Line 4',
          status: 'active',
          manager: null,
        },
      ],
    };
    await userEvent.click(page.getByRole('button', { name: 'Add New' }));
    const dialog = page.getByRole('dialog', { name: 'Create New Line Clearance' });
    await dialog.getByLabelText('Name').fill('Sachet Line 4');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(section().getByRole('rowheader', { name: 'Sachet Line 4' })).toBeVisible();
    expect(asked()).toBe(2);

    // Deleted: gone from the overview too.
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    listed.body = [];
    answer.body = none;
    await userEvent.click(page.getByRole('button', { name: 'Delete Sachet Line 4' }));
    const why = page.getByRole('dialog');
    await why.getByLabelText('Reason (required)').fill('Duplicate record created by mistake');
    await userEvent.click(why.getByRole('button', { name: 'Delete', exact: true }));
    await expect.element(section().getByText('No line clearances yet.')).toBeVisible();
    expect(asked()).toBe(3);
    vi.restoreAllMocks();
  });
});

describe('the overview after a user is saved or deleted on the dashboard', () => {
  it('names the renamed manager, and no manager once the manager is deleted', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    const sofia: User = {
      _id: 'dddddddddddddddddddddddd',
      id: 'dddddddddddddddddddddddd',
      name: 'Sofia Lindqvist',
      email: 'lcmanager@example.com',
      role: ['lc_manager'],
      lineClearanceIds: [],
      assignedOperators: [],
      status: 'active',
      lockedUntil: null,
      version: 1,
    };
    const managed = (name: string | null) => ({
      body: {
        ...overview,
        lines: [{ ...overview.lines[0], manager: name ? { id: sofia._id, name } : null }],
      } as LinesOverview,
    });
    const answer = managed('Sofia Lindqvist');
    const listedUsers = { body: [sofia] as unknown[] };
    const fake = fakeFetch({
      'GET /api/line-clearances': { body: [activeLine(blisterId, { managerId: sofia._id })] },
      'GET /api/users': listedUsers,
      'GET /api/devices': { body: [] },
      'GET /api/security-alerts': { body: emptyAlerts },
      'GET /api/reports/overview': answer,
      [`PUT /api/users/${sofia._id}`]: { body: { ...sofia, name: 'Sofia Berg' } },
      [`DELETE /api/users/${sofia._id}`]: { body: { message: 'deleted' } },
    });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await render(<AdminDashboardPage />);
    const blister = section().getByRole('row', { name: /Blister Line 1/ });
    await expect.element(blister.getByText('Sofia Lindqvist')).toBeVisible();
    await userEvent.click(page.getByRole('tab', { name: 'Users' }));

    // Renamed (married name): the line's manager reads the new name at once.
    answer.body = managed('Sofia Berg').body;
    listedUsers.body = [{ ...sofia, name: 'Sofia Berg' }];
    await userEvent.click(page.getByRole('button', { name: 'Edit Sofia Lindqvist' }));
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await userEvent.fill(dialog.getByLabelText('Name'), 'Sofia Berg');
    await userEvent.fill(dialog.getByLabelText('Reason for change'), 'Name changed after marriage');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(blister.getByText('Sofia Berg')).toBeVisible();

    // Deleted: the line has no manager any more.
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    answer.body = managed(null).body;
    listedUsers.body = [];
    await userEvent.click(page.getByRole('button', { name: 'Delete Sofia Berg' }));
    const why = page.getByRole('dialog');
    await why.getByLabelText('Reason (required)').fill('Left the company');
    await userEvent.click(why.getByRole('button', { name: 'Delete', exact: true }));
    await expect.element(blister.getByRole('cell', { name: 'none', exact: true })).toBeVisible();
    vi.restoreAllMocks();
  });
});
