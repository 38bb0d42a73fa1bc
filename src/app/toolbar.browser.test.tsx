import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Locator, page, userEvent } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, fakeFetch, render } from '../../tests/web/render.tsx';
import { accessTokenKey, session, signIn, signOut } from '../stores/session.ts';
import { Toolbar } from './toolbar.tsx';

afterEach(async () => {
  await cleanup();
  signOut();
  vi.unstubAllGlobals();
});

async function showToolbar(path = '/admin') {
  const memory = memoryLocation({ path, record: true });
  await render(
    <Router hook={memory.hook}>
      <Toolbar />
    </Router>,
  );
  return () => memory.history.at(-1);
}

describe('top toolbar', () => {
  it('signed out: logo to / and Sign In to /login', async () => {
    await showToolbar('/');
    await expect
      .element(page.getByRole('link', { name: 'Sign In' }))
      .toHaveAttribute('href', '/login');
    await expect
      .element(page.getByRole('link', { name: 'LC Line Clearance: start page', exact: true }))
      .toHaveAttribute('href', '/');
    expect(page.getByRole('button', { name: 'User Guide' }).query()).toBeNull();
  });

  it('signed in as admin: User Guide, Admin Panel, initials and the account menu', async () => {
    signIn('token', {
      id: 'u1',
      name: 'Adriana Maria Novak',
      email: 'a@example.com',
      roles: ['admin'],
    });
    await showToolbar();
    await expect.element(page.getByRole('button', { name: 'User Guide' })).toBeVisible();
    await expect
      .element(page.getByRole('link', { name: 'Admin Panel' }))
      .toHaveAttribute('href', '/admin');
    await expect.element(page.getByText('AM', { exact: true })).toBeVisible();
    await userEvent.click(
      page.getByRole('button', { name: 'AM Adriana Maria Novak: account menu', exact: true }),
    );
    await expect.element(page.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
    await expect.element(page.getByRole('menuitem', { name: 'Log out' })).toBeVisible();
  });

  it('has no Admin Panel for other roles', async () => {
    signIn('token', { id: 'u1', name: 'Sofia', email: 's@example.com', roles: ['lc_manager'] });
    await showToolbar('/lc-manager');
    await expect.element(page.getByText('S', { exact: true })).toBeVisible();
    expect(page.getByRole('link', { name: 'Admin Panel' }).query()).toBeNull();
  });

  it('logs out to /, ending the server session with its token', async () => {
    const { fetchImpl, calls } = fakeFetch({
      'POST /api/logout': { body: { message: 'Logged out' } },
    });
    const sentTokens: (string | undefined)[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      sentTokens.push((init?.headers as Record<string, string> | undefined)?.Authorization);
      return fetchImpl(input, init);
    });
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'p@example.com', roles: ['operator'] });
    const location = await showToolbar('/operator');
    await userEvent.click(page.getByRole('button', { name: 'Pat Doe: account menu' }));
    await userEvent.click(page.getByRole('menuitem', { name: 'Log out' }));
    await expect.poll(() => location()).toBe('/');
    expect(session.loggedIn).toBe(false);
    expect(localStorage.getItem(accessTokenKey)).toBeNull();
    await expect.poll(() => calls).toEqual(['POST /api/logout']);
    // The server revokes the session of the token it is sent.
    expect(sentTokens).toEqual(['Bearer token']);
  });
});

describe('top toolbar on a phone', () => {
  afterEach(async () => {
    await page.viewport(414, 896);
  });

  /** The admin's toolbar at `width`: the logo's box and the boxes of the four actions. */
  async function adminToolbarAt(width: number) {
    await page.viewport(width, 844);
    signIn('token', { id: 'u1', name: 'Adriana Novak', email: 'a@example.com', roles: ['admin'] });
    await showToolbar();
    const account = page.getByRole('button', {
      name: 'AN Adriana Novak: account menu',
      exact: true,
    });
    await expect.element(account).toBeVisible();
    const box = (locator: Locator) => locator.element().getBoundingClientRect();
    return {
      logo: box(page.getByRole('link', { name: 'LC Line Clearance: start page', exact: true })),
      theme: box(page.getByRole('button', { name: /^Switch to (dark|light) colours$/ })),
      guide: box(page.getByRole('button', { name: 'User Guide' })),
      adminPanel: box(page.getByRole('link', { name: 'Admin Panel' })),
      account: box(account),
    };
  }

  const centre = (box: DOMRect) => box.top + box.height / 2;

  it.each([390, 360])('keeps an admin’s toolbar on one tidy row at %i px', async (width) => {
    const { logo, theme, guide, adminPanel, account } = await adminToolbarAt(width);
    // Text buttons are 2.25rem high; a wrapped label would make one about 3.5rem.
    expect(guide.height).toBeLessThan(44);
    expect(adminPanel.height).toBeLessThan(44);
    for (const box of [theme, guide, adminPanel, account]) {
      expect(Math.abs(centre(box) - centre(logo))).toBeLessThanOrEqual(1);
      expect(box.right).toBeLessThanOrEqual(width);
    }
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(width);
  });

  it('cuts a very long name with an ellipsis at 1280 px; the menu button still says it whole', async () => {
    await page.viewport(1280, 844);
    const name = `Maria ${'Konstantinopoulou-'.repeat(11)}Papadopoulou`;
    signIn('token', { id: 'u1', name, email: 'm@example.com', roles: ['operator'] });
    await showToolbar('/operator');
    const account = page.getByRole('button', { name: `MK ${name}: account menu`, exact: true });
    await expect.element(account).toBeVisible();
    expect(account.element().getBoundingClientRect().right).toBeLessThanOrEqual(1280);
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(1280);
  });

  it('at 320 px puts the actions on one row of their own below the logo', async () => {
    const { theme, guide, adminPanel, account } = await adminToolbarAt(320);
    expect(guide.height).toBeLessThan(44);
    expect(adminPanel.height).toBeLessThan(44);
    for (const box of [guide, adminPanel, account]) {
      expect(Math.abs(centre(box) - centre(theme))).toBeLessThanOrEqual(1);
      expect(box.right).toBeLessThanOrEqual(320);
    }
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(320);
  });
});

describe('the sticky toolbar', () => {
  it.each([1280, 390, 320])(
    'at %i px, a control Tab reaches under the sticky toolbar scrolls out from under it',
    async (width) => {
      signIn('token', {
        id: 'u1',
        name: 'Adriana Maria Novak',
        email: 'a@x.com',
        roles: ['admin'],
      });
      await page.viewport(width, 800);
      await render(
        <Router hook={memoryLocation({ path: '/admin' }).hook}>
          <Toolbar />
          <div style={{ height: '1500px' }} />
          <button type="button">Before</button>
          <button type="button">Hidden</button>
          <div style={{ height: '3000px' }} />
        </Router>,
      );
      // render() may answer before React has committed on a busy machine: wait for the page.
      await expect.element(page.getByRole('button', { name: 'Hidden' })).toBeInTheDocument();
      const toolbar = document.querySelector('.toolbar') as HTMLElement;
      const before = page.getByRole('button', { name: 'Before' }).element() as HTMLElement;
      const hidden = page.getByRole('button', { name: 'Hidden' }).element() as HTMLElement;
      before.focus();
      // 'Hidden' just under the toolbar, inside the window: the browser saw no need to scroll.
      window.scrollBy(0, hidden.getBoundingClientRect().top - 10);
      expect(hidden.getBoundingClientRect().top).toBeLessThan(
        toolbar.getBoundingClientRect().bottom,
      );
      await userEvent.keyboard('{Tab}');
      expect(document.activeElement).toBe(hidden);
      expect(hidden.getBoundingClientRect().top).toBeGreaterThanOrEqual(
        toolbar.getBoundingClientRect().bottom,
      );
    },
  );
});
