import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { activeLine } from '../../../tests/web/line-fixture.ts';
import { noLinesOverview } from '../../../tests/web/lines-overview-fixture.ts';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { Toaster } from '../../components/toaster.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import AdminDashboardPage from './admin-dashboard-page.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Opens the Roles list of the user dialog titled `title`: the role checkboxes it offers. */
async function roleChoices(title: string): Promise<Element[]> {
  const dialog = page.getByRole('dialog', { name: title });
  await userEvent.click(dialog.getByRole('button', { name: /^Roles:/ }));
  const options = page.getByRole('group', { name: 'Roles' }).getByRole('checkbox');
  await expect.element(options.first()).toBeVisible();
  return options.elements();
}

const lineId = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const line = activeLine(lineId);
const user = {
  _id: 'bbbbbbbbbbbbbbbbbbbbbbbb',
  id: 'bbbbbbbbbbbbbbbbbbbbbbbb',
  name: 'Priya Nair',
  email: '',
  role: ['operator'],
  lineClearanceIds: [],
  assignedOperators: [],
};
const device = {
  _id: 'cccccccccccccccccccccccc',
  name: 'Tablet TB-02',
  type: null,
  status: 'active',
  qrCode: 'TB-02',
};
const video = {
  _id: 'dddddddddddddddddddddddd',
  id: 'dddddddddddddddddddddddd',
  filename: 'v.mp4',
  timestamp: '2026-11-10T14:05:00Z',
  userId: user._id,
  operatorId: user._id,
  deviceId: 'eeeeeeeeeeeeeeeeeeeeeeee',
  lineClearanceId: null,
  path: { video: '/api/videos/v.mp4', keyframesData: '/api/keyframes/d.txt' },
  status: 'completed',
  size: 1536,
  fileSize: 1536,
  duration: 30,
  metadata: { device: null, location: null, duration: 30 },
  relatedData: { predictions: 2, reports: 0, floorplanConfigs: 1, floorplans: 1 },
};

/**
 * The security alerts panel hides with nothing to review (security-alerts.browser.test.tsx); the
 * line clearance overview lists no line (line-overview.browser.test.tsx).
 */
const quietPanels = {
  'GET /api/security-alerts': {
    body: { reviewed: null, count: 0, entries: [], lockedAccounts: [] },
  },
  'GET /api/reports/overview': { body: noLinesOverview },
};

async function showDashboard(roles: string[], users: object[] = [user]) {
  signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles });
  const fake = fakeFetch({
    'GET /api/line-clearances': { body: [line] },
    'GET /api/users': { body: users },
    'GET /api/devices': { body: [device] },
    ...quietPanels,
    'GET /api/admin/videos': { body: [video] },
  });
  vi.stubGlobal('fetch', fake.fetchImpl);
  await render(
    <>
      <AdminDashboardPage />
      <Toaster />
    </>,
  );
  return fake.calls;
}

describe('admin / factory-manager dashboard', () => {
  it.each([
    ['admin', 'Admin Dashboard'],
    ['factory_manager', 'Factory Manager Dashboard'],
  ])('links a %s to the Audit Dashboard among the quick actions', async (role, title) => {
    await showDashboard([role]);
    await expect.element(page.getByRole('heading', { name: title })).toBeVisible();
    const quickActions = page.getByRole('region', { name: 'Quick Actions' });
    await expect
      .element(quickActions.getByRole('link', { name: 'Audit Dashboard' }))
      .toHaveAttribute('href', '/audit');
  });

  it('titles by primary role and gives factory managers coming-soon actions', async () => {
    const calls = await showDashboard(['admin', 'factory_manager']);
    await expect
      .element(page.getByRole('heading', { name: 'Factory Manager Dashboard' }))
      .toBeVisible();
    await userEvent.click(page.getByRole('button', { name: 'Manage LC Managers' }));
    await expect
      .element(page.getByText('Manage LC Managers functionality coming soon'))
      .toBeVisible();
    // Holding the admin role still shows the Videos tab; opening it is what loads the videos.
    await expect.element(page.getByRole('heading', { name: 'Blister Line 1' })).toBeVisible();
    expect(calls).not.toContain('GET /api/admin/videos');
    await userEvent.click(page.getByRole('tab', { name: 'Videos' }));
    await expect.element(page.getByRole('heading', { name: /^Unknown Line – / })).toBeVisible();
    expect(calls).toContain('GET /api/admin/videos');
  });

  it('never shows or loads videos for a factory manager without the admin role', async () => {
    const calls = await showDashboard(['factory_manager']);
    await expect.element(page.getByRole('heading', { name: 'Blister Line 1' })).toBeVisible();
    // Every tab there is, each shown with its data: none of them is the Videos tab.
    const tabs = page.getByRole('tab');
    expect(tabs.elements().map((tab) => tab.textContent)).toEqual([
      'Line Clearances',
      'Users',
      'Devices',
    ]);
    await userEvent.click(page.getByRole('tab', { name: 'Users' }));
    await expect.element(page.getByRole('heading', { name: 'Priya Nair' })).toBeVisible();
    await userEvent.click(page.getByRole('tab', { name: 'Devices' }));
    await expect.element(page.getByRole('heading', { name: 'Tablet TB-02' })).toBeVisible();
    expect(calls).not.toContain('GET /api/admin/videos');
  });

  it('shows every card field with its fallback text', async () => {
    await showDashboard(['admin']);
    await expect.element(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await expect.element(page.getByText('No description')).toBeVisible();
    await expect.element(page.getByText('No location specified')).toBeVisible();
    await userEvent.click(page.getByRole('tab', { name: 'Users' }));
    await expect.element(page.getByText('No email')).toBeVisible();
    await expect.element(page.getByText('None assigned')).toBeVisible();
    await userEvent.click(page.getByRole('tab', { name: 'Devices' }));
    await expect.element(page.getByText('Unknown')).toBeVisible();
    await userEvent.click(page.getByRole('tab', { name: 'Videos' }));
    await expect.element(page.getByRole('heading', { name: /^Unknown Line – / })).toBeVisible();
    await expect.element(page.getByText('1.5 KB')).toBeVisible();
    await expect.element(page.getByText('30 s')).toBeVisible();
    await expect.element(page.getByText('floorplan configs: 1')).toBeVisible();
  });

  it('warns about an empty name before calling the server', async () => {
    const calls = await showDashboard(['admin']);
    await userEvent.click(page.getByRole('button', { name: 'Add New' }));
    await expect
      .element(page.getByRole('dialog', { name: 'Create New Line Clearance' }))
      .toBeVisible();
    await userEvent.click(page.getByRole('button', { name: 'Save' }));
    await expect
      .element(page.getByText('Please enter a name for the line clearance'))
      .toBeVisible();
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('names a line its LC manager on create, and shows the current one on the card and in Edit', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    const sofia = {
      ...user,
      _id: 'f1f1f1f1f1f1f1f1f1f1f1f1',
      id: 'f1f1f1f1f1f1f1f1f1f1f1f1',
      name: 'Sofia Lindqvist',
      role: ['lc_manager'],
    };
    const managed = activeLine('a2a2a2a2a2a2a2a2a2a2a2a2', {
      name: 'Packing Line 2',
      managerId: sofia._id,
    });
    const fake = fakeFetch({
      'GET /api/line-clearances': { body: [line, managed] },
      'GET /api/users': { body: [user, sofia] },
      'GET /api/devices': { body: [device] },
      ...quietPanels,
      'POST /api/line-clearances': { status: 201, body: activeLine('a3a3a3a3a3a3a3a3a3a3a3a3') },
      [`PUT /api/line-clearances/${managed._id}`]: { body: { ...managed, managerId: null } },
    });
    const bodies: Record<string, unknown> = {};
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method && typeof init.body === 'string') {
        bodies[`${init.method} ${new URL(String(input), window.location.origin).pathname}`] =
          JSON.parse(init.body);
      }
      return fake.fetchImpl(input, init);
    });
    await render(
      <>
        <AdminDashboardPage />
        <Toaster />
      </>,
    );

    // Each card names its manager, or none.
    await expect.element(page.getByText('Sofia Lindqvist')).toBeVisible();
    await expect.element(page.getByText('none', { exact: true })).toBeVisible();
    // The manager's own card names the line it manages (it is ticked on none).
    await userEvent.click(page.getByRole('tab', { name: 'Users' }));
    const sofiaCard = page.getByRole('article').filter({ hasText: 'Sofia Lindqvist' });
    await expect.element(sofiaCard.getByText('Manages')).toBeVisible();
    await expect.element(sofiaCard.getByText('Packing Line 2')).toBeVisible();
    await userEvent.click(page.getByRole('tab', { name: 'Line Clearances' }));

    await userEvent.click(page.getByRole('button', { name: 'Add New' }));
    const create = page.getByRole('dialog', { name: 'Create New Line Clearance' });
    const manager = create.getByLabelText('LC manager');
    await expect.element(manager).toHaveValue('');
    // Only holders of the lc_manager role are offered, after '— none —'.
    expect(
      [...(manager.element() as HTMLSelectElement).options].map((option) => option.text),
    ).toEqual(['— none —', 'Sofia Lindqvist']);
    await create.getByLabelText('Name').fill('Tablet Line 3');
    await userEvent.selectOptions(manager, 'Sofia Lindqvist');
    await userEvent.click(create.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(fake.calls).toContain('POST /api/line-clearances'));
    expect(bodies['POST /api/line-clearances']).toMatchObject({
      name: 'Tablet Line 3',
      managerId: sofia._id,
    });
    await expect.poll(() => create.query()).toBeNull();

    await userEvent.click(page.getByRole('button', { name: 'Edit Packing Line 2' }));
    const edit = page.getByRole('dialog', { name: 'Edit Line Clearance' });
    await expect.element(edit.getByLabelText('LC manager')).toHaveValue(sofia._id);
    // '— none —' is sent as null: the line has no manager any more.
    await userEvent.selectOptions(edit.getByLabelText('LC manager'), '— none —');
    await edit.getByLabelText('Reason for change').fill('Sofia moved to the other site');
    await userEvent.click(edit.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() =>
      expect(bodies[`PUT /api/line-clearances/${managed._id}`]).toMatchObject({ managerId: null }),
    );
  });

  it('shows a locked, deactivated account and unlocks it from the Users tab', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    const locked = {
      ...user,
      status: 'deactivated',
      lockedUntil: new Date(Date.now() + 60_000).toISOString(),
    };
    let users: object[] = [locked];
    const fake = fakeFetch({
      'GET /api/line-clearances': { body: [line] },
      // Read at each call: the list as the server has it after the unlock.
      'GET /api/users': {
        get body() {
          return users;
        },
      },
      'GET /api/devices': { body: [device] },
      ...quietPanels,
      [`POST /api/users/${user._id}/unlock`]: { body: { message: 'Account unlocked' } },
    });
    const sent: unknown[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/unlock')) sent.push(JSON.parse(String(init?.body)));
      return fake.fetchImpl(input, init);
    });
    await render(
      <>
        <AdminDashboardPage />
        <Toaster />
      </>,
    );
    await userEvent.click(page.getByRole('tab', { name: 'Users' }));
    await expect.element(page.getByText('Locked', { exact: true })).toBeVisible();
    await expect.element(page.getByText('Deactivated', { exact: true })).toBeVisible();
    const unlock = page.getByRole('button', { name: `Unlock ${user.name}` });
    await expect.element(unlock).toBeVisible();
    (unlock.element() as HTMLElement).focus();
    users = [{ ...locked, lockedUntil: null }];
    await userEvent.keyboard('{Enter}');
    // Why, as for every admin change (Annex 11 §10): required, kept in the trail.
    const dialog = page.getByRole('dialog', { name: 'Why is this account unlocked?' });
    await userEvent.click(dialog.getByRole('button', { name: 'Unlock' }));
    await expect
      .element(
        dialog.getByText('Please give the reason for unlocking this account', { exact: false }),
      )
      .toBeVisible();
    expect(fake.calls).not.toContain(`POST /api/users/${user._id}/unlock`);
    await userEvent.fill(dialog.getByLabelText('Reason (required)'), 'Identity confirmed by phone');
    await userEvent.click(dialog.getByRole('button', { name: 'Unlock' }));
    await expect.element(page.getByText('Account unlocked successfully')).toBeVisible();
    expect(fake.calls).toContain(`POST /api/users/${user._id}/unlock`);
    expect(sent).toEqual([{ reason: 'Identity confirmed by phone' }]);
    // The list is read again after the unlock.
    await vi.waitFor(() =>
      expect(fake.calls.filter((call) => call === 'GET /api/users')).toHaveLength(2),
    );
    // Unlock goes with the lock; the focus stays on the card, not <body>.
    await expect.poll(() => unlock.query()).toBeNull();
    await expect.element(page.getByRole('button', { name: `Edit ${user.name}` })).toHaveFocus();
  });

  describe('Users tab: only what the server lets the signed-in user do', () => {
    const admin = {
      ...user,
      _id: 'a1a1a1a1a1a1a1a1a1a1a1a1',
      id: 'a1a1a1a1a1a1a1a1a1a1a1a1',
      name: 'Ada Admin',
      role: ['admin'],
    };
    const self = { ...user, _id: 'u1', id: 'u1', name: 'Pat Doe' };

    async function showUsers(roles: string[], list: object[]) {
      const calls = await showDashboard(roles, list);
      await userEvent.click(page.getByRole('tab', { name: 'Users' }));
      return calls;
    }

    it('offers a factory manager only the roles it may give, and no Edit or Delete of an admin', async () => {
      const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
      const calls = await showUsers(['factory_manager'], [admin, user]);
      const reason = 'You may not manage an account with the role Admin';
      const editAdmin = page.getByRole('button', { name: 'Edit Ada Admin' });
      const deleteAdmin = page.getByRole('button', { name: 'Delete Ada Admin' });
      for (const button of [editAdmin, deleteAdmin]) {
        await expect.element(button).toHaveAttribute('aria-disabled', 'true');
        await expect.element(button).toHaveAccessibleDescription(reason);
      }
      // One note for both buttons.
      expect(page.getByText(reason, { exact: true }).all()).toHaveLength(1);
      // Reachable by keyboard, so its reason is heard; neither a key nor a click does anything.
      for (const button of [deleteAdmin, editAdmin]) {
        const element = button.element() as HTMLButtonElement;
        element.focus();
        await userEvent.keyboard('{Enter}');
        element.click();
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(confirm).not.toHaveBeenCalled();
      expect(page.getByRole('dialog').query()).toBeNull();
      expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual([]);
      // An operator's card keeps both.
      await expect
        .element(page.getByRole('button', { name: 'Edit Priya Nair' }))
        .not.toHaveAttribute('aria-disabled');

      await userEvent.click(page.getByRole('button', { name: 'Add New' }));
      const options = await roleChoices('Create New User');
      expect(options.map((option) => option.parentElement?.textContent)).toEqual([
        'Line Clearance Manager',
        'Operator',
        'Audit',
      ]);
    });

    it('offers an admin every role, and shows Delete of its own account unavailable with the reason', async () => {
      await showUsers(['admin'], [self, admin]);
      const deleteSelf = page.getByRole('button', { name: 'Delete Pat Doe' });
      await expect.element(deleteSelf).toHaveAttribute('aria-disabled', 'true');
      await expect
        .element(deleteSelf)
        .toHaveAccessibleDescription('You cannot delete your own account');
      await expect
        .element(page.getByRole('button', { name: 'Edit Pat Doe' }))
        .not.toHaveAttribute('aria-disabled');
      await expect
        .element(page.getByRole('button', { name: 'Delete Ada Admin' }))
        .not.toHaveAttribute('aria-disabled');

      await userEvent.click(page.getByRole('button', { name: 'Edit Ada Admin' }));
      expect(await roleChoices('Edit User')).toHaveLength(5);
    });
  });

  it('says a missing name at the Name field of Create New User, which takes the focus', async () => {
    const calls = await showDashboard(['admin']);
    await userEvent.click(page.getByRole('tab', { name: 'Users' }));
    await userEvent.click(page.getByRole('button', { name: 'Add New' }));
    const dialog = page.getByRole('dialog', { name: 'Create New User' });
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    const name = dialog.getByLabelText('Name');
    // The spec's warning toast, and the field that needs it.
    await expect.element(page.getByText('Please enter a name for the user')).toBeVisible();
    await expect.element(name).toHaveFocus();
    await expect.element(name).toHaveAttribute('aria-invalid', 'true');
    await expect.element(name).toHaveAccessibleDescription('Please enter a name for the user');
    // A name of invisible characters only is none either (the server's blank rule).
    await name.fill('\u200b\u3164');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(name).toHaveAccessibleDescription('Please enter a name for the user');
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('after a delete, gives the focus to the next card, or Add New when none is left', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    const second = { ...user, _id: 'b2b2b2b2b2b2b2b2b2b2b2b2', id: 'b2', name: 'Sam Stone' };
    let users = [user, second];
    const fake = fakeFetch({
      'GET /api/line-clearances': { body: [line] },
      // Read at each call: the list as the server has it after each delete.
      'GET /api/users': {
        get body() {
          return users;
        },
      },
      'GET /api/devices': { body: [device] },
      ...quietPanels,
      [`DELETE /api/users/${user._id}`]: { body: {} },
      [`DELETE /api/users/${second._id}`]: { body: {} },
    });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await render(<AdminDashboardPage />);
    await userEvent.click(page.getByRole('tab', { name: 'Users' }));

    // After the confirmation, the reason, typed and sent by keyboard.
    const giveReason = async () => {
      const reason = page.getByRole('textbox', { name: 'Reason (required)' });
      await expect.element(reason).toHaveFocus();
      await userEvent.keyboard('Left the company in November');
      await userEvent.keyboard('{Tab}{Tab}{Enter}');
    };
    const first = page.getByRole('button', { name: 'Delete Priya Nair' });
    await expect.element(first).toBeVisible();
    (first.element() as HTMLElement).focus();
    users = [second];
    await userEvent.keyboard('{Enter}');
    await giveReason();
    await expect.poll(() => page.getByRole('heading', { name: 'Priya Nair' }).query()).toBeNull();
    await expect.element(page.getByRole('button', { name: 'Edit Sam Stone' })).toHaveFocus();

    users = [];
    (page.getByRole('button', { name: 'Delete Sam Stone' }).element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    await giveReason();
    await expect.element(page.getByText('Nothing here yet.')).toBeVisible();
    await expect.element(page.getByRole('button', { name: 'Add New' })).toHaveFocus();
  });
});

describe('deleting a record', () => {
  it.each([
    ['Line Clearances', 'line clearance', `/api/line-clearances/${lineId}`, 'Blister Line 1'],
    ['Users', 'user', `/api/users/${user._id}`, 'Priya Nair'],
    ['Devices', 'device', `/api/devices/${device._id}`, 'Tablet TB-02'],
  ])(
    '%s: asks why after the spec’s confirmation and sends the reason',
    async (tab, noun, path, name) => {
      const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
      signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
      const fake = fakeFetch({
        'GET /api/line-clearances': { body: [line] },
        'GET /api/users': { body: [user] },
        'GET /api/devices': { body: [device] },
        ...quietPanels,
        [`DELETE ${path}`]: { body: {} },
      });
      const sent: unknown[] = [];
      vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
        if (init?.method === 'DELETE') sent.push(JSON.parse(String(init.body)));
        return fake.fetchImpl(input, init);
      });
      await render(
        <>
          <AdminDashboardPage />
          <Toaster />
        </>,
      );
      await userEvent.click(page.getByRole('tab', { name: tab }));
      await userEvent.click(page.getByRole('button', { name: `Delete ${name}` }));
      expect(confirm).toHaveBeenCalledWith(`Are you sure you want to delete this ${noun}?`);
      const dialog = page.getByRole('dialog', { name: `Why is this ${noun} deleted?` });
      await expect.element(dialog.getByText(name, { exact: true })).toBeVisible();
      const reason = dialog.getByRole('textbox', { name: 'Reason (required)' });
      await expect
        .element(reason)
        .toHaveAccessibleDescription(
          'At least 3 different words. It is kept with the deletion in the audit trail.',
        );
      const submit = dialog.getByRole('button', { name: 'Delete', exact: true });
      await userEvent.click(submit);
      await expect
        .element(reason)
        .toHaveAccessibleDescription(
          expect.stringContaining(
            `Please give the reason for deleting this ${noun}, in at least 3 different words`,
          ),
        );
      expect(fake.calls.some((call) => call.startsWith('DELETE'))).toBe(false);

      toasts.items = [];
      await reason.fill('Duplicate record created by mistake');
      await userEvent.click(submit);
      const capital = noun.charAt(0).toUpperCase() + noun.slice(1);
      await expect.element(page.getByText(`${capital} deleted successfully`)).toBeVisible();
      expect(sent).toEqual([{ reason: 'Duplicate record created by mistake' }]);
      await expect.element(dialog).not.toBeInTheDocument();
      vi.restoreAllMocks();
    },
  );

  it.each([
    [
      'Line Clearances',
      { ...line, namedIn: { inspections: 3, videos: 5 } },
      'Has 3 inspections and 5 videos: set its status to inactive instead',
    ],
    [
      'Users',
      {
        ...user,
        namedIn: {
          inspections: 3,
          videos: 5,
          signatures: 0,
          dispositions: 1,
          deviceRegistrations: 0,
        },
      },
      'Named in 3 inspections, 5 videos and 1 detection disposition: deactivate instead',
    ],
    [
      'Devices',
      { ...device, namedIn: { videos: 1 } },
      'Recorded 1 video: set its status to inactive instead',
    ],
  ])(
    '%s: Delete of a record that records name is unavailable, with the counts',
    async (tab, named, reason) => {
      const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
      signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
      const fake = fakeFetch({
        'GET /api/line-clearances': { body: [tab === 'Line Clearances' ? named : line] },
        'GET /api/users': { body: [tab === 'Users' ? named : user] },
        'GET /api/devices': { body: [tab === 'Devices' ? named : device] },
        ...quietPanels,
        'GET /api/admin/videos': { body: [] },
      });
      vi.stubGlobal('fetch', fake.fetchImpl);
      await render(<AdminDashboardPage />);
      await userEvent.click(page.getByRole('tab', { name: tab }));
      const remove = page.getByRole('button', { name: `Delete ${named.name}` });
      await expect.element(remove).toHaveAttribute('aria-disabled', 'true');
      await expect.element(remove).toHaveAccessibleDescription(reason);
      await expect.element(page.getByText(reason, { exact: true })).toBeVisible();
      (remove.element() as HTMLButtonElement).click();
      expect(confirm).not.toHaveBeenCalled();
      // Edit stays: it sets the status the reason names.
      await expect
        .element(page.getByRole('button', { name: `Edit ${named.name}` }))
        .not.toHaveAttribute('aria-disabled');
      expect(fake.calls.some((call) => call.startsWith('DELETE'))).toBe(false);
    },
  );

  it('asks nothing and deletes nothing when the confirmation is declined', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const calls = await showDashboard(['admin']);
    await userEvent.click(page.getByRole('button', { name: 'Delete Blister Line 1' }));
    expect(page.getByRole('dialog').query()).toBeNull();
    expect(calls.some((call) => call.startsWith('DELETE'))).toBe(false);
  });
});
