// Signing in, out, changing the password and losing the session mid-way, through the real UI and
// server (spec §2 login screen, toolbar and profile dialog; §4 session; §5, §8 messages).
import type { Page } from 'playwright';
import { describe, expect, test } from 'vitest';
import { Api } from './support/api.ts';
import { axeViolations } from './support/axe.ts';
import {
  expectToast,
  landedOn,
  newContext,
  pageSettled,
  signInThroughUi,
} from './support/browser.ts';
import { demoAccount, demoAccounts, demoPassword } from './support/demo.ts';
import { setUpE2e } from './support/fixture.ts';

const e2e = setUpE2e();

/** The password an admin gives a new user, as its create form does (spec §9). */
const chosenPassword = 'Given-by-admin-2026';

/**
 * A user of its own per test, so changing its password touches no other test. It has set
 * `password` as its own: until then the server serves it nothing else.
 */
async function freshUser(role: string, email: string, password: string): Promise<void> {
  await e2e.admin.post('/api/users', {
    name: `E2E ${role}`,
    email,
    role,
    password: chosenPassword,
  });
  await Api.loginWithOwnPassword(e2e.server.baseUrl, email, chosenPassword, password);
}

async function openPage(): Promise<Page> {
  const context = await newContext(e2e.browser, { baseUrl: e2e.server.baseUrl });
  return context.newPage();
}

/** Opens Profile from the account menu and submits the change-password form. */
async function submitPasswordChange(
  page: Page,
  accountName: string,
  fields: { current: string; next: string; confirm: string },
) {
  const dialog = page.getByRole('dialog', { name: 'Profile' });
  if (!(await dialog.isVisible())) {
    await page.getByRole('button', { name: `${accountName}: account menu` }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
  }
  await dialog.getByLabel('Current password').fill(fields.current);
  await dialog.getByLabel('New password', { exact: true }).fill(fields.next);
  await dialog.getByLabel('Confirm new password').fill(fields.confirm);
  await dialog.getByRole('button', { name: 'Update password' }).click();
  return dialog;
}

const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('accessToken'));

describe.concurrent('sign-in', () => {
  test.each(demoAccounts)('$email signs in and lands on $dashboard', async (account) => {
    const page = await openPage();
    await signInThroughUi(page, account.email, demoPassword, account.dashboard);
    await page.getByRole('button', { name: `${account.name}: account menu` }).waitFor();
    // The toolbar shows 'Admin Panel' to admins only (spec §2).
    expect(await page.getByRole('link', { name: 'Admin Panel' }).count()).toBe(
      account.role === 'admin' ? 1 : 0,
    );
    await page.context().close();
  });

  test('the page names its icon, and the server has it (no 404 on every page)', async () => {
    const page = await openPage();
    await page.goto('/login');
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    const icon = await page.request.get(href ?? '/favicon.ico');
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    await page.context().close();
  });

  test('a wrong password shows the Login Failed toast and stays signed out', async () => {
    const page = await openPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill('operator@example.com');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expectToast(page, 'error', 'Login Failed', 'Invalid email or password');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await storedToken(page)).toBeNull();
    await page.context().close();
  });

  test('Log out in the account menu returns to / signed out', async () => {
    const page = await openPage();
    await signInThroughUi(page, 'audit@example.com', demoPassword, '/audit');
    await page.getByRole('button', { name: 'Helen Park: account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await landedOn(page, '/');
    await page.getByRole('link', { name: 'Sign In' }).waitFor();
    expect(await storedToken(page)).toBeNull();
    // Signed out, a protected page now sends the visitor to /login, to return there after it.
    await page.goto('/audit');
    expect(await pageSettled(page)).toBe('/login?next=%2Faudit');
    await page.context().close();
  });

  test('change password in the profile dialog: checked, saved, old password refused', async () => {
    const email = 'e2e-password@example.com';
    const [oldPassword, newPassword] = ['first-password-1', 'second-password-2'];
    await freshUser('operator', email, oldPassword);
    const page = await openPage();
    await signInThroughUi(page, email, oldPassword, '/operator');

    const fields = { current: oldPassword, next: newPassword, confirm: 'something-else' };
    await submitPasswordChange(page, 'E2E operator', fields);
    await expectToast(page, 'error', 'Password mismatch', 'New passwords do not match');

    const dialog = await submitPasswordChange(page, 'E2E operator', {
      ...fields,
      confirm: newPassword,
    });
    await expectToast(page, 'success', 'Password changed', 'Your password has been updated');
    await dialog.waitFor({ state: 'hidden' });

    // The answer's fresh token was kept: a reload restores the session instead of signing out.
    await page.reload();
    expect(await pageSettled(page)).toBe('/operator');
    await page.getByRole('button', { name: 'E2E operator: account menu' }).waitFor();
    expect(await Api.loginStatus(e2e.server.baseUrl, email, oldPassword)).toBe(401);
    expect(await Api.loginStatus(e2e.server.baseUrl, email, newPassword)).toBe(200);
    await page.context().close();
  });

  test('a new user sets its own password before anything else, then sees its dashboard', async () => {
    const email = 'e2e-newcomer@example.com';
    await e2e.admin.post('/api/users', {
      name: 'E2E newcomer',
      email,
      role: 'lc_manager',
      password: chosenPassword,
    });
    const page = await openPage();
    // The spec's login flow goes to the role's dashboard: the gate shows over it.
    await signInThroughUi(page, email, chosenPassword, '/lc-manager');
    await page.getByRole('heading', { name: 'Set your own password' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Line Clearances' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Current password').fill(chosenPassword);
    await page.getByLabel('New password', { exact: true }).fill('my-own-secret-7');
    await page.getByLabel('Confirm new password').fill('my-own-secret-7');
    await page.getByRole('button', { name: 'Update password' }).click();
    await expectToast(page, 'success', 'Password changed', 'Your password has been updated');
    await page.getByRole('heading', { name: 'Line Clearance Manager Dashboard' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/lc-manager');
    // The fresh token was kept, and the password is the user's own: a reload shows the dashboard.
    await page.reload();
    await page.getByRole('heading', { name: 'Line Clearance Manager Dashboard' }).waitFor();
    expect(await Api.loginStatus(e2e.server.baseUrl, email, chosenPassword)).toBe(401);
    await page.context().close();
  });

  test('a wrong current password shows the error toast and keeps the session', async () => {
    const page = await openPage();
    await signInThroughUi(page, 'factory@example.com', demoPassword, '/factory-manager');
    await submitPasswordChange(page, 'Martin Keller', {
      current: 'wrong-current-password',
      next: 'whatever-new-1',
      confirm: 'whatever-new-1',
    });
    await expectToast(page, 'error', 'Error', 'Current password is incorrect');
    expect(new URL(page.url()).pathname).toBe('/factory-manager');
    expect(await storedToken(page)).not.toBeNull();
    await page.context().close();
  });

  test('a 401 mid-session (token revoked elsewhere) sends the browser to /login', async () => {
    const email = 'e2e-revoked@example.com';
    const password = 'revoked-password-1';
    await freshUser('lc_manager', email, password);
    const page = await openPage();
    await signInThroughUi(page, email, password, '/lc-manager');
    // The dashboard's first loads must have answered before the token is revoked: otherwise one of
    // them gets the 401 (on a busy machine) and the page leaves before the save below is tried.
    await page.waitForLoadState('networkidle');

    // Another client changes the password: the server revokes every older token, the page's too.
    const elsewhere = await Api.login(e2e.server.baseUrl, email, password);
    await elsewhere.post('/api/change-password', {
      currentPassword: password,
      newPassword: 'revoked-password-2',
    });

    await page.getByRole('button', { name: 'Create New Line Clearance' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Line Clearance' });
    await dialog.getByLabel('Name').fill('Never saved');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await landedOn(page, '/login');
    expect(await storedToken(page)).toBeNull();
    await page.getByRole('link', { name: 'Sign In' }).waitFor();
    await page.context().close();
  });

  test('keyboard only: sign in, open Profile from the account menu, Escape returns focus', async () => {
    const page = await openPage();
    const account = demoAccount('lc_manager');
    await page.goto('/login');
    await page.getByLabel('Email').focus();
    await page.keyboard.type(account.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(demoPassword);
    await page.keyboard.press('Enter');
    await landedOn(page, account.dashboard);

    const menuButton = page.getByRole('button', { name: `${account.name}: account menu` });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const profileItem = page.getByRole('menuitem', { name: 'Profile' });
    await profileItem.waitFor();
    // Arrow keys move through the menu; Enter on Profile opens the dialog.
    for (let step = 0; step < 5; step++) {
      if (await profileItem.evaluate((item) => item === document.activeElement)) break;
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Profile' });
    await dialog.waitFor();
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Radix gives the focus back a task after the dialog leaves the page (seen at <body> between).
    await page.waitForFunction(
      (button) => button === document.activeElement,
      await menuButton.elementHandle(),
      { timeout: 5_000 },
    );
    await page.context().close();
  });
});
