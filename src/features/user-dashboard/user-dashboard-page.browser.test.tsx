import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import UserDashboardPage from './user-dashboard-page.tsx';

afterEach(async () => {
  await cleanup();
  signOut();
});

async function show(roles: string[]) {
  signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles });
  await render(
    <Router hook={memoryLocation({ path: '/user' }).hook}>
      <UserDashboardPage />
    </Router>,
  );
}

describe('/user', () => {
  it('enables View Floorplans only for admins', async () => {
    await show(['admin']);
    await expect
      .element(page.getByRole('link', { name: 'Watch Videos' }))
      .toHaveAttribute('href', '/video');
    await expect.element(page.getByRole('button', { name: 'View Floorplans' })).toBeEnabled();
    expect(page.getByText('Admin access required').query()).toBeNull();
  });

  it('tells everyone else admin access is required', async () => {
    await show(['lc_manager']);
    await expect.element(page.getByRole('button', { name: 'View Floorplans' })).toBeDisabled();
    await expect.element(page.getByText('Admin access required')).toBeVisible();
  });

  it('has the breadcrumb bar: back to the dashboard, and User Management (spec §2)', async () => {
    await show(['operator']);
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect
      .element(breadcrumb.getByRole('button', { name: 'Back to Operator Dashboard' }))
      .toBeVisible();
    await expect.element(breadcrumb.getByText('User Management')).toBeVisible();
  });
});
