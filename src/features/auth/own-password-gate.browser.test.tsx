import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, fakeFetch, fakeToken, render } from '../../../tests/web/render.tsx';
import { Toaster } from '../../components/toaster.tsx';
import { accessTokenKey, session, signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import { OwnPasswordGate } from './own-password-gate.tsx';
import { logIn, restoreSession } from './session-actions.ts';

afterEach(async () => {
  await cleanup();
  await page.viewport(414, 896);
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
});

const operator = { id: 'u1', name: 'Rene Paquet', email: 'r@example.com', roles: ['operator'] };
const why =
  'Your password was chosen by someone else. Choose your own before you continue: only you may know it.';

async function showAt(path: string, routes: Parameters<typeof fakeFetch>[0] = {}) {
  const { fetchImpl, calls } = fakeFetch(routes);
  vi.stubGlobal('fetch', fetchImpl);
  const memory = memoryLocation({ path, record: true });
  await render(
    <Router hook={memory.hook}>
      <OwnPasswordGate>
        <h1>The routed page</h1>
      </OwnPasswordGate>
      <Toaster />
    </Router>,
  );
  return { calls, location: () => memory.history.at(-1), navigate: memory.navigate };
}

const routed = () => page.getByRole('heading', { name: 'The routed page' });
const gate = () => page.getByRole('heading', { name: 'Set your own password' });

async function fillPasswords(current: string, next: string, confirm: string) {
  await userEvent.fill(page.getByLabelText('Current password'), current);
  await userEvent.fill(page.getByLabelText('New password', { exact: true }), next);
  await userEvent.fill(page.getByLabelText('Confirm new password'), confirm);
  await userEvent.click(page.getByRole('button', { name: 'Update password' }));
}

describe('the own-password gate', () => {
  it('shows instead of the page while the password is someone else’s, and the page once it is set', async () => {
    localStorage.setItem(accessTokenKey, 'chosen-token');
    signIn('chosen-token', operator, false);
    const { calls } = await showAt('/operator', {
      'POST /api/change-password': { body: { message: 'Password changed', token: 'own-token' } },
    });
    await expect.element(gate()).toBeVisible();
    await expect.element(page.getByText(why)).toBeVisible();
    await expect.element(routed()).not.toBeInTheDocument();
    // The profile dialog's form: its checks come first (spec §5), without a call.
    await fillPasswords('Plant-default-2026', 'mine-and-only-mine', 'mine-and-only-mine!');
    await expect.element(page.getByText('New passwords do not match')).toBeVisible();
    expect(calls).toEqual([]);
    await fillPasswords('Plant-default-2026', 'mine-and-only-mine', 'mine-and-only-mine');
    await expect.element(routed()).toBeVisible();
    await expect.element(gate()).not.toBeInTheDocument();
    await expect.element(page.getByText('Your password has been updated')).toBeVisible();
    expect(calls).toEqual(['POST /api/change-password']);
    // The change revoked the old token: the session holds the fresh one.
    expect(localStorage.getItem(accessTokenKey)).toBe('own-token');
    expect(session.ownPassword).toBe(true);
  });

  it('keeps the gate on a failed change, with the spec §8 message', async () => {
    signIn('chosen-token', operator, false);
    await showAt('/operator', {
      'POST /api/change-password': { status: 401, body: { message: 'no' } },
    });
    await fillPasswords('wrong-password', 'mine-and-only-mine', 'mine-and-only-mine');
    await expect.element(page.getByText('Current password is incorrect')).toBeVisible();
    await expect.element(gate()).toBeVisible();
    expect(session.ownPassword).toBe(false);
  });

  it('lets the user sign in as someone else on /login, or log out and go to /', async () => {
    signIn('chosen-token', operator, false);
    const { calls, location, navigate } = await showAt('/operator', {
      'POST /api/logout': { body: { message: 'Logged out' } },
    });
    await expect.element(gate()).toBeVisible();
    // A shared terminal: the login page stays reachable.
    navigate('/login');
    await expect.element(routed()).toBeVisible();
    navigate('/operator');
    await userEvent.click(page.getByRole('button', { name: 'Log out' }));
    await expect.poll(() => location()).toBe('/');
    expect(session.loggedIn).toBe(false);
    await expect.element(routed()).toBeVisible();
    await expect.poll(() => calls).toEqual(['POST /api/logout']);
  });

  it('says when the password is too old, from the sign-in or a restored session, and changes it the same way', async () => {
    const expired = 'Your password is more than 90 days old. Choose a new one to go on.';
    const answer = { token: fakeToken(operator), ownPassword: false, idleMinutes: 30 };
    const { calls } = await showAt('/operator', {
      'POST /api/login': { body: { ...answer, passwordExpiredAfterDays: 90 } },
      'GET /api/me': { body: { ...operator, ownPassword: false, passwordExpiredAfterDays: 90 } },
      'POST /api/change-password': { body: { message: 'Password changed', token: 'own-token' } },
    });
    await logIn(operator.email, 'Ninety-days-old');
    const title = page.getByRole('heading', { name: 'Choose a new password' });
    await expect.element(title).toBeVisible();
    await expect.element(page.getByText(expired)).toBeVisible();
    expect(page.getByText(why).query()).toBeNull();

    // A reload restores the session with GET /api/me, which says the same.
    signOut();
    localStorage.setItem(accessTokenKey, 'stored-token');
    await restoreSession();
    await expect.element(page.getByText(expired)).toBeVisible();
    await fillPasswords('Ninety-days-old', 'A-fresh-one-2026', 'A-fresh-one-2026');
    await expect.element(routed()).toBeVisible();
    expect(calls).toEqual(['POST /api/login', 'GET /api/me', 'POST /api/change-password']);
  });

  it('says the password was chosen by someone else when that is why, after an expired one', async () => {
    const answer = { token: fakeToken(operator), ownPassword: false, idleMinutes: 30 };
    const signInAnswer = { body: { ...answer, passwordExpiredAfterDays: 90 as number | null } };
    await showAt('/operator', { 'POST /api/login': signInAnswer });
    await logIn(operator.email, 'Ninety-days-old');
    await expect
      .element(page.getByRole('heading', { name: 'Choose a new password' }))
      .toBeVisible();
    signOut();
    signInAnswer.body.passwordExpiredAfterDays = null;
    await logIn(operator.email, 'Chosen-by-a-manager');
    await expect.element(gate()).toBeVisible();
    await expect.element(page.getByText(why)).toBeVisible();
  });

  it('states the password rules under New password before any is refused', async () => {
    await page.viewport(390, 844);
    signIn('chosen-token', operator, false);
    await showAt('/operator');
    const rules =
      'At least 8 characters. It may not contain your name or your email address (nor the part before the @), and may not be your current password or one of your last passwords.';
    const newPassword = page.getByLabelText('New password', { exact: true });
    await expect.element(newPassword).toHaveAccessibleDescription(rules);
    await expect.element(page.getByText(rules)).toBeVisible();
    expect(page.getByText(rules).element().getBoundingClientRect().right).toBeLessThanOrEqual(390);
  });

  it('fits a phone at 390 px', async () => {
    await page.viewport(390, 844);
    signIn('chosen-token', operator, false);
    await showAt('/operator');
    await expect.element(gate()).toBeVisible();
    for (const button of ['Log out', 'Update password']) {
      const box = page.getByRole('button', { name: button }).element().getBoundingClientRect();
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(390);
    }
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(390);
  });
});
