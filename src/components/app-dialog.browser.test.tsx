import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { LONGWORD, within } from '../../tests/web/long-text.ts';
import { cleanup, render } from '../../tests/web/render.tsx';
import { toasts, toastWarning } from '../stores/toasts.ts';
import { AppDialog } from './app-dialog.tsx';
import { Toaster } from './toaster.tsx';
import './field.css';

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

describe('AppDialog with a refusal quoting a long word', () => {
  it('wraps the refusal inside the dialog on a phone', async () => {
    await page.viewport(390, 844);
    try {
      await render(
        <AppDialog open onOpenChange={() => {}} title="Edit Line Clearance" width="500px">
          <form className="form">
            <input aria-label="Name" />
            {/* As the edit dialogs say a refusal (admin-dashboard/use-dialog-save.tsx). */}
            <p className="form-error" role="alert">
              Failed to update line clearance: {LONGWORD} was changed by Martin Keller
            </p>
          </form>
        </AppDialog>,
      );
      const alert = page.getByRole('alert');
      await expect.element(alert).toBeVisible();
      const box = alert.element() as HTMLElement;
      expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
      expect(within(box, page.getByRole('dialog').element())).toBe(true);
    } finally {
      await page.viewport(414, 896);
    }
  });
});

describe('AppDialog’s title', () => {
  it('keeps clear of the close button on a phone, however long', async () => {
    await page.viewport(390, 844);
    try {
      for (const title of ['Correct details: Blister Line 1', `Correct details: ${LONGWORD}`]) {
        await render(
          <AppDialog open onOpenChange={() => {}} title={title} width="500px">
            <input aria-label="Name" />
          </AppDialog>,
        );
        const heading = page.getByRole('heading', { name: title }).element() as HTMLElement;
        const close = page.getByRole('button', { name: 'Close' }).element();
        const text = document.createRange();
        text.selectNodeContents(heading);
        // The text itself, line by line, ends at least a small gap left of the button.
        for (const line of text.getClientRects()) {
          expect(line.right).toBeLessThanOrEqual(close.getBoundingClientRect().left - 4);
        }
        expect(heading.scrollWidth).toBeLessThanOrEqual(heading.clientWidth);
        await cleanup();
      }
    } finally {
      await page.viewport(414, 896);
    }
  });
});
