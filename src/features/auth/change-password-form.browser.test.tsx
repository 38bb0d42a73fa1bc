import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import { ChangePasswordForm } from './change-password-form.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
});

const current = () => page.getByLabelText('Current password');
const fresh = () => page.getByLabelText('New password', { exact: true });
const confirmation = () => page.getByLabelText('Confirm new password');

async function submit(values: [string, string, string]) {
  await render(<ChangePasswordForm other={{ label: 'Cancel', onClick: () => {} }} />);
  const fields = [current(), fresh(), confirmation()];
  for (const [index, value] of values.entries()) {
    if (value) await userEvent.fill(fields[index] as ReturnType<typeof current>, value);
  }
  await userEvent.click(page.getByRole('button', { name: 'Update password' }));
}

describe('the change-password form', () => {
  it('states the rules of a password of one’s own under New password only', async () => {
    await render(
      <ChangePasswordForm
        heading="Change password"
        other={{ label: 'Cancel', onClick: () => {} }}
      />,
    );
    await expect
      .element(page.getByLabelText('New password', { exact: true }))
      .toHaveAccessibleDescription(
        'At least 8 characters. It may not contain your name or your email address (nor the part before the @), and may not be your current password or one of your last passwords.',
      );
    await expect.element(page.getByLabelText('Current password')).not.toHaveAccessibleDescription();
    await expect
      .element(page.getByLabelText('Confirm new password'))
      .not.toHaveAccessibleDescription();
  });

  it('says a mismatch at Confirm new password, which takes the focus', async () => {
    await submit(['old-password', 'mine-and-only-mine', 'mine-and-only-mine!']);
    await expect.element(confirmation()).toHaveFocus();
    await expect.element(confirmation()).toHaveAttribute('aria-invalid', 'true');
    await expect.element(confirmation()).toHaveAccessibleDescription('New passwords do not match');
    await expect.element(fresh()).not.toHaveAttribute('aria-invalid');
    expect(toasts.items.map((toast) => toast.summary)).toEqual(['Password mismatch']);
  });

  it('says a too short new password at New password', async () => {
    await submit(['old-password', 'short', 'short']);
    await expect.element(fresh()).toHaveFocus();
    await expect.element(fresh()).toHaveAttribute('aria-invalid', 'true');
    await expect
      .element(fresh())
      .toHaveAccessibleDescription(/^Password should be at least 8 characters At least 8/);
  });

  it('marks every empty field and focuses the first', async () => {
    await submit(['', 'mine-and-only-mine', '']);
    await expect.element(current()).toHaveFocus();
    for (const field of [current(), confirmation()]) {
      await expect.element(field).toHaveAttribute('aria-invalid', 'true');
      await expect.element(field).toHaveAccessibleDescription('Please fill in all password fields');
    }
    await expect.element(fresh()).not.toHaveAttribute('aria-invalid');
  });

  it('says a wrong current password at its field, the session kept', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['operator'] });
    const fake = fakeFetch({
      'POST /api/change-password': { status: 401, body: { message: 'no' } },
    });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await submit(['wrong-password', 'mine-and-only-mine', 'mine-and-only-mine']);
    await expect.element(current()).toHaveFocus();
    await expect.element(current()).toHaveAttribute('aria-invalid', 'true');
    await expect.element(current()).toHaveAccessibleDescription('Current password is incorrect');
  });

  it('says the server’s refusal of the new password at New password, which takes the focus', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['operator'] });
    const refusal = 'The new password must not contain your name';
    const fake = fakeFetch({
      'POST /api/change-password': { status: 400, body: { message: refusal } },
    });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await submit(['old-password', 'pat-doe-2024!', 'pat-doe-2024!']);
    await expect.element(fresh()).toHaveFocus();
    await expect.element(fresh()).toHaveAttribute('aria-invalid', 'true');
    await expect.element(fresh()).toHaveAccessibleDescription(new RegExp(`^${refusal} At least 8`));
    await expect.element(current()).not.toHaveAttribute('aria-invalid');
    // The spec's toast too (§8: 'Error', 4 s).
    expect(toasts.items.map((toast) => toast.detail)).toEqual([refusal]);
  });

  it('says a refusal naming the current password’s field at that field', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['operator'] });
    const refusal = 'body.currentPassword must not contain the NUL character (U+0000)';
    const fake = fakeFetch({
      'POST /api/change-password': { status: 400, body: { message: refusal } },
    });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await submit(['old-password', 'mine-and-only-mine', 'mine-and-only-mine']);
    await expect.element(current()).toHaveFocus();
    await expect.element(current()).toHaveAccessibleDescription(refusal);
    await expect.element(fresh()).not.toHaveAttribute('aria-invalid');
  });
});
