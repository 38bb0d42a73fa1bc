import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../tests/web/render.tsx';
import { ApiError } from '../lib/api-client.ts';
import { toasts } from '../stores/toasts.ts';
import { ReasonDialog } from './reason-dialog.tsx';
import { Toaster } from './toaster.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
});

const REASON = 'Line dismantled after the 2026 refit';
const MISSING = 'Please give the reason for deleting this line clearance, in 3 words';

/** The dialog deleting Line 9, with `act` standing in for the call. */
async function show(act: (reason: string) => Promise<unknown>) {
  const onDone = vi.fn();
  const onClose = vi.fn();
  await render(
    <>
      <ReasonDialog
        title="Why is this line clearance deleted?"
        subject="Line 9"
        label="Reason (required)"
        hint="At least 3 different words."
        missing={MISSING}
        submitLabel="Delete"
        act={act}
        success="Line clearance deleted successfully"
        failure="Failed to delete line clearance"
        onDone={onDone}
        onClose={onClose}
      />
      <Toaster />
    </>,
  );
  const dialog = page.getByRole('dialog', { name: 'Why is this line clearance deleted?' });
  return {
    onDone,
    onClose,
    dialog,
    reason: dialog.getByRole('textbox', { name: 'Reason (required)' }),
    submit: dialog.getByRole('button', { name: 'Delete', exact: true }),
  };
}

const refusal = (status: number, message: string) =>
  new ApiError(status, `DELETE /api/line-clearances/x: ${status}`, message);

describe('ReasonDialog', () => {
  it('names the record, checks the reason by the server’s rules, then acts with it trimmed', async () => {
    const act = vi.fn(async (_reason: string) => ({}));
    const { dialog, reason, submit, onDone, onClose } = await show(act);
    await expect.element(dialog.getByText('Line 9')).toBeVisible();
    await expect.element(reason).toHaveAccessibleDescription('At least 3 different words.');

    await userEvent.click(submit);
    await expect.element(reason).toHaveAccessibleDescription(expect.stringContaining(MISSING));
    await expect.element(reason).toHaveFocus();
    // Text the server cannot store is named before anything is sent, and stays as typed.
    toasts.items = [];
    await reason.fill(`${REASON} \u202e`);
    await userEvent.click(submit);
    await expect
      .element(reason)
      .toHaveAccessibleDescription(
        expect.stringMatching(/^Reason \(required\) contains an invisible direction control/),
      );
    expect(act).not.toHaveBeenCalled();

    toasts.items = [];
    await reason.fill(`  ${REASON}  `);
    await userEvent.click(submit);
    await expect.element(page.getByText('Line clearance deleted successfully')).toBeVisible();
    expect(act).toHaveBeenCalledWith(REASON);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes and reloads when the record went or is kept meanwhile: trying again would not help', async () => {
    for (const status of [404, 409]) {
      const { reason, submit, onDone, onClose } = await show(() =>
        Promise.reject(refusal(status, 'Line 9 was deleted meanwhile')),
      );
      await reason.fill(REASON);
      await userEvent.click(submit);
      await expect
        .element(page.getByText('Failed to delete line clearance: Line 9 was deleted meanwhile'))
        .toBeVisible();
      expect(onClose).toHaveBeenCalledTimes(1);
      // The list is read again: a card deleted meanwhile must not stay on screen.
      expect(onDone).toHaveBeenCalledTimes(1);
      await cleanup();
      toasts.items = [];
    }
  });

  it('keeps the dialog and the reason on any other failure; the reason’s refusal at its field', async () => {
    const message =
      'body.reason must say why the line clearance is deleted (at least 3 different words)';
    const act = vi
      .fn<(reason: string) => Promise<unknown>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockRejectedValueOnce(refusal(400, message));
    const { reason, submit, onClose } = await show(act);
    await reason.fill(REASON);
    await userEvent.click(submit);
    await expect
      .element(page.getByText('Failed to delete line clearance', { exact: true }))
      .toBeVisible();
    expect(onClose).not.toHaveBeenCalled();
    await expect.element(reason).toHaveValue(REASON);

    toasts.items = [];
    await userEvent.click(submit);
    await expect
      .element(reason)
      .toHaveAccessibleDescription(
        expect.stringContaining(`Failed to delete line clearance: ${message}`),
      );
    await expect.element(reason).toHaveFocus();
    expect(act).toHaveBeenCalledTimes(2);
    expect(onClose).not.toHaveBeenCalled();
  });
});
