import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { noLinesOverview } from '../../tests/web/lines-overview-fixture.ts';
import { cleanup, fakeFetch, fakeToken, render } from '../../tests/web/render.tsx';
import { OwnPasswordGate } from '../features/auth/own-password-gate.tsx';
import { api } from '../lib/api-client.ts';
import { accessTokenKey, session, signOut } from '../stores/session.ts';
import { toasts } from '../stores/toasts.ts';
import { AppRoutes } from './router.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
});

const me = (roles: string[]) => ({ id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles });

// Pages load their lists when shown; empty lists keep these tests about routing only.
const lists = {
  'GET /api/line-clearances': { body: [] },
  'GET /api/users': { body: [] },
  'GET /api/devices': { body: [] },
  'GET /api/inspections': { body: [] },
  'GET /api/floorplans': { body: [] },
  'GET /api/videos': { body: [] },
  'GET /api/security-alerts': {
    body: { reviewed: null, count: 0, entries: [], lockedAccounts: [] },
  },
  'GET /api/reports/overview': { body: noLinesOverview },
};

async function visit(path: string, routes: Parameters<typeof fakeFetch>[0] = {}) {
  const { fetchImpl, calls } = fakeFetch({ ...lists, ...routes });
  vi.stubGlobal('fetch', fetchImpl);
  const memory = memoryLocation({ path, record: true });
  await render(
    <Router hook={memory.hook}>
      <Suspense fallback={<p>Loading…</p>}>
        <AppRoutes />
      </Suspense>
    </Router>,
  );
  const location = () => memory.history.at(-1);
  return { location, calls };
}

describe('route guard (spec §2)', () => {
  it('sends a signed-out visitor of a protected route to /login, keeping the page', async () => {
    const { location, calls } = await visit('/admin');
    await expect.poll(() => location()).toBe('/login?next=%2Fadmin');
    expect(calls).toEqual([]);
  });

  it('returns to the page (path and query) once signed in, as a link opened signed out', async () => {
    const token = fakeToken({ ...me(['audit']), id: 'u1' });
    const { location } = await visit('/floorplans?area=a1', {
      'POST /api/login': { body: { token, ownPassword: true } },
    });
    await expect.poll(() => location()).toBe('/login?next=%2Ffloorplans%3Farea%3Da1');
    await userEvent.fill(page.getByLabelText('Email'), 'pat@example.com');
    await userEvent.fill(page.getByLabelText('Password', { exact: true }), 'demo-password');
    await userEvent.click(page.getByRole('button', { name: 'Log in' }));
    await expect.element(page.getByRole('heading', { name: 'Floorplan Manager' })).toBeVisible();
    expect(location()).toBe('/floorplans?area=a1');
  });

  it('restores a stored token with GET /api/me before deciding', async () => {
    localStorage.setItem(accessTokenKey, 'stored-token');
    const { location, calls } = await visit('/admin', {
      'GET /api/me': { body: { ...me(['admin']), ownPassword: true, idleMinutes: 15 } },
    });
    await expect.element(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    expect(location()).toBe('/admin');
    expect(calls[0]).toBe('GET /api/me');
    expect(session.loggedIn).toBe(true);
    expect(session.info?.username).toBe('pat@example.com');
    // The server's limit for the sign-out after inactivity comes back with the session.
    expect(session.idleMinutes).toBe(15);
  });

  it('sends a signed-in user lacking the role to /', async () => {
    localStorage.setItem(accessTokenKey, 'stored-token');
    const { location } = await visit('/admin', { 'GET /api/me': { body: me(['operator']) } });
    await expect.poll(() => location()).toBe('/');
    expect(session.loggedIn).toBe(true);
    // Said, not silent.
    expect(toasts.items.map((toast) => toast.detail)).toEqual([
      'Your role does not give access to that page',
    ]);
  });

  it('lets each role listed in the table in', async () => {
    localStorage.setItem(accessTokenKey, 'stored-token');
    const { location } = await visit('/floorplans', { 'GET /api/me': { body: me(['audit']) } });
    await expect.element(page.getByRole('heading', { name: 'Floorplan Manager' })).toBeVisible();
    expect(location()).toBe('/floorplans');
  });

  it('drops a stored token that fails to restore, silently, and goes to /login', async () => {
    localStorage.setItem(accessTokenKey, 'expired-token');
    const { location } = await visit('/lc-manager', {
      'GET /api/me': { status: 401, body: { message: 'Token expired' } },
    });
    await expect.poll(() => location()).toBe('/login?next=%2Flc-manager');
    expect(localStorage.getItem(accessTokenKey)).toBeNull();
    expect(session.loggedIn).toBe(false);
  });

  it('redirects /videos to /video', async () => {
    localStorage.setItem(accessTokenKey, 'stored-token');
    const { location } = await visit('/videos', { 'GET /api/me': { body: me(['operator']) } });
    await expect.element(page.getByRole('heading', { name: 'Video Analysis' })).toBeVisible();
    expect(location()).toBe('/video');
  });

  it('shows the start page with Quick Actions at / reached inside the app', async () => {
    localStorage.setItem(accessTokenKey, 'stored-token');
    // An LC manager lacking the role for /admin is sent to / and stays there.
    const { location } = await visit('/admin', { 'GET /api/me': { body: me(['lc_manager']) } });
    await expect.element(page.getByRole('link', { name: 'Review Reports' })).toBeVisible();
    await expect.element(page.getByRole('link', { name: 'Area Management' })).toBeVisible();
    expect(location()).toBe('/');
  });
});

describe('a password someone else chose', () => {
  it('asks for one of the user’s own over the route, loading nothing else, then shows the page', async () => {
    localStorage.setItem(accessTokenKey, 'stored-token');
    const { fetchImpl, calls } = fakeFetch({
      ...lists,
      'GET /api/me': { body: { ...me(['admin']), ownPassword: false } },
      'POST /api/change-password': { body: { message: 'Password changed', token: 'own-token' } },
    });
    vi.stubGlobal('fetch', fetchImpl);
    const memory = memoryLocation({ path: '/admin', record: true });
    await render(
      <Router hook={memory.hook}>
        <OwnPasswordGate>
          <Suspense fallback={<p>Loading…</p>}>
            <AppRoutes />
          </Suspense>
        </OwnPasswordGate>
      </Router>,
    );
    await expect
      .element(page.getByRole('heading', { name: 'Set your own password' }))
      .toBeVisible();
    // The server would refuse the page's calls: none is made.
    expect(calls).toEqual(['GET /api/me']);
    await userEvent.fill(page.getByLabelText('Current password'), 'Plant-default-2026');
    await userEvent.fill(page.getByLabelText('New password', { exact: true }), 'mine-alone-42');
    await userEvent.fill(page.getByLabelText('Confirm new password'), 'mine-alone-42');
    await userEvent.click(page.getByRole('button', { name: 'Update password' }));
    await expect.element(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    expect(memory.history.at(-1)).toBe('/admin');
    expect(calls).toContain('GET /api/line-clearances');
  });
});

describe('401 from any call', () => {
  it('removes the token and sends the browser to /login', async () => {
    const before = window.location.pathname;
    localStorage.setItem(accessTokenKey, 'stored-token');
    session.loggedIn = true;
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/devices': { status: 401, body: {} } }).fetchImpl);
    await expect(api.get('/api/devices')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem(accessTokenKey)).toBeNull();
    expect(session.loggedIn).toBe(false);
    expect(window.location.pathname).toBe('/login');
    window.history.replaceState(null, '', before);
  });
});

describe('the start page route', () => {
  it('sends a signed-in user who opened the app at / to the primary-role dashboard', async () => {
    localStorage.setItem(accessTokenKey, 'stored-token');
    const { location } = await visit('/', { 'GET /api/me': { body: me(['audit', 'admin']) } });
    await expect.poll(() => location()).toBe('/audit');
  });

  it("takes an auditor from the start page's Dashboard to the Audit Dashboard, not away", async () => {
    localStorage.setItem(accessTokenKey, 'stored-token');
    // Reached inside the app (here: sent back from /admin), / shows the Quick Actions.
    const { location } = await visit('/admin', {
      'GET /api/me': { body: me(['audit']) },
      'GET /api/reports': { body: { rows: [], next: null } },
      'GET /api/audit-log/facets': { body: { actions: [], entities: [] } },
      'GET /api/audit-log': { body: [] },
    });
    const dashboard = page
      .getByRole('region', { name: 'Quick Actions' })
      .getByRole('link', { name: 'Dashboard' });
    await expect.element(dashboard).toBeVisible();
    toasts.items = [];
    await dashboard.click();
    await expect.element(page.getByRole('heading', { name: 'Audit Dashboard' })).toBeVisible();
    expect(location()).toBe('/audit');
    // No 'Your role does not give access to that page' on the way.
    expect(toasts.items).toEqual([]);
  });
});

describe('a URL outside the route table', () => {
  it('says the page does not exist and links back to the start page', async () => {
    await visit('/no-such-page');
    await expect.element(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect.element(page.getByText('There is no page at /no-such-page.')).toBeVisible();
    await expect
      .element(page.getByRole('link', { name: 'Go to the start page' }))
      .toHaveAttribute('href', '/');
    expect(page.getByText('This screen is not built yet.').query()).toBeNull();
  });
});
