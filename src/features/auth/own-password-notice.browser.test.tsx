import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { replaceAccessToken, signIn, signOut } from '../../stores/session.ts';
import { OwnPasswordNotice } from './own-password-notice.tsx';

afterEach(() => {
  signOut();
  return cleanup();
});

const user = (roles: string[]) => ({ id: 'u1', name: 'Rene', email: 'r@example.com', roles });

describe('the own-password notice', () => {
  it('tells an operator whose password a manager chose how to set its own, until it does', async () => {
    signIn('token', user(['operator']), false);
    await render(<OwnPasswordNotice />);
    const notice = page.getByRole('status');
    await expect
      .element(notice)
      .toHaveTextContent(
        'Your password was chosen by someone else. Set your own in Profile, Change password: until you do, the manager who chose it cannot sign your inspections.',
      );
    // A change of one's own password answers a new token: the notice goes.
    replaceAccessToken('token-2');
    await expect.element(notice).not.toBeInTheDocument();
  });

  it('tells a signer that it signs nothing until then, and says nothing to anyone else', async () => {
    signIn('token', user(['lc_manager']), false);
    await render(<OwnPasswordNotice />);
    await expect
      .element(page.getByRole('status'))
      .toHaveTextContent(/until you do, you cannot sign inspections\.$/);
    signOut();
    signIn('token', user(['lc_manager']));
    await expect.element(page.getByRole('status')).not.toBeInTheDocument();
  });
});
