import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import type { Device } from '../../types/api.ts';
import { DeviceDialog } from './device-dialog.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
});

const tablet: Device = {
  _id: 'd'.repeat(24),
  name: 'Line 2 tablet',
  type: 'monitor',
  status: 'active',
  qrCode: 'TAB-2',
  version: 4,
};

const REASON = 'Screen cracked, sent for repair';

describe('Edit Device', () => {
  it('says a blank name at the field, which takes the focus, and sends nothing', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    const fake = fakeFetch({});
    vi.stubGlobal('fetch', fake.fetchImpl);
    await render(<DeviceDialog item={tablet} onClose={() => {}} onSaved={() => {}} />);
    const dialog = page.getByRole('dialog', { name: 'Edit Device' });
    const name = dialog.getByLabelText('Name');
    await userEvent.fill(name, '   ');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    const message = 'Please enter a name for the device';
    await expect.element(name).toHaveFocus();
    await expect.element(name).toHaveAttribute('aria-invalid', 'true');
    await expect.element(name).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(fake.calls).toEqual([]);
  });

  it('sends the version it opened, and says a refusal inside the dialog, which stays open', async () => {
    const refusal =
      'Line 2 tablet was changed by Adriana Novak on 2026-11-26 at 02:41 UTC since you opened it. Close this form and open it again to see the changes.';
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    const fake = fakeFetch({
      [`PUT /api/devices/${tablet._id}`]: { status: 409, body: { message: refusal } },
    });
    const bodies: unknown[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.body) bodies.push(JSON.parse(String(init.body)));
      return fake.fetchImpl(input, init);
    });
    const onSaved = vi.fn();
    const onClose = vi.fn();
    await render(<DeviceDialog item={tablet} onClose={onClose} onSaved={onSaved} />);
    const dialog = page.getByRole('dialog', { name: 'Edit Device' });
    await userEvent.selectOptions(dialog.getByLabelText('Status'), 'offline');
    await userEvent.fill(dialog.getByLabelText('Reason for change'), REASON);
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));

    await expect
      .element(dialog.getByRole('alert'))
      .toHaveTextContent(`Failed to update device: ${refusal}`);
    expect(bodies).toEqual([
      { name: 'Line 2 tablet', type: 'monitor', status: 'offline', version: 4, reason: REASON },
    ]);
    await expect.element(dialog.getByLabelText('Status')).toHaveValue('offline');
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
    // The refusal takes the focus from Save, so a screen reader says it.
    await expect.element(dialog.getByRole('alert')).toHaveFocus();
  });
});
