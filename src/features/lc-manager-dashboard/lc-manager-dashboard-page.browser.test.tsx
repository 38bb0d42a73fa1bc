import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { Toaster } from '../../components/toaster.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import LcManagerDashboardPage from './lc-manager-dashboard-page.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
});

const me = 'a00000000000000000000001';
const other = 'a00000000000000000000002';
const operator = 'b00000000000000000000001';
const line = (id: string, name: string, managerId: string) => ({
  _id: id,
  name,
  description: 'desc',
  location: 'Hall',
  status: 'active',
  managerId,
  assignedOperators: [operator],
});
const mine = line('c00000000000000000000001', 'My Line', me);
const theirs = line('c00000000000000000000002', 'Their Line', other);
const inspection = (id: string, lineId: string, status: string, startTime: string) => ({
  _id: id,
  lineClearanceId: lineId,
  operatorId: operator,
  videoId: null,
  startTime,
  status,
  operatorNotes: status === 'pending' ? 'Checked under the conveyor' : '',
  reviewerId: null,
  reviewNotes: null,
  reviewedAt: null,
});
const pending = inspection('d00000000000000000000001', mine._id, 'pending', '2026-03-09T23:30:00');
const approved = {
  ...inspection('d00000000000000000000002', mine._id, 'approved', '2026-03-02T08:00:00'),
  signature: {
    signerId: me,
    signerName: 'Lee Chan',
    signerEmail: 'lc@example.com',
    meaning: 'approved' as const,
    statement: 'Approved: the line is clear for the next batch',
    notes: 'Sealer guard checked by hand',
    signedAt: '2026-03-02T08:40:00.000Z',
    recordHash: 'a'.repeat(64),
  },
};
const foreign = inspection(
  'd00000000000000000000003',
  theirs._id,
  'pending',
  '2026-03-09T10:00:00',
);

async function showDashboard(extra: Parameters<typeof fakeFetch>[0] = {}, roles = ['lc_manager']) {
  signIn('token', { id: me, name: 'Lee Chan', email: 'lc@example.com', roles });
  const users = [
    {
      _id: operator,
      id: operator,
      name: 'Priya Nair',
      email: 'p@example.com',
      role: ['operator'],
      lineClearanceIds: [],
      assignedOperators: [],
    },
    {
      _id: other,
      id: other,
      name: 'Other Manager',
      email: 'o@example.com',
      role: ['lc_manager'],
      lineClearanceIds: [],
      assignedOperators: [],
    },
  ];
  const fake = fakeFetch({
    'GET /api/line-clearances': { body: [mine, theirs] },
    'GET /api/users': { body: users },
    'GET /api/inspections': { body: [pending, approved, foreign] },
    ...extra,
  });
  const bodies: unknown[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.body) bodies.push(JSON.parse(String(init.body)));
    return fake.fetchImpl(input, init);
  });
  await render(
    <>
      <LcManagerDashboardPage />
      <Toaster />
    </>,
  );
  return { calls: fake.calls, bodies };
}

describe('LC manager dashboard', () => {
  it('offers Delete only on operators of its own lines, saying why elsewhere', async () => {
    const stranger = {
      _id: 'b00000000000000000000002',
      id: 'b00000000000000000000002',
      name: 'Sam Stranger',
      email: 's@example.com',
      role: ['operator'],
      lineClearanceIds: [],
      assignedOperators: [],
    };
    const { calls } = await showDashboard({
      // Priya works on this manager's line only (one also on another manager's line is shared:
      // only an admin or a factory manager deletes that account).
      'GET /api/line-clearances': { body: [mine, { ...theirs, assignedOperators: [] }] },
      'GET /api/users': {
        body: [{ ...stranger, _id: operator, id: operator, name: 'Priya Nair' }, stranger],
      },
    });
    await userEvent.click(page.getByRole('tab', { name: 'Operators' }));
    const own = page.getByRole('button', { name: 'Delete Priya Nair' });
    await expect.element(own).not.toHaveAttribute('aria-disabled');
    const refused = page.getByRole('button', { name: 'Delete Sam Stranger' });
    await expect.element(refused).toHaveAttribute('aria-disabled', 'true');
    await expect
      .element(refused)
      .toHaveAccessibleDescription(
        'This operator works on no line you manage: an admin or factory manager assigns operators to lines (Users tab, Edit, Line clearances)',
      );
    (refused.element() as HTMLButtonElement).click();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls.some((call) => call.startsWith('DELETE'))).toBe(false);
  });

  it('lists on a line the operators that list the line too, as their own cards do', async () => {
    // The admin's Edit User assigns a line on the user's side: the line's own list stays empty.
    await showDashboard({
      'GET /api/line-clearances': { body: [{ ...mine, assignedOperators: [] }] },
      'GET /api/users': {
        body: [
          {
            _id: operator,
            id: operator,
            name: 'Priya Nair',
            email: 'p@example.com',
            role: ['operator'],
            lineClearanceIds: [mine._id],
            assignedOperators: [],
          },
        ],
      },
    });
    const card = page.getByRole('article').filter({ hasText: 'My Line' });
    await expect.element(card.getByText('Priya Nair')).toBeVisible();
    await expect.element(card.getByText('No operators assigned')).not.toBeInTheDocument();
  });

  it('links to the Audit Dashboard among the quick actions', async () => {
    await showDashboard();
    const quickActions = page.getByRole('region', { name: 'Quick Actions' });
    await expect
      .element(quickActions.getByRole('link', { name: 'Audit Dashboard' }))
      .toHaveAttribute('href', '/audit');
  });

  it('counts its lines’ pending inspections on the Inspections tab, not another manager’s', async () => {
    await showDashboard();
    await expect
      .element(page.getByRole('tab', { name: 'Inspections (1 pending)', exact: true }))
      .toBeVisible();
  });

  it('opens again on the tab last used, from the URL or, without one, from this browser tab', async () => {
    await showDashboard();
    await userEvent.click(page.getByRole('tab', { name: 'Inspections' }));
    expect(new URL(location.href).searchParams.get('tab')).toBe('inspections');
    // Back to the dashboard from a report: by the browser (the URL has the tab) ...
    await cleanup();
    await showDashboard();
    await expect
      .element(page.getByRole('tab', { name: 'Inspections' }))
      .toHaveAttribute('aria-selected', 'true');
    // ... or by 'Back to …', which opens the bare path.
    await cleanup();
    const bare = new URL(location.href);
    bare.searchParams.delete('tab');
    history.replaceState(null, '', bare);
    await showDashboard();
    await expect
      .element(page.getByRole('tab', { name: 'Inspections' }))
      .toHaveAttribute('aria-selected', 'true');
    await userEvent.click(page.getByRole('tab', { name: 'Line Clearances' }));
    expect(new URL(location.href).searchParams.get('tab')).toBe('line-clearances');
  });

  it('shows only the lines this manager manages, and only operators', async () => {
    await showDashboard();
    await expect
      .element(page.getByRole('heading', { name: 'Line Clearance Manager Dashboard' }))
      .toBeVisible();
    await expect.element(page.getByRole('heading', { name: 'My Line' })).toBeVisible();
    expect(page.getByRole('heading', { name: 'Their Line' }).query()).toBeNull();
    await userEvent.click(page.getByRole('button', { name: 'Manage Operators' }));
    await expect.element(page.getByRole('heading', { name: 'Priya Nair' })).toBeVisible();
    expect(page.getByRole('heading', { name: 'Other Manager' }).query()).toBeNull();
    await userEvent.click(page.getByRole('button', { name: 'Edit Priya Nair' }));
    await expect.element(page.getByText('Edit operator functionality coming soon')).toBeVisible();
  });

  it('says up front that a line records name cannot be deleted, as the admin’s cards do', async () => {
    const named = { ...mine, namedIn: { inspections: 2, videos: 2 } };
    await showDashboard({ 'GET /api/line-clearances': { body: [named, theirs] } });
    const reason = 'Has 2 inspections and 2 videos: set its status to inactive instead';
    await expect.element(page.getByText(reason)).toBeVisible();
    await expect
      .element(page.getByRole('button', { name: 'Delete My Line' }))
      .toHaveAttribute('aria-disabled', 'true');
  });

  it('says why its lines and inspections are empty when the caller manages no line', async () => {
    const why = 'Only the lines you manage as LC manager are listed here.';
    // A factory manager reaches the page and reads every line on /reports (spec §2 keeps the filter).
    await showDashboard({ 'GET /api/line-clearances': { body: [theirs] } }, ['factory_manager']);
    const reports = page.getByRole('link', { name: 'Reports', exact: true });
    await expect
      .element(page.getByText(why))
      .toHaveTextContent(`${why} You manage none: see Reports for every line.`);
    await expect.element(reports).toHaveAttribute('href', '/reports');
    await userEvent.click(page.getByRole('tab', { name: 'Inspections' }));
    await expect.element(page.getByText(why)).toBeVisible();
    expect(page.getByText('Nothing here yet.').query()).toBeNull();
    await cleanup();

    // An LC manager given no line yet: nothing to see on /reports either.
    await showDashboard({ 'GET /api/line-clearances': { body: [theirs] } });
    await expect
      .element(page.getByText(why))
      .toHaveTextContent(
        `${why} You manage none yet: a line you create, or one an administrator makes you the LC manager of, shows here.`,
      );
    expect(page.getByRole('link', { name: 'Reports', exact: true }).query()).toBeNull();
    await cleanup();

    // Managing a line, an empty list says only that: the Pending filter hides the signed ones.
    await showDashboard({ 'GET /api/inspections': { body: [approved] } });
    await userEvent.click(page.getByRole('tab', { name: 'Inspections' }));
    await expect.element(page.getByText('Nothing here yet.')).toBeVisible();
    expect(page.getByText(why).query()).toBeNull();
  });

  it('offers approve and reject on pending inspections only, signed with the user ID and password', async () => {
    const { bodies, calls } = await showDashboard({
      'PATCH /api/inspections/d00000000000000000000001/approve': { body: {} },
      // The approval dialog reads what it would sign over (nothing open here).
      'GET /api/reports/d00000000000000000000001': { body: { approvalBlocker: null, flags: [] } },
    });
    await userEvent.click(page.getByRole('tab', { name: 'Inspections' }));
    await expect.element(page.getByText('Checked under the conveyor')).toBeVisible();
    await userEvent.selectOptions(page.getByRole('combobox', { name: 'Filter by status' }), 'All');
    // A signed card shows the signature and its notes, on the reader's clock (UTC here).
    await expect
      .element(
        page.getByText(
          'Approved: the line is clear for the next batch. Signed by Lee Chan on 2026-03-02 08:40:00 UTC',
        ),
      )
      .toBeVisible();
    await expect.element(page.getByText('Sealer guard checked by hand')).toBeVisible();
    expect(page.getByRole('button', { name: /^Approve / }).all()).toHaveLength(1);
    expect(page.getByRole('button', { name: /^Reject / }).all()).toHaveLength(1);
    await userEvent.click(page.getByRole('button', { name: /^Approve / }));
    const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
    await expect
      .element(dialog.getByText('Approved: the line is clear for the next batch'))
      .toBeVisible();
    // Both components, the user ID first, at every signing.
    await userEvent.click(dialog.getByRole('button', { name: 'Sign and approve' }));
    await expect.element(page.getByText('Please enter your user ID to sign')).toBeVisible();
    await userEvent.fill(dialog.getByLabelText('User ID'), 'lc@example.com');
    await userEvent.click(dialog.getByRole('button', { name: 'Sign and approve' }));
    await expect.element(page.getByText('Please enter your password to sign')).toBeVisible();
    expect(bodies).toEqual([]);
    await userEvent.fill(dialog.getByLabelText('Password'), 'my-password');
    await userEvent.click(dialog.getByRole('button', { name: 'Sign and approve' }));
    await expect.element(page.getByText('Inspection approved successfully')).toBeVisible();
    expect(bodies).toEqual([
      { notes: 'Approved by LC Manager', userId: 'lc@example.com', password: 'my-password' },
    ]);
    // The list is read again as the dialog closes, which may come after the toast.
    await expect
      .poll(() => calls.filter((call) => call === 'GET /api/inspections'))
      .toHaveLength(2);
  });

  it('signs approve and reject from a card over the record as read when its dialog opened', async () => {
    const report = 'GET /api/reports/d00000000000000000000001';
    const recordHash = 'f'.repeat(64);
    const routes: Parameters<typeof fakeFetch>[0] = {
      [report]: {
        body: { approvalBlocker: null, approvalExceptions: null, flags: [], recordHash },
      },
      'PATCH /api/inspections/d00000000000000000000001/approve': { body: {} },
      'PATCH /api/inspections/d00000000000000000000001/reject': { body: {} },
    };
    const { bodies, calls } = await showDashboard(routes);
    await userEvent.click(page.getByRole('tab', { name: 'Inspections' }));
    for (const decision of ['Approve', 'Reject']) {
      await userEvent.click(page.getByRole('button', { name: new RegExp(`^${decision} `) }));
      const dialog = page.getByRole('dialog', { name: `${decision} inspection` });
      await expect.poll(() => calls.filter((call) => call === report)).toHaveLength(1);
      // Read later, the record hashes otherwise: the signature names the one read as it opened.
      routes[report] = { body: { approvalBlocker: null, flags: [], recordHash: 'e'.repeat(64) } };
      if (decision === 'Reject') {
        await userEvent.fill(dialog.getByLabelText('Notes (required)'), 'Loose tablets found');
      }
      await userEvent.fill(dialog.getByLabelText('User ID'), 'lc@example.com');
      await userEvent.fill(dialog.getByLabelText('Password'), 'my-password');
      await userEvent.click(
        dialog.getByRole('button', { name: `Sign and ${decision.toLowerCase()}` }),
      );
      await expect.poll(() => page.getByRole('dialog').query()).toBeNull();
      routes[report] = { body: { approvalBlocker: null, flags: [], recordHash } };
      calls.length = 0;
    }
    expect(bodies).toEqual([
      {
        notes: 'Approved by LC Manager',
        userId: 'lc@example.com',
        password: 'my-password',
        recordHash,
      },
      {
        notes: 'Loose tablets found',
        userId: 'lc@example.com',
        password: 'my-password',
        recordHash,
      },
    ]);
  });

  it('gives the focus to the signed card once the list shows its signature, also after a 409', async () => {
    for (const answer of [
      { body: {} },
      { status: 409, body: { message: 'The inspection is already approved by Lee Chan' } },
    ]) {
      let signed = false;
      await showDashboard({
        'GET /api/inspections': {
          // Read at each call: signed once the approval went through (here, or someone else's).
          get body() {
            return signed ? [{ ...approved, _id: pending._id }] : [pending];
          },
        },
        'PATCH /api/inspections/d00000000000000000000001/approve': answer,
        'GET /api/reports/d00000000000000000000001': { body: { approvalBlocker: null, flags: [] } },
      });
      await userEvent.click(page.getByRole('tab', { name: 'Inspections' }));
      await userEvent.click(page.getByRole('button', { name: /^Approve / }));
      const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
      await userEvent.fill(dialog.getByLabelText('User ID'), 'lc@example.com');
      await userEvent.fill(dialog.getByLabelText('Password'), 'my-password');
      signed = true;
      await userEvent.click(dialog.getByRole('button', { name: 'Sign and approve' }));
      // A 409 keeps the dialog open with its reason; the list is read again once it closes.
      if (answer.status === 409) {
        await expect.element(dialog.getByRole('alert')).toHaveTextContent(answer.body.message);
        // On this phone-sized screen the error toast lies over Cancel, and the test's pointer,
        // resting there, holds it open: it goes as after its 3 s.
        toasts.items = [];
        await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
      }
      const card = page.getByRole('article').filter({ hasText: pending._id });
      await expect.element(card.getByText(/^Approved: the line is clear/)).toBeVisible();
      expect(page.getByRole('dialog').query()).toBeNull();
      await expect.element(card).toHaveFocus();
      await cleanup();
    }
  });

  it('disables Approve on a card whose approval the server refuses, says why, keeps Reject', async () => {
    const blocker =
      'No video: none is linked to this inspection (none was submitted, or it was deleted)';
    const blocked = {
      ...inspection('d00000000000000000000004', mine._id, 'pending', '2026-03-10T09:00:00'),
      approvalBlocker: blocker,
    };
    const open = { ...pending, approvalBlocker: null };
    await showDashboard({
      'GET /api/inspections': { body: [blocked, open] },
      // Reject's dialog reads the record it signs over.
      'GET /api/reports/d00000000000000000000004': {
        body: { approvalBlocker: blocker, flags: [] },
      },
    });
    await userEvent.click(page.getByRole('tab', { name: 'Inspections' }));
    const note = `${blocker}: it can only be rejected.`;
    const approve = page.getByRole('button', { name: 'Approve My Line d00000000000000000000004' });
    await expect.element(approve).toHaveAttribute('aria-disabled', 'true');
    await expect.element(approve).toHaveAccessibleDescription(note);
    await expect.element(page.getByText(note)).toBeVisible();
    // Focusable, so the keyboard reaches it and hears why; neither a key nor a click opens a dialog.
    const button = approve.element() as HTMLButtonElement;
    button.focus();
    expect(document.activeElement).toBe(button);
    await userEvent.keyboard('{Enter}');
    button.click();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // (An approval dialog would also read the report: an unlisted request fails the test.)
    expect(page.getByRole('dialog').query()).toBeNull();

    // The other pending card's Approve works as before.
    const other = page.getByRole('button', { name: 'Approve My Line d00000000000000000000001' });
    await expect.element(other).not.toHaveAttribute('aria-disabled');
    await expect.element(other).not.toHaveAccessibleDescription();

    // A rejection can be signed: Reject opens its dialog.
    await userEvent.click(
      page.getByRole('button', { name: 'Reject My Line d00000000000000000000004' }),
    );
    await expect.element(page.getByRole('dialog', { name: 'Reject inspection' })).toBeVisible();
  });

  it('offers no signing on a card the caller may not sign, and says why', async () => {
    const own = {
      ...inspection('d00000000000000000000005', mine._id, 'pending', '2026-03-11T09:00:00'),
      approvalBlocker: null,
      signBlocker: 'The operator of an inspection cannot sign it',
    };
    await showDashboard({ 'GET /api/inspections': { body: [own] } });
    await userEvent.click(page.getByRole('tab', { name: 'Inspections' }));
    await expect
      .element(page.getByText('The operator of an inspection cannot sign it.'))
      .toBeVisible();
    expect(page.getByRole('button', { name: /^(Approve|Reject) My Line/ }).query()).toBeNull();
  });

  it('filters inspections by whole days and clears the filter', async () => {
    await showDashboard();
    await userEvent.click(page.getByRole('tab', { name: 'Inspections' }));
    await userEvent.selectOptions(page.getByRole('combobox', { name: 'Filter by status' }), 'All');
    await expect.element(page.getByRole('link', { name: /^View .* d0+\d$/ }).first()).toBeVisible();
    expect(page.getByRole('link', { name: /^View .* d0+\d$/ }).all()).toHaveLength(2);
    await userEvent.click(page.getByRole('button', { name: 'Filter by date range' }));
    // The calendar opens on the current month: go back to March 2026.
    const months = (new Date().getFullYear() - 2026) * 12 + new Date().getMonth() - 2;
    for (let i = 0; i < months; i++)
      await userEvent.click(page.getByRole('button', { name: 'Previous month' }));
    await userEvent.click(page.getByRole('button', { name: 'Monday, March 9, 2026' }));
    await userEvent.click(page.getByRole('button', { name: 'Monday, March 9, 2026' }));
    // 23:30 on the last day is still inside the range.
    await expect
      .element(page.getByRole('button', { name: 'Mar 9, 2026 – Mar 9, 2026' }))
      .toBeVisible();
    expect(page.getByRole('link', { name: /^View .* d0+\d$/ }).all()).toHaveLength(1);
    await userEvent.click(page.getByRole('button', { name: 'Clear Filters' }));
    await expect.element(page.getByRole('button', { name: 'Filter by date range' })).toBeVisible();
    expect(page.getByRole('link', { name: /^View .* d0+\d$/ }).all()).toHaveLength(2);
  });

  it('shows pending inspections first by default, longest waiting first, and filters by status', async () => {
    const at = (id: number, status: string, day: number) =>
      inspection(`d${String(id).padStart(23, '0')}`, mine._id, status, `2026-03-${day}T09:00:00`);
    // Out of order on purpose, signed ones among the pending.
    const list = [
      at(11, 'approved', 20),
      at(12, 'pending', 10),
      at(13, 'rejected', 25),
      at(14, 'pending', 15),
      at(15, 'approved', 12),
    ];
    await showDashboard({ 'GET /api/inspections': { body: list } });
    await userEvent.click(page.getByRole('tab', { name: 'Inspections' }));
    const status = page.getByRole('combobox', { name: 'Filter by status' });
    await expect.element(status).toHaveDisplayValue('Pending');
    // The ID field of each card, in the order shown.
    const shownIds = () =>
      [...document.querySelectorAll('article .record-field')]
        .filter((field) => field.querySelector('dt')?.textContent === 'ID')
        .map((field) => field.querySelector('dd')?.textContent);
    const ids = (...numbers: number[]) => numbers.map((n) => `d${String(n).padStart(23, '0')}`);
    await expect.poll(shownIds).toEqual(ids(12, 14));
    await expect.element(page.getByText('2 inspections')).toBeVisible();
    await userEvent.selectOptions(status, 'All');
    // Signed ones after, newest first.
    await expect.poll(shownIds).toEqual(ids(12, 14, 11, 15, 13));
    await userEvent.selectOptions(status, 'Rejected');
    await expect.poll(shownIds).toEqual(ids(13));
  });

  it('says how long each pending inspection has waited since it was received, and marks it overdue', async () => {
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    // Recorded days ago on the phone, received two hours ago: it waits since its receipt.
    const fresh = {
      ...inspection('d00000000000000000000021', mine._id, 'pending', hoursAgo(72)),
      endTime: hoursAgo(71.9),
      receivedAt: hoursAgo(2),
    };
    const old = {
      ...inspection('d00000000000000000000022', mine._id, 'pending', hoursAgo(31)),
      endTime: hoursAgo(30.9),
      receivedAt: hoursAgo(30),
    };
    // Just short of the limit: whole hours, never rounded up to the day that would be overdue.
    const nearly = {
      ...inspection('d00000000000000000000023', mine._id, 'pending', hoursAgo(23.7)),
      receivedAt: hoursAgo(23.6),
    };
    await showDashboard({ 'GET /api/inspections': { body: [fresh, old, nearly, approved] } });
    await userEvent.click(page.getByRole('tab', { name: 'Inspections' }));
    const card = (id: string) =>
      page.getByRole('article').filter({ hasText: `d0000000000000000000002${id}` });
    await expect.element(card('1').getByText('2 hours')).toBeVisible();
    await expect.element(card('2').getByText('1 day', { exact: true })).toBeVisible();
    await expect.element(card('2').getByText('Overdue (over 24 h)')).toBeVisible();
    expect(card('1').getByText('Overdue (over 24 h)').elements()).toHaveLength(0);
    await expect.element(card('3').getByText('23 hours')).toBeVisible();
    expect(card('3').getByText('Overdue (over 24 h)').elements()).toHaveLength(0);
    // A signed one waits for nothing.
    await userEvent.selectOptions(page.getByRole('combobox', { name: 'Filter by status' }), 'All');
    await expect.element(page.getByText('4 inspections')).toBeVisible();
    expect(page.getByText('Waiting', { exact: true }).elements()).toHaveLength(3);
  });

  it('draws a page of a plant’s inspections and goes back to the first page on a new filter', async () => {
    const list = Array.from({ length: 5000 }, (_, index) =>
      inspection(
        `d${String(index).padStart(23, '0')}`,
        mine._id,
        index % 3 === 0 ? 'pending' : 'approved',
        new Date(Date.UTC(2026, 0, 1) + index * 3_600_000).toISOString(),
      ),
    );
    await showDashboard({ 'GET /api/inspections': { body: list } });
    await userEvent.click(page.getByRole('tab', { name: 'Inspections' }));
    // 5,581 cards drawn at once took 10.4 s and 154,710 DOM elements.
    await expect.element(page.getByText('1–24 of 1667 inspections · Page 1 of 70')).toBeVisible();
    expect(page.getByRole('article').all()).toHaveLength(24);
    await userEvent.click(page.getByRole('button', { name: 'Next page' }));
    await expect.element(page.getByText('25–48 of 1667 inspections · Page 2 of 70')).toBeVisible();
    await userEvent.selectOptions(page.getByRole('combobox', { name: 'Filter by status' }), 'All');
    await expect.element(page.getByText('1–24 of 5000 inspections · Page 1 of 209')).toBeVisible();
    expect(page.getByRole('article').all()).toHaveLength(24);
  });

  it('asks for every operator field before creating one', async () => {
    const { calls } = await showDashboard();
    await userEvent.click(page.getByRole('button', { name: 'Manage Operators' }));
    await userEvent.click(page.getByRole('button', { name: 'Add New' }));
    const dialog = page.getByRole('dialog', { name: 'Create New Operator' });
    await expect.element(dialog).toBeVisible();
    expect((dialog.element() as HTMLElement).style.maxWidth).toBe('600px');
    // The password is the manager's until the operator sets its own, the first thing it does.
    await expect
      .element(dialog.getByText(/must then choose their own before anything else/))
      .toBeVisible();
    const name = dialog.getByLabelText('Name');
    const email = dialog.getByLabelText('Email');
    const password = dialog.getByLabelText('Password');
    for (const field of [name, email, password]) await expect.element(field).toBeRequired();
    await userEvent.fill(name, 'New Operator');
    await userEvent.click(page.getByRole('button', { name: 'Create' }));
    await expect.element(page.getByText('Please fill in all required fields')).toBeVisible();
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
    // The toast does not say which: each blank field does, and the first takes the focus.
    await expect.element(email).toHaveFocus();
    await expect.element(email).toHaveAttribute('aria-invalid', 'true');
    await expect.element(email).toHaveAccessibleDescription('Email is required.');
    await expect.element(password).toHaveAttribute('aria-invalid', 'true');
    await expect
      .element(password)
      .toHaveAccessibleDescription('Password is required. At least 8 characters.');
    await expect.element(name).not.toHaveAttribute('aria-invalid');
  });

  it('says a blank line clearance name at the field, beside the spec’s toast', async () => {
    const { calls } = await showDashboard();
    await userEvent.click(page.getByRole('button', { name: 'Create New Line Clearance' }));
    const dialog = page.getByRole('dialog', { name: 'Create New Line Clearance' });
    await userEvent.click(dialog.getByRole('button', { name: 'Create' }));
    const message = 'Please enter a name for the line clearance';
    await expect.element(dialog.getByRole('alert')).toHaveTextContent(message);
    const name = dialog.getByLabelText('Name');
    await expect.element(name).toHaveFocus();
    await expect.element(name).toHaveAttribute('aria-invalid', 'true');
    await expect.element(name).toHaveAccessibleDescription(message);
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('states the password rule and checks it before sending, in plain words at the field', async () => {
    const created = { _id: 'b00000000000000000000009', name: 'New Operator' };
    const { calls, bodies } = await showDashboard({
      'POST /api/users': { status: 201, body: created },
    });
    await userEvent.click(page.getByRole('button', { name: 'Manage Operators' }));
    await userEvent.click(page.getByRole('button', { name: 'Add New' }));
    const dialog = page.getByRole('dialog', { name: 'Create New Operator' });
    const password = dialog.getByLabelText('Password');
    // The rule is told before it is broken.
    await expect.element(password).toHaveAccessibleDescription('At least 8 characters.');
    await userEvent.fill(dialog.getByLabelText('Name'), 'New Operator');
    await userEvent.fill(dialog.getByLabelText('Email'), 'new@example.com');
    await userEvent.fill(password, 'short');
    await userEvent.click(dialog.getByRole('button', { name: 'Create' }));

    const rule = 'Password should be at least 8 characters';
    await expect.element(dialog.getByText(rule)).toBeVisible();
    await expect.element(password).toHaveAttribute('aria-invalid', 'true');
    await expect.element(password).toHaveAccessibleDescription(`${rule} At least 8 characters.`);
    expect(document.activeElement).toBe(password.element());
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
    expect(page.getByText(/body\.password|Failed to create operator/).query()).toBeNull();

    // Seven characters are still too few; eight are enough, and the error goes as they are typed.
    await userEvent.fill(password, '1234567');
    await expect.element(dialog.getByText(rule)).toBeVisible();
    await userEvent.fill(password, '12345678');
    expect(dialog.getByText(rule).query()).toBeNull();
    await userEvent.click(dialog.getByRole('button', { name: 'Create' }));
    await expect.element(page.getByText('Operator created successfully')).toBeVisible();
    expect(bodies).toEqual([
      { name: 'New Operator', email: 'new@example.com', password: '12345678', role: 'operator' },
    ]);
  });
});
