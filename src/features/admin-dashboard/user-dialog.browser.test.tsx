import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { Toaster } from '../../components/toaster.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import type { User } from '../../types/api.ts';
import { UserDialog } from './user-dialog.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
});

const RULE = 'Password should be at least 8 characters';

/** Renders the dialog signed in as `roles`; answers `routes` and records each request's body. */
async function open(
  item: User | null,
  routes: Parameters<typeof fakeFetch>[0] = {},
  roles: string[] = ['admin'],
) {
  signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles });
  const fake = fakeFetch(routes);
  const bodies: unknown[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.body) bodies.push(JSON.parse(String(init.body)));
    return fake.fetchImpl(input, init);
  });
  const onSaved = vi.fn();
  const onClose = vi.fn();
  await render(
    <>
      <UserDialog item={item} lineClearances={[]} onClose={onClose} onSaved={onSaved} />
      <Toaster />
    </>,
  );
  return { calls: fake.calls, bodies, onSaved, onClose };
}

describe('Create New User: the password', () => {
  it('states the rule, and a too-short password is named at the field, not sent', async () => {
    const { calls, bodies } = await open(null, {
      'POST /api/users': { status: 201, body: { _id: 'b'.repeat(24) } },
    });
    const dialog = page.getByRole('dialog', { name: 'Create New User' });
    const password = dialog.getByLabelText('Password');
    await expect
      .element(password)
      .toHaveAccessibleDescription(
        'At least 8 characters. Type a temporary password to give to the user, who chooses their own at the first sign-in.',
      );
    await userEvent.fill(dialog.getByLabelText('Name'), 'Priya Nair');
    await userEvent.fill(dialog.getByLabelText('Email'), 'priya@example.com');
    await userEvent.fill(password, 'short');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));

    await expect.element(dialog.getByText(RULE)).toBeVisible();
    await expect.element(password).toHaveAttribute('aria-invalid', 'true');
    expect(document.activeElement).toBe(password.element());
    expect(calls).toEqual([]);

    // An emptied field breaks the same rule (the form starts with a placeholder password).
    await userEvent.fill(password, '');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(dialog.getByText(RULE)).toBeVisible();
    expect(calls).toEqual([]);

    await userEvent.fill(password, 'Temp-2026');
    expect(dialog.getByText(RULE).query()).toBeNull();
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(page.getByText('User created successfully')).toBeVisible();
    expect(bodies).toEqual([
      {
        name: 'Priya Nair',
        email: 'priya@example.com',
        lineClearanceIds: [],
        role: 'operator',
        password: 'Temp-2026',
      },
    ]);
  });

  it('prefills the placeholder password but never sends it: it is published', async () => {
    const { bodies } = await open(null, {
      'POST /api/users': { status: 201, body: { _id: 'b'.repeat(24) } },
    });
    const dialog = page.getByRole('dialog', { name: 'Create New User' });
    const password = dialog.getByLabelText('Password');
    await expect.element(password).toHaveValue('Set-at-first-sign-in');
    await expect.element(password).toHaveAccessibleDescription(/Type a temporary password/);
    await userEvent.fill(dialog.getByLabelText('Name'), 'Priya Nair');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(password).toHaveFocus();
    await expect
      .element(dialog.getByText(/^Replace this placeholder with a temporary password/))
      .toBeVisible();
    expect(bodies).toEqual([]);
    await userEvent.fill(password, 'Temp-2026-x');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(page.getByText('User created successfully')).toBeVisible();
    expect(bodies).toMatchObject([{ password: 'Temp-2026-x' }]);
  });
});

const priya: User = {
  _id: 'b'.repeat(24),
  id: 'b'.repeat(24),
  name: 'Priya Nair',
  email: 'priya@example.com',
  role: ['operator'],
  lineClearanceIds: [],
  assignedOperators: [],
  status: 'active',
  lockedUntil: null,
  version: 1,
};
const PUT = `PUT /api/users/${priya._id}`;

describe('Edit User: Reset password', () => {
  it('sets a temporary password after the rule and a confirmation that says the sessions end', async () => {
    const { calls, bodies, onClose } = await open(priya, { [PUT]: { body: priya } });
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    const section = dialog.getByRole('region', { name: 'Password' });
    await userEvent.click(section.getByRole('button', { name: 'Reset password' }));

    const field = section.getByLabelText('New temporary password');
    await expect.element(field).toHaveFocus();
    await expect.element(field).toHaveAccessibleDescription('At least 8 characters.');
    await expect
      .element(section.getByText(/Every session of Priya Nair ends: Priya Nair is signed out/))
      .toBeVisible();

    // The rule of every new password, before anything is sent.
    await userEvent.fill(field, 'short');
    await userEvent.keyboard('{Enter}');
    await expect.element(section.getByText(RULE)).toBeVisible();
    await expect.element(field).toHaveFocus();
    expect(calls).toEqual([]);

    // Then the reason for the change, by the rule of every change's reason.
    await userEvent.fill(field, 'Temp-pass-9');
    await userEvent.keyboard('{Enter}');
    const reason = section.getByLabelText('Reason for change');
    await expect.element(reason).toHaveFocus();
    await expect
      .element(reason)
      .toHaveAccessibleDescription(
        expect.stringContaining(
          'Please give the reason for changing this user, in at least 3 different words',
        ),
      );
    expect(calls).toEqual([]);
    toasts.items = [];

    // Enter in the password submits the reset's own form (not Edit User's Save) and asks for a
    // confirmation.
    await userEvent.fill(reason, 'Forgot it after the holidays');
    await userEvent.click(field);
    await userEvent.keyboard('{Enter}');
    const confirm = section.getByRole('button', { name: 'Confirm reset' });
    await expect.element(confirm).toHaveFocus();
    await expect
      .element(confirm)
      .toHaveAccessibleDescription(
        'Reset the password of Priya Nair? Every session of Priya Nair ends now.',
      );
    expect(calls).toEqual([]);

    // Back leaves it unsent; confirming sends the stored user with the password.
    await userEvent.click(section.getByRole('button', { name: 'Back' }));
    await expect.element(field).toHaveFocus();
    expect(calls).toEqual([]);
    await userEvent.click(section.getByRole('button', { name: 'Reset password' }));
    await userEvent.click(section.getByRole('button', { name: 'Confirm reset' }));

    await expect.element(page.getByText('Password reset successfully')).toBeVisible();
    expect(calls).toEqual([PUT]);
    expect(bodies).toEqual([
      { ...priya, password: 'Temp-pass-9', reason: 'Forgot it after the holidays' },
    ]);
    await expect
      .element(section.getByRole('status'))
      .toHaveTextContent(
        'Password reset. Priya Nair is signed out everywhere and signs in with the new password.',
      );
    await expect.element(section.getByRole('button', { name: 'Reset password' })).toHaveFocus();
    expect(section.getByLabelText('New temporary password').query()).toBeNull();
    // The Edit User dialog stays open: the reset is its own action, apart from Save.
    expect(onClose).not.toHaveBeenCalled();
    // Another reset starts empty.
    toasts.items = [];
    await userEvent.click(section.getByRole('button', { name: 'Reset password' }));
    await expect.element(section.getByLabelText('Reason for change')).toHaveValue('');
    await expect.element(section.getByLabelText('New temporary password')).toHaveValue('');
  });

  it('says the server’s refusal of the reason at its field, keeping what was typed', async () => {
    const message = 'body.reason must say why the user is changed (at least 3 different words)';
    const { calls } = await open(priya, { [PUT]: { status: 400, body: { message } } });
    const section = page.getByRole('region', { name: 'Password' });
    await userEvent.click(section.getByRole('button', { name: 'Reset password' }));
    await userEvent.fill(section.getByLabelText('New temporary password'), 'Temp-pass-9');
    const reason = section.getByLabelText('Reason for change');
    await userEvent.fill(reason, 'Asked for it twice');
    await userEvent.click(section.getByRole('button', { name: 'Reset password' }));
    await userEvent.click(section.getByRole('button', { name: 'Confirm reset' }));
    await expect.element(reason).toHaveFocus();
    await expect
      .element(reason)
      .toHaveAccessibleDescription(expect.stringContaining(`Failed to update user: ${message}`));
    await expect.element(reason).toHaveValue('Asked for it twice');
    await expect.element(section.getByRole('button', { name: 'Reset password' })).toBeVisible();
    expect(calls).toEqual([PUT]);
  });

  it('goes back to the first step when the confirmed password is changed', async () => {
    const { calls } = await open(priya);
    const section = page.getByRole('region', { name: 'Password' });
    await userEvent.click(section.getByRole('button', { name: 'Reset password' }));
    const field = section.getByLabelText('New temporary password');
    await userEvent.fill(field, 'Temp-pass-9');
    await userEvent.fill(
      section.getByLabelText('Reason for change'),
      'Forgot it after the holidays',
    );
    await userEvent.click(section.getByRole('button', { name: 'Reset password' }));
    await expect.element(section.getByRole('button', { name: 'Confirm reset' })).toBeVisible();
    await userEvent.fill(field, 'Other-pass-9');
    await expect.element(section.getByRole('button', { name: 'Reset password' })).toBeVisible();
    expect(section.getByRole('button', { name: 'Confirm reset' }).query()).toBeNull();
    expect(calls).toEqual([]);
  });

  it('says the server’s refusal after the spec’s failure text and lets the password be retyped', async () => {
    const message = 'Too many password attempts; try again in a minute';
    const { calls } = await open(priya, { [PUT]: { status: 429, body: { message } } });
    const section = page.getByRole('region', { name: 'Password' });
    await userEvent.click(section.getByRole('button', { name: 'Reset password' }));
    await userEvent.fill(section.getByLabelText('New temporary password'), 'Temp-pass-9');
    await userEvent.fill(
      section.getByLabelText('Reason for change'),
      'Forgot it after the holidays',
    );
    await userEvent.click(section.getByRole('button', { name: 'Reset password' }));
    await userEvent.click(section.getByRole('button', { name: 'Confirm reset' }));
    await expect.element(page.getByText(`Failed to update user: ${message}`)).toBeVisible();
    expect(calls).toEqual([PUT]);
    await expect.element(section.getByLabelText('New temporary password')).toHaveFocus();
    expect(section.getByRole('status').query()).toBeNull();
  });

  it('warns that a locked account also needs Unlock', async () => {
    await open({ ...priya, lockedUntil: new Date(Date.now() + 60_000).toISOString() });
    const section = page.getByRole('region', { name: 'Password' });
    await userEvent.click(section.getByRole('button', { name: 'Reset password' }));
    await expect.element(section.getByText(/Unlock it on its card too/)).toBeVisible();
  });

  it('is offered only where the server allows it: not for one’s own account, not by a factory manager for an admin', async () => {
    const admin: User = { ...priya, _id: 'c'.repeat(24), id: 'c'.repeat(24), role: ['admin'] };
    const resetButton = () => page.getByRole('button', { name: 'Reset password' });

    await open(priya, {}, ['factory_manager']);
    await expect.element(resetButton()).toBeVisible();
    await cleanup();

    await open(admin, {}, ['factory_manager']);
    await expect.element(page.getByRole('dialog', { name: 'Edit User' })).toBeVisible();
    expect(resetButton().query()).toBeNull();
    await cleanup();

    await open(admin, {}, ['admin']);
    await expect.element(resetButton()).toBeVisible();
    await cleanup();

    // One's own password needs the current one: Profile, not here.
    await open({ ...priya, _id: 'u1', id: 'u1' }, {}, ['admin']);
    await expect
      .element(page.getByText('Your own password is changed in Profile, with your current one.'))
      .toBeVisible();
    expect(resetButton().query()).toBeNull();
  });
});

describe('Edit User: one’s own account', () => {
  it('shows its status without offering to deactivate it (the server refuses)', async () => {
    const self: User = {
      _id: 'u1',
      id: 'u1',
      name: 'Pat Doe',
      email: 'pat@example.com',
      role: ['admin'],
      status: 'active',
      lineClearanceIds: [],
      assignedOperators: [],
      lockedUntil: null,
      version: 1,
    };
    await open(self);
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await expect
      .element(dialog.getByText('You cannot deactivate your own account', { exact: false }))
      .toBeVisible();
    expect(dialog.getByLabelText('Account status').query()).toBeNull();
  });
});

describe('Edit User: the reason for a change', () => {
  it('asks why an account is changed, sends it with the user, and is not on Create', async () => {
    const reasonText = 'Priya now trains the new operators';
    const { bodies, onClose } = await open(priya, {
      [PUT]: { body: { ...priya, role: ['operator', 'audit'], version: 2 } },
    });
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await userEvent.click(dialog.getByRole('button', { name: /^Roles:/ }));
    await userEvent.click(page.getByRole('checkbox', { name: 'Audit' }));
    await userEvent.keyboard('{Escape}');
    const reason = dialog.getByLabelText('Reason for change');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect
      .element(reason)
      .toHaveAccessibleDescription(
        expect.stringContaining(
          'Please give the reason for changing this user, in at least 3 different words',
        ),
      );
    expect(bodies).toEqual([]);

    toasts.items = [];
    await userEvent.fill(reason, reasonText);
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(page.getByText('User updated successfully')).toBeVisible();
    expect(bodies).toEqual([
      { ...priya, role: ['operator', 'audit'], email: 'priya@example.com', reason: reasonText },
    ]);
    expect(onClose).toHaveBeenCalledTimes(1);
    await cleanup();

    await open(null);
    await expect.element(page.getByRole('dialog', { name: 'Create New User' })).toBeVisible();
    expect(page.getByLabelText('Reason for change').query()).toBeNull();
  });
});
