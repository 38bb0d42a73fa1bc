import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { Toaster } from '../../components/toaster.tsx';
import { toasts } from '../../stores/toasts.ts';
import type { User } from '../../types/api.ts';
import { OperatorsTab } from './operators-tab.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const priya: User = {
  _id: 'b00000000000000000000001',
  id: 'b00000000000000000000001',
  name: 'Priya Nair',
  email: 'p@example.com',
  role: ['operator'],
  lineClearanceIds: [],
  assignedOperators: [],
  status: 'active',
  lockedUntil: null,
  version: 1,
};

describe('LC manager: deleting an operator', () => {
  it('asks why after the spec’s confirmation and sends it; declined, nothing happens', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const fake = fakeFetch({ [`DELETE /api/users/${priya._id}`]: { body: {} } });
    const sent: unknown[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)));
      return fake.fetchImpl(input, init);
    });
    const reload = vi.fn();
    await render(
      <>
        <OperatorsTab
          operators={[priya]}
          loading={false}
          areasOf={() => []}
          deleteBlockerOf={() => null}
          onAdd={() => {}}
          reload={reload}
        />
        <Toaster />
      </>,
    );
    const remove = page.getByRole('button', { name: 'Delete Priya Nair' });
    await userEvent.click(remove);
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete this operator?');
    expect(page.getByRole('dialog').query()).toBeNull();

    confirm.mockReturnValue(true);
    await userEvent.click(remove);
    const dialog = page.getByRole('dialog', { name: 'Why is this operator deleted?' });
    await dialog
      .getByRole('textbox', { name: 'Reason (required)' })
      .fill('Moved to the other site');
    await userEvent.click(dialog.getByRole('button', { name: 'Delete', exact: true }));
    await expect.element(page.getByText('Operator deleted successfully')).toBeVisible();
    expect(fake.calls).toEqual([`DELETE /api/users/${priya._id}`]);
    expect(sent).toEqual([{ reason: 'Moved to the other site' }]);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
