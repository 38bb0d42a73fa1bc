import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { activeLine } from '../../../tests/web/line-fixture.ts';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { Toaster } from '../../components/toaster.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import type { LineClearance } from '../../types/api.ts';
import { LineClearanceDialog } from './line-clearance-dialog.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
});

/** Bottling Line 2 as the factory manager's page loaded it: active, at version 1. */
const opened: LineClearance = activeLine('c00000000000000000000002', {
  name: 'Bottling Line 2',
  description: 'Filler and capper',
});
const PUT = `PUT /api/line-clearances/${opened._id}`;
const changed =
  'Bottling Line 2 was changed by Adriana Novak on 2026-11-26 at 02:41 UTC since you opened it. Close this form and open it again to see the changes.';

async function open(routes: Parameters<typeof fakeFetch>[0]) {
  signIn('token', {
    id: 'u1',
    name: 'Pat Doe',
    email: 'pat@example.com',
    roles: ['factory_manager'],
  });
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
      <LineClearanceDialog item={opened} users={[]} onClose={onClose} onSaved={onSaved} />
      <Toaster />
    </>,
  );
  return { bodies, onSaved, onClose };
}

describe('Edit Line Clearance: a record changed since the dialog opened', () => {
  it('says who changed it inside the dialog, keeps the typed values and reloads the list', async () => {
    const { bodies, onSaved, onClose } = await open({
      [PUT]: { status: 409, body: { message: changed } },
    });
    const dialog = page.getByRole('dialog', { name: 'Edit Line Clearance' });
    const description = dialog.getByLabelText('Description');
    await userEvent.fill(description, 'Filler, capper and labeller');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));

    // The copy as opened goes back with its version, which the server found older than its own.
    expect(bodies).toEqual([
      {
        ...opened,
        description: 'Filler, capper and labeller',
        managerId: null,
        version: 1,
      },
    ]);
    await expect
      .element(dialog.getByRole('alert'))
      .toHaveTextContent(`Failed to update line clearance: ${changed}`);
    await expect.element(description).toHaveValue('Filler, capper and labeller');
    expect(onClose).not.toHaveBeenCalled();
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect(page.getByText('Line clearance updated successfully').query()).toBeNull();
  });

  it('saves the version it opened and closes when nobody changed it meanwhile', async () => {
    const { bodies, onSaved, onClose } = await open({
      [PUT]: { body: { ...opened, status: 'maintenance', version: 2 } },
    });
    const dialog = page.getByRole('dialog', { name: 'Edit Line Clearance' });
    await userEvent.selectOptions(dialog.getByLabelText('Status'), 'maintenance');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(page.getByText('Line clearance updated successfully')).toBeVisible();
    expect(bodies).toMatchObject([{ status: 'maintenance', version: 1 }]);
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
