import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, render } from '../../tests/web/render.tsx';
import { signIn, signOut } from '../stores/session.ts';
import { useDashboardTab } from './use-dashboard-tab.ts';

const tabs = ['lines', 'users'] as const;

function Tabs() {
  const [tab, choose] = useDashboardTab(tabs, 'lines');
  return (
    <>
      <p>Open: {tab}</p>
      <button type="button" onClick={() => choose('users')}>
        Users
      </button>
    </>
  );
}

const showAs = async (id: string) => {
  signIn('token', { id, name: id, email: `${id}@example.com`, roles: ['admin'] });
  const memory = memoryLocation({ path: '/admin' });
  await render(
    <Router hook={memory.hook} searchHook={memory.searchHook}>
      <Tabs />
    </Router>,
  );
};

afterEach(async () => {
  await cleanup();
  signOut();
  sessionStorage.clear();
});

describe('a dashboard’s remembered tab', () => {
  it('is the user’s own: the next user of a shared terminal opens on the first tab', async () => {
    await showAs('factory');
    await userEvent.click(page.getByRole('button', { name: 'Users' }));
    await expect.element(page.getByText('Open: users')).toBeVisible();
    await cleanup();
    signOut();
    await showAs('admin');
    await expect.element(page.getByText('Open: lines')).toBeVisible();
    await cleanup();
    signOut();
    // The first user, back in this browser tab, finds its tab again.
    await showAs('factory');
    await expect.element(page.getByText('Open: users')).toBeVisible();
  });
});
