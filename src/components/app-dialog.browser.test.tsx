import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../tests/web/render.tsx';
import { AppDialog } from './app-dialog.tsx';

afterEach(cleanup);

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
});
