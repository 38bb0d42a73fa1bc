import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, fakeFetch, fakeToken, render } from '../../../tests/web/render.tsx';
import { Toaster } from '../../components/toaster.tsx';
import { accessTokenKey, session, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import LoginPage from './login-page.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
});

/** /login, or /login with the query a sign-out sends (`?session=…`). */
async function showLogin(path = '/login') {
  const memory = memoryLocation({ path, record: true });
  await render(
    <Router hook={memory.hook} searchHook={memory.searchHook}>
      <LoginPage />
      <Toaster />
    </Router>,
  );
  return () => memory.history.at(-1);
}

async function submit(email = 'lcmanager@example.com', password = 'demo-password') {
  await userEvent.fill(page.getByLabelText('Email'), email);
  await userEvent.fill(page.getByLabelText('Password', { exact: true }), password);
  await userEvent.click(page.getByRole('button', { name: 'Log in' }));
}

describe('login screen', () => {
  it('says so when the server holds the demo data, whose accounts share a published password', async () => {
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/instance': { body: { demo: true } } }).fetchImpl);
    await showLogin();
    await expect
      .element(page.getByText(/^Demo data: /))
      .toHaveTextContent(
        "Demo data: this server's accounts (admin@example.com, lcmanager@example.com, operator@example.com and others) all sign in with the published password demo-password, so its records are examples, not GMP records.",
      );
    await expect.element(page.getByLabelText('Email')).toHaveFocus();
  });

  it('says nothing of demo data on a server without it', async () => {
    const { fetchImpl, calls } = fakeFetch({});
    vi.stubGlobal('fetch', fetchImpl);
    await showLogin();
    await expect.poll(() => calls).toEqual(['GET /api/instance']);
    await expect.element(page.getByText(/Demo data/)).not.toBeInTheDocument();
  });

  it('says why it shows after a session ended under a call: nothing was carried out', async () => {
    await showLogin('/login?session=ended');
    await expect
      .element(page.getByRole('status'))
      .toHaveTextContent(
        'Your session ended, so your last action was not carried out (nothing was saved or signed). Sign in again to go on.',
      );
    await expect.element(page.getByLabelText('Email')).toHaveFocus();
  });

  it('says why it shows after the sign-out after inactivity, and that uploads wait for the operator', async () => {
    await showLogin('/login?session=idle&minutes=30&uploads=waiting');
    await expect
      .element(page.getByRole('status'))
      .toHaveTextContent(
        'You were signed out after 30 minutes without activity, so nothing left unsaved was saved or signed. Sign in again to go on. Recordings waiting to upload on this device go on once you sign in again.',
      );
    await expect.element(page.getByLabelText('Email')).toHaveFocus();
  });

  it('says why it shows after a log out in another tab: what was typed here is lost', async () => {
    await showLogin('/login?session=other-tab');
    await expect
      .element(page.getByRole('status'))
      .toHaveTextContent(
        'You logged out in another tab or window of this browser, so this one was signed out too: anything typed here and not saved was not saved. Sign in again to go on.',
      );
  });

  it('says nothing of a session when opened to sign in', async () => {
    await showLogin();
    await expect.element(page.getByLabelText('Email')).toHaveFocus();
    expect(page.getByText(/Your session ended/).query()).toBeNull();
  });

  it('starts with the Email field focused', async () => {
    // As after the toolbar's Sign In: focus was on a control of the page left behind.
    const signInButton = document.createElement('button');
    document.body.append(signInButton);
    signInButton.focus();
    await showLogin();
    await expect.element(page.getByLabelText('Email')).toHaveFocus();
    signInButton.remove();
  });

  it('has an email field of email type and a show/hide password toggle', async () => {
    await showLogin();
    await expect.element(page.getByLabelText('Email')).toHaveAttribute('type', 'email');
    const password = page.getByLabelText('Password', { exact: true });
    await expect.element(password).toHaveAttribute('type', 'password');
    await userEvent.click(page.getByRole('button', { name: 'Show password' }));
    await expect.element(password).toHaveAttribute('type', 'text');
    await userEvent.click(page.getByRole('button', { name: 'Hide password' }));
    await expect.element(password).toHaveAttribute('type', 'password');
  });

  it('signs in, stores the token and goes to the primary-role dashboard', async () => {
    const claims = {
      id: 'u7',
      name: 'Lee Chan',
      email: 'lcmanager@example.com',
      roles: ['admin', 'lc_manager'],
    };
    const token = fakeToken(claims);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { fetchImpl } = fakeFetch({
      'POST /api/login': { body: { token, ownPassword: true, idleMinutes: 20 } },
    });
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetchImpl>) => {
      await gate;
      return fetchImpl(...args);
    });
    const location = await showLogin();
    await submit();
    await expect.element(page.getByRole('button', { name: 'Logging in...' })).toBeDisabled();
    release();
    await expect.poll(() => location()).toBe('/lc-manager');
    expect(localStorage.getItem(accessTokenKey)).toBe(token);
    expect(session.loggedIn).toBe(true);
    expect(session.info).toMatchObject({
      id: 'u7',
      name: 'Lee Chan',
      username: 'lcmanager@example.com',
    });
    // The server's limit for the sign-out after inactivity.
    expect(session.idleMinutes).toBe(20);
  });

  it.each([
    [401, 'Invalid email or password'],
    [400, 'Email and password are required'],
    [502, 'Server error. Please try again later.'],
    [404, 'Login failed. Please check your connection and try again.'],
  ])('answers %i with a Login Failed toast: %s', async (status, message) => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({ 'POST /api/login': { status, body: { message: 'x' } } }).fetchImpl,
    );
    const location = await showLogin();
    await submit();
    const toast = page.getByRole('status').filter({ hasText: 'Login Failed' });
    await expect.element(toast).toHaveTextContent(message);
    await expect.element(page.getByRole('button', { name: 'Log in' })).toBeEnabled();
    expect(location()).toBe('/login');
    expect(session.loggedIn).toBe(false);
    expect(localStorage.getItem(accessTokenKey)).toBeNull();
  });

  it('says wrong credentials at the password, which takes the focus to be typed again', async () => {
    vi.stubGlobal('fetch', fakeFetch({ 'POST /api/login': { status: 401 } }).fetchImpl);
    await showLogin();
    await submit();
    const password = page.getByLabelText('Password', { exact: true });
    await expect.element(password).toHaveFocus();
    await expect.element(password).toHaveAttribute('aria-invalid', 'true');
    await expect.element(password).toHaveAccessibleDescription('Invalid email or password');
    await expect.element(page.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
  });

  it('says a missing value at the empty field, and keeps the focus on Log in for other failures', async () => {
    vi.stubGlobal('fetch', fakeFetch({ 'POST /api/login': { status: 400 } }).fetchImpl);
    await showLogin();
    await submit('', 'demo-password');
    const email = page.getByLabelText('Email');
    await expect.element(email).toHaveFocus();
    await expect.element(email).toHaveAccessibleDescription('Email and password are required');
    await cleanup();

    vi.stubGlobal('fetch', fakeFetch({ 'POST /api/login': { status: 502 } }).fetchImpl);
    await showLogin();
    await submit();
    await expect.element(page.getByRole('button', { name: 'Log in' })).toHaveFocus();
    expect(document.querySelector('[aria-invalid]')).toBeNull();
  });

  it('treats a network failure as a connection problem', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await showLogin();
    await submit();
    await expect
      .element(page.getByText('Login failed. Please check your connection and try again.'))
      .toBeVisible();
  });

  describe('after signing in, back to the page it was sent here from', () => {
    /** Signs in as an account holding `roles` on /login with `query`; answers where it went. */
    async function signInFrom(query: string, roles: string[]) {
      const claims = { id: 'u7', name: 'Lee Chan', email: 'lcmanager@example.com', roles };
      const token = fakeToken(claims);
      vi.stubGlobal(
        'fetch',
        fakeFetch({ 'POST /api/login': { body: { token, ownPassword: true } } }).fetchImpl,
      );
      const location = await showLogin(`/login?${query}`);
      await submit();
      await expect.poll(() => session.loggedIn).toBe(true);
      return location;
    }

    it('goes to the page the guard kept (a link opened signed out), query and all', async () => {
      const next = '/inspection-report/65f0c0ffee0000000000abcd?tab=photos';
      const location = await signInFrom(`next=${encodeURIComponent(next)}`, ['operator']);
      await expect.poll(() => location()).toBe(next);
    });

    it('keeps the page after a session ended under a call', async () => {
      const location = await signInFrom('session=ended&next=%2Freports', ['lc_manager']);
      await expect.poll(() => location()).toBe('/reports');
    });

    it.each([
      ['session=ended', /^Your session ended/],
      ['session=other-tab', /^You logged out in another tab/],
      ['session=idle&minutes=30', /^You were signed out after 30 minutes/],
    ])('still says why (%s) with the page to return to beside it', async (reason, why) => {
      await showLogin(`/login?${reason}&next=%2Freports`);
      await expect.element(page.getByRole('status')).toHaveTextContent(why);
    });

    it('goes to the dashboard when this user’s roles do not open the page (another account)', async () => {
      const location = await signInFrom('next=%2Fadmin', ['operator']);
      await expect.poll(() => location()).toBe('/operator');
    });

    it('goes to the dashboard for a page needing no sign-in (spec §2: the dashboard)', async () => {
      const location = await signInFrom('next=%2Fnot-a-page', ['lc_manager']);
      await expect.poll(() => location()).toBe('/lc-manager');
    });

    it.each([
      'https://evil.example/admin',
      '//evil.example/admin',
      '/\\evil.example/admin',
      '/\t/evil.example/admin',
      'javascript:alert(1)',
      'admin',
    ])('ignores a next that is no path of this site: %s', async (next) => {
      const location = await signInFrom(`next=${encodeURIComponent(next)}`, ['admin']);
      await expect.poll(() => location()).toBe('/admin');
      // And not a step further: the dashboard is the last place it went.
      expect(location()).toBe('/admin');
    });
  });
});
