import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';

afterEach(() => cleanup());

describe('the change-password form', () => {
  it('states the rules of a password of one’s own under New password only', async () => {
    await render(
      <ChangePasswordForm
        heading="Change password"
        other={{ label: 'Cancel', onClick: () => {} }}
      />,
    );
    await expect
      .element(page.getByLabelText('New password', { exact: true }))
      .toHaveAccessibleDescription(
        'At least 8 characters. It may not contain your name or your email address (nor the part before the @), and may not be your current password or one of your last passwords.',
      );
    await expect.element(page.getByLabelText('Current password')).not.toHaveAccessibleDescription();
    await expect
      .element(page.getByLabelText('Confirm new password'))
      .not.toHaveAccessibleDescription();
  });
});
