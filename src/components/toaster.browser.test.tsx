import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { DESKTOP_AND_PHONE, LONGWORD, pageWidth, within } from '../../tests/web/long-text.ts';
import { cleanup, render } from '../../tests/web/render.tsx';
import { dismissToast, toastError, toastSuccess, toasts, toastWarning } from '../stores/toasts.ts';
import { AppDialog } from './app-dialog.tsx';
import { Toaster } from './toaster.tsx';

afterEach(async () => {
  for (const item of [...toasts.items]) dismissToast(item.id);
  await cleanup();
  await page.viewport(414, 896);
});

const overlaps = (a: DOMRect, b: DOMRect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** A dialog like the Reject one: a title, two fields and the buttons, with two toasts over it. */
async function dialogWithToasts() {
  await render(
    <>
      <AppDialog open onOpenChange={() => {}} title="Reject inspection" width="500px">
        <p>Meaning of this signature: Rejected: the line is not clear</p>
        <textarea aria-label="Notes (required)" rows={4} />
        <input aria-label="Password" type="password" />
        <button type="button">Sign and reject</button>
      </AppDialog>
      <Toaster />
    </>,
  );
  toastWarning('Please give the reason for the rejection');
  toastSuccess('Inspection rejected successfully');
  await expect.element(page.getByText('Inspection rejected successfully')).toBeVisible();
  const toastBoxes = [...document.querySelectorAll('.toast')].map((toast) =>
    toast.getBoundingClientRect(),
  );
  expect(toastBoxes).toHaveLength(2);
  return toastBoxes;
}

describe('Toaster placement', () => {
  it('on a phone keeps toasts off a dialog’s title and fields (bottom of the screen)', async () => {
    await page.viewport(390, 844);
    const toastBoxes = await dialogWithToasts();
    const covered = [
      page.getByRole('heading', { name: 'Reject inspection' }),
      page.getByLabelText('Notes (required)'),
      page.getByLabelText('Password'),
    ].map((locator) => locator.element().getBoundingClientRect());
    for (const toast of toastBoxes) {
      for (const box of covered) expect(overlaps(toast, box)).toBe(false);
      expect(toast.bottom).toBeLessThanOrEqual(844);
      expect(toast.bottom).toBeGreaterThan(844 / 2);
    }
  });

  it('on a phone held sideways keeps toasts in the bottom left, clear of the controls on the right', async () => {
    await page.viewport(844, 390);
    const toastBoxes = await dialogWithToasts();
    for (const toast of toastBoxes) {
      expect(toast.right).toBeLessThanOrEqual(844 / 2);
      expect(toast.bottom).toBeLessThanOrEqual(390);
      expect(toast.top).toBeGreaterThan(0);
    }
  });

  it('on a desktop keeps toasts at the top right', async () => {
    await page.viewport(1280, 900);
    const toastBoxes = await dialogWithToasts();
    for (const toast of toastBoxes) {
      expect(toast.top).toBeLessThan(900 / 2);
      expect(toast.right).toBeGreaterThan(1280 - 40);
    }
  });
});

describe('a toast quoting a long word', () => {
  for (const [width, height] of DESKTOP_AND_PHONE) {
    it(`wraps it inside the toast and keeps Dismiss on screen at ${width} px`, async () => {
      await page.viewport(width, height);
      await render(<Toaster />);
      toastError(
        `Failed to update line clearance: ${LONGWORD} was changed by Martin Keller on 2026-11-28`,
      );
      const dismiss = page.getByRole('button', { name: 'Dismiss' });
      await expect.element(dismiss).toBeVisible();
      const toast = document.querySelector('.toast') as HTMLElement;
      const detail = toast.querySelector('.toast-detail') as HTMLElement;
      expect(within(dismiss.element(), toast)).toBe(true);
      expect(within(detail, toast)).toBe(true);
      expect(detail.scrollWidth).toBeLessThanOrEqual(detail.clientWidth);
      expect(toast.getBoundingClientRect().right).toBeLessThanOrEqual(width);
      expect(pageWidth()).toBeLessThanOrEqual(width);
    });
  }
});
