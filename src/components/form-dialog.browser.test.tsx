import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../tests/web/render.tsx';
import { FormDialog } from './form-dialog.tsx';

afterEach(cleanup);

describe('FormDialog while saving', () => {
  it('keeps the focus on Save, which does nothing until the save ends', async () => {
    let finish = (_saved: boolean) => {};
    const onSubmit = vi.fn(
      () =>
        new Promise<boolean>((resolve) => {
          finish = resolve;
        }),
    );
    const onClose = vi.fn();
    await render(
      <FormDialog title="Edit Device" onSubmit={onSubmit} onClose={onClose}>
        <input aria-label="Name" />
      </FormDialog>,
    );
    const save = page.getByRole('button', { name: 'Save' });
    await expect.element(save).toBeVisible();
    (save.element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    await expect.element(save).toHaveAttribute('aria-disabled', 'true');
    await expect.element(save).toHaveFocus();
    // A second Enter while the first save runs sends nothing more.
    await userEvent.keyboard('{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);

    finish(false);
    await expect.element(save).not.toHaveAttribute('aria-disabled');
    await expect.element(save).toHaveFocus();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('is not closed by Cancel, × or Escape until the save ends (a signature on its way)', async () => {
    let finish = (_saved: boolean) => {};
    const onSubmit = () =>
      new Promise<boolean>((resolve) => {
        finish = resolve;
      });
    const onClose = vi.fn();
    await render(
      <FormDialog title="Approve Inspection" onSubmit={onSubmit} onClose={onClose}>
        <input aria-label="Password" />
      </FormDialog>,
    );
    const cancel = page.getByRole('button', { name: 'Cancel' });
    await userEvent.click(page.getByRole('button', { name: 'Save' }));
    await expect.element(cancel).toHaveAttribute('aria-disabled', 'true');
    // Forced: Playwright waits for an aria-disabled button to be enabled; a person can click it.
    await userEvent.click(cancel, { force: true });
    await userEvent.click(page.getByRole('button', { name: 'Close' }));
    await userEvent.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    await expect.element(page.getByRole('dialog', { name: 'Approve Inspection' })).toBeVisible();

    finish(false);
    await expect.element(cancel).not.toHaveAttribute('aria-disabled');
    await userEvent.click(cancel);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('FormDialog’s submit button', () => {
  /** The submit button's colour in a dialog of `variant`, and a plain button's of class `like`. */
  async function colours(variant: 'primary' | 'danger' | undefined, like: string) {
    await render(
      <>
        <button type="button" className={`btn ${like}`}>
          Other
        </button>
        <FormDialog title="Dismiss" submitVariant={variant} onSubmit={vi.fn()} onClose={vi.fn()}>
          <input aria-label="Reason" />
        </FormDialog>
      </>,
    );
    const submit = page.getByRole('button', { name: 'Save' });
    await expect.element(submit).toBeVisible();
    const other = document.querySelector(`.${like}`) as HTMLElement;
    const background = (element: Element) => getComputedStyle(element).backgroundColor;
    const shown = [background(submit.element()), background(other)];
    await cleanup();
    return shown;
  }

  it('is primary by default, and red for a destructive action, as any danger button is', async () => {
    const [plain, primary] = await colours(undefined, 'btn-primary');
    expect(plain).toBe(primary);
    const [destructive, danger] = await colours('danger', 'btn-danger');
    expect(destructive).toBe(danger);
    expect(destructive).not.toBe(plain);
  });
});
