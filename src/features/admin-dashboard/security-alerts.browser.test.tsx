import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { activeLine } from '../../../tests/web/line-fixture.ts';
import { noLinesOverview } from '../../../tests/web/lines-overview-fixture.ts';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { Toaster } from '../../components/toaster.tsx';
import { localTime } from '../../lib/record-time.ts';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import type { AuditEntry, SecurityAlerts } from '../../types/api.ts';
import AdminDashboardPage from './admin-dashboard-page.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const lockedId = 'ffffffffffffffffffffffff';
const lockedUser = {
  _id: lockedId,
  id: lockedId,
  name: 'Sofia Lindqvist',
  email: 'lcmanager@example.com',
  role: ['lc_manager'],
  lineClearanceIds: [],
  assignedOperators: [],
  lockedUntil: '2099-11-28T10:04:00Z',
};
const entry = (fields: Partial<AuditEntry> & Pick<AuditEntry, 'id' | 'action'>): AuditEntry => ({
  at: '2026-11-20T09:00:00Z',
  actorId: null,
  actorEmail: null,
  entity: 'user',
  entityId: null,
  oldValue: null,
  newValue: null,
  ip: '10.0.0.5',
  reason: null,
  prevHash: 'a'.repeat(64),
  hash: 'b'.repeat(64),
  ...fields,
});
const alerts: SecurityAlerts = {
  reviewed: {
    throughId: 30,
    by: { name: 'Adriana Novak', email: 'admin@example.com' },
    at: '2026-11-27T09:12:00Z',
  },
  count: 3,
  entries: [
    entry({
      id: 42,
      action: 'authorization.denied',
      actorEmail: 'operator@example.com',
      entity: 'route',
      entityId: 'DELETE /api/users/:id',
      newValue: { reason: 'role required: admin', params: { id: lockedId } },
    }),
    entry({
      id: 41,
      action: 'login.address-blocked',
      entity: 'address',
      entityId: '10.0.0.5',
      newValue: { failures: 50, windowSeconds: 60 },
    }),
    entry({
      id: 40,
      action: 'account.locked',
      actorEmail: 'lcmanager@example.com',
      entityId: lockedId,
      newValue: { lockedUntil: lockedUser.lockedUntil, seconds: 60, lock: 1, failures: 5 },
    }),
  ],
  lockedAccounts: [
    {
      id: lockedId,
      name: lockedUser.name,
      email: lockedUser.email,
      lockedUntil: lockedUser.lockedUntil,
    },
  ],
};
const nothing: SecurityAlerts = { reviewed: null, count: 0, entries: [], lockedAccounts: [] };

/** The admin dashboard with these alerts; answers the calls made and the bodies sent. */
async function showDashboard(answer: SecurityAlerts, routes: Parameters<typeof fakeFetch>[0] = {}) {
  signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
  const answers: Parameters<typeof fakeFetch>[0] = {
    'GET /api/line-clearances': { body: [activeLine('aaaaaaaaaaaaaaaaaaaaaaaa')] },
    'GET /api/users': { body: [lockedUser] },
    'GET /api/devices': { body: [] },
    'GET /api/security-alerts': { body: answer },
    'GET /api/reports/overview': { body: noLinesOverview },
    ...routes,
  };
  const fake = fakeFetch(answers);
  const bodies: Record<string, unknown> = {};
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), window.location.origin).pathname;
    if (init?.body) bodies[`${init.method} ${path}`] = JSON.parse(String(init.body));
    return fake.fetchImpl(input, init);
  });
  await render(
    <>
      <AdminDashboardPage />
      <Toaster />
    </>,
  );
  await expect.element(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  return { calls: fake.calls, answers, bodies };
}

const panel = () => page.getByRole('region', { name: 'Security alerts' });

describe('security alerts on the admin dashboard', () => {
  it('says a signature soon after someone else reset the signer’s password, and whom to ask', async () => {
    const signedAfterReset = entry({
      id: 43,
      action: 'signature.after-reset',
      actorEmail: 'lcmanager2@example.com',
      entity: 'inspection',
      entityId: 'dddddddddddddddddddddddd',
      newValue: {
        meaning: 'approved',
        resetBy: 'factory@example.com',
        resetAt: '2026-11-20T08:40:00Z',
        withinHours: 24,
      },
    });
    await showDashboard({ ...nothing, count: 1, entries: [signedAfterReset] });
    await expect
      .element(panel().getByRole('listitem'))
      .toHaveTextContent(
        `${localTime('2026-11-20T09:00:00Z')}: Signed within 24 h of a password reset by someone else: lcmanager2@example.com approved inspection dddddddddddddddddddddddd; factory@example.com reset the password ${localTime('2026-11-20T08:40:00Z')}. Ask the signer whether it was them.`,
      );
  });

  it('shows nothing when there is nothing to review', async () => {
    const { calls } = await showDashboard(nothing);
    await expect.poll(() => calls).toContain('GET /api/security-alerts');
    await expect.element(page.getByRole('heading', { name: 'Blister Line 1' })).toBeVisible();
    expect(panel().query()).toBeNull();
  });

  it('shows the count, the last review and each entry in words', async () => {
    await showDashboard(alerts);
    await expect
      .element(panel().getByText(/^3 security events since the last review/))
      .toHaveTextContent(
        `3 security events since the last review (reviewed by Adriana Novak, ${localTime(alerts.reviewed?.at as string)})`,
      );
    const items = panel().getByRole('listitem');
    await expect.element(items.first()).toBeVisible();
    const texts = items.elements().map((item) => item.textContent);
    expect(texts.slice(0, 3)).toEqual([
      `${localTime('2026-11-20T09:00:00Z')}: Access refused: operator@example.com, DELETE /api/users/…`,
      `${localTime('2026-11-20T09:00:00Z')}: Sign-ins blocked from address 10.0.0.5 after repeated failures`,
      `${localTime('2026-11-20T09:00:00Z')}: Account locked after failed sign-ins: Sofia Lindqvist (lcmanager@example.com), until ${localTime(lockedUser.lockedUntil)}`,
    ]);
    expect(texts[3]).toContain(`Sofia Lindqvist (lcmanager@example.com), locked until`);
    await expect
      .element(panel().getByRole('link', { name: 'Open the audit trail' }))
      .toHaveAttribute('href', '/audit');
  });

  it('says when nothing was reviewed yet, and falls back to the action for an unknown shape', async () => {
    const unknown = entry({ id: 50, action: 'authorization.denied', entity: 'inspection' });
    await showDashboard({ ...alerts, reviewed: null, count: 1, entries: [unknown] });
    await expect.element(panel().getByText('1 security event, none reviewed yet')).toBeVisible();
    await expect.element(panel().getByText(/: authorization\.denied$/)).toBeVisible();
  });

  it('Mark as reviewed posts the newest entry’s id and hides the panel', async () => {
    const { calls, bodies } = await showDashboard(alerts, {
      'POST /api/security-alerts/review': { body: nothing },
    });
    await userEvent.click(panel().getByRole('button', { name: 'Mark as reviewed' }));
    await expect.element(page.getByText('Security alerts marked as reviewed')).toBeVisible();
    expect(calls).toContain('POST /api/security-alerts/review');
    expect(bodies['POST /api/security-alerts/review']).toEqual({ throughId: 42 });
    expect(panel().query()).toBeNull();
    // The button went with the panel: the focus is on the page's heading, not <body>.
    await expect.element(page.getByRole('heading', { name: 'Admin Dashboard' })).toHaveFocus();
  });

  it('a failed review says so and keeps the alerts', async () => {
    await showDashboard(alerts, {
      'POST /api/security-alerts/review': { status: 500, body: { message: 'Database down' } },
    });
    await userEvent.click(panel().getByRole('button', { name: 'Mark as reviewed' }));
    await expect
      .element(page.getByText('Failed to mark the security alerts as reviewed: Database down'))
      .toBeVisible();
    await expect.element(panel()).toBeVisible();
  });

  it('Unlock calls the unlock route, then reloads the alerts and the users', async () => {
    const { calls, answers } = await showDashboard(alerts, {
      [`POST /api/users/${lockedId}/unlock`]: { body: { message: 'Account unlocked' } },
    });
    answers['GET /api/security-alerts'] = { body: { ...alerts, lockedAccounts: [] } };
    await userEvent.click(panel().getByRole('button', { name: 'Unlock Sofia Lindqvist' }));
    const dialog = page.getByRole('dialog', { name: 'Why is this account unlocked?' });
    await expect.element(dialog.getByText('Sofia Lindqvist')).toBeVisible();
    await userEvent.fill(
      dialog.getByLabelText('Reason (required)'),
      'Identity confirmed in person',
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Unlock' }));
    await expect.element(page.getByText('Account unlocked successfully')).toBeVisible();
    expect(calls).toContain(`POST /api/users/${lockedId}/unlock`);
    await expect
      .element(panel().getByRole('heading', { name: 'Locked now' }))
      .not.toBeInTheDocument();
    expect(calls.filter((call) => call === 'GET /api/security-alerts')).toHaveLength(2);
    expect(calls.filter((call) => call === 'GET /api/users')).toHaveLength(2);
    await expect.element(panel().getByRole('heading', { name: 'Security alerts' })).toHaveFocus();
  });

  it('a failed load shows nothing, and the dashboard works on', async () => {
    const { calls } = await showDashboard(alerts, {
      'GET /api/security-alerts': { status: 500, body: { message: 'Database down' } },
    });
    await expect.poll(() => calls).toContain('GET /api/security-alerts');
    await expect.element(page.getByRole('heading', { name: 'Blister Line 1' })).toBeVisible();
    expect(panel().query()).toBeNull();
    expect(toasts.items).toEqual([]);
  });
});
