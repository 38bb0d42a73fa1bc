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
    await expect.element(password).toHaveAccessibleDescription('At least 8 characters.');
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

  it('sends the prefilled placeholder password, which keeps the rule', async () => {
    const { bodies } = await open(null, {
      'POST /api/users': { status: 201, body: { _id: 'b'.repeat(24) } },
    });
    const dialog = page.getByRole('dialog', { name: 'Create New User' });
    await userEvent.fill(dialog.getByLabelText('Name'), 'Priya Nair');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(page.getByText('User created successfully')).toBeVisible();
    expect(bodies).toMatchObject([{ password: 'ChangeMe-2026' }]);
  });
});
