import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { Toaster } from '../../components/toaster.tsx';
import { accessTokenKey } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import { ProfileDialog } from './profile-dialog.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  localStorage.removeItem(accessTokenKey);
  vi.unstubAllGlobals();
});

async function showProfile() {
  const closed = vi.fn();
  await render(
    <>
      <ProfileDialog open onOpenChange={closed} name="Ada Lovelace" email="ada@example.com" />
      <Toaster />
    </>,
  );
  return closed;
}

async function fillPasswords(current: string, next: string, confirm: string) {
  await userEvent.fill(page.getByLabelText('Current password'), current);
  await userEvent.fill(page.getByLabelText('New password', { exact: true }), next);
  await userEvent.fill(page.getByLabelText('Confirm new password'), confirm);
  await userEvent.click(page.getByRole('button', { name: 'Update password' }));
}

const lastToast = () => toasts.items.at(-1);

describe('profile dialog', () => {
  it('shows avatar initials, name and email at 450px', async () => {
    await showProfile();
    await expect.element(page.getByRole('dialog', { name: 'Profile' })).toBeVisible();
    await expect.element(page.getByText('AL')).toBeVisible();
    await expect.element(page.getByText('ada@example.com')).toBeVisible();
    expect(page.getByRole('dialog').element().getBoundingClientRect().width).toBeLessThanOrEqual(
      450,
    );
  });

  it('clears the fields when closed (spec §2), by Cancel as by any other means', async () => {
    function Reopenable() {
      const [open, setOpen] = useState(true);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open profile
          </button>
          <ProfileDialog open={open} onOpenChange={setOpen} name="Ada" email="ada@example.com" />
        </>
      );
    }
    await render(<Reopenable />);
    await userEvent.fill(page.getByLabelText('Current password'), 'half-typed');
    await userEvent.click(page.getByRole('button', { name: 'Cancel' }));
    await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
    await userEvent.click(page.getByRole('button', { name: 'Open profile' }));
    await expect.element(page.getByLabelText('Current password')).toHaveValue('');
  });

  it('validates in the spec order without calling the server', async () => {
    const { fetchImpl, calls } = fakeFetch({});
    vi.stubGlobal('fetch', fetchImpl);
    await showProfile();
    await fillPasswords('', 'abc', 'abd');
    expect(lastToast()).toMatchObject({
      severity: 'warn',
      summary: 'Missing fields',
      detail: 'Please fill in all password fields',
      life: 3000,
    });
    await fillPasswords('old-password', 'abc', 'abd');
    expect(lastToast()).toMatchObject({
      severity: 'error',
      summary: 'Password mismatch',
      detail: 'New passwords do not match',
    });
    await fillPasswords('old-password', 'abc', 'abc');
    expect(lastToast()).toMatchObject({
      summary: 'Weak password',
      detail: 'Password should be at least 8 characters',
    });
    await expect.element(page.getByText('Weak password')).toBeVisible();
    expect(calls).toEqual([]);
  });

  it('shows a wrong current password as a 4 s error and keeps the dialog open', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({ 'POST /api/change-password': { status: 401, body: { message: 'no' } } })
        .fetchImpl,
    );
    const closed = await showProfile();
    await fillPasswords('wrong-password', 'new-password-1', 'new-password-1');
    // Said in the toast and at the field.
    await expect
      .element(page.getByLabelText('Current password'))
      .toHaveAccessibleDescription('Current password is incorrect');
    expect(lastToast()).toMatchObject({
      summary: 'Error',
      detail: 'Current password is incorrect',
      life: 4000,
    });
    expect(closed).not.toHaveBeenCalled();
  });

  it('confirms success for 3 s, then clears the fields and closes', async () => {
    localStorage.setItem(accessTokenKey, 'old-token');
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        'POST /api/change-password': { body: { message: 'Password changed', token: 'new-token' } },
      }).fetchImpl,
    );
    const closed = await showProfile();
    await fillPasswords('demo-password', 'new-password-1', 'new-password-1');
    await expect.element(page.getByText('Your password has been updated')).toBeVisible();
    expect(lastToast()).toMatchObject({ summary: 'Password changed', life: 3000 });
    expect(closed).toHaveBeenCalledWith(false);
    await expect.element(page.getByLabelText('Current password')).toHaveValue('');
    // The change revoked the old token; the answer's fresh one keeps this session signed in.
    expect(localStorage.getItem(accessTokenKey)).toBe('new-token');
  });
});
