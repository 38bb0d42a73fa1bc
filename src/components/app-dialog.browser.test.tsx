import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../tests/web/render.tsx';
import { toasts, toastWarning } from '../stores/toasts.ts';
import { AppDialog } from './app-dialog.tsx';
import { Toaster } from './toaster.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
});

// Like the dashboards: the dialog exists only while open.
function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Edit Line 1
      </button>
      {open && (
        <AppDialog open onOpenChange={setOpen} title="Edit Line Clearance" width="500px">
          <input aria-label="Name" />
          <button type="button" onClick={() => toastWarning('Please enter a name')}>
            Save
          </button>
        </AppDialog>
      )}
    </>
  );
}

describe('AppDialog', () => {
  it('focuses the first field, and returns focus to the opener when closed', async () => {
    await render(<Opener />);
    const opener = page.getByRole('button', { name: 'Edit Line 1' });
    await userEvent.click(opener);
    const dialog = page.getByRole('dialog', { name: 'Edit Line Clearance' });
    await expect.element(dialog).toBeVisible();
    await expect.element(page.getByLabelText('Name')).toHaveFocus();
    // 500px, narrowed to the screen on phones.
    expect((dialog.element() as HTMLElement).style.width).toBe('500px');
    await userEvent.keyboard('{Escape}');
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.element(opener).toHaveFocus();
  });

  it('closes with one Escape while a validation toast is showing', async () => {
    await render(
      <>
        <Opener />
        <Toaster />
      </>,
    );
    const opener = page.getByRole('button', { name: 'Edit Line 1' });
    await userEvent.click(opener);
    const dialog = page.getByRole('dialog', { name: 'Edit Line Clearance' });
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(page.getByText('Please enter a name')).toBeVisible();
    await userEvent.click(dialog.getByLabelText('Name'));
    await userEvent.keyboard('{Escape}');
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.element(opener).toHaveFocus();
  });
});
