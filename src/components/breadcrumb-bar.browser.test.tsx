import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, render } from '../../tests/web/render.tsx';
import { signIn, signOut } from '../stores/session.ts';
import { BreadcrumbBar, backTargetFor, currentPageLabel } from './breadcrumb-bar.tsx';

afterEach(async () => {
  await cleanup();
  signOut();
});

describe('back button by primary role (spec §2)', () => {
  it.each([
    [['operator'], '/operator', 'Operator Dashboard'],
    [['lc_manager'], '/lc-manager', 'Line Clearance Manager Dashboard'],
    [['factory_manager'], '/factory-manager', 'Factory Manager Dashboard'],
    [['audit'], '/audit', 'Audit Dashboard'],
    [['admin'], '/admin', 'Admin Dashboard'],
    [[], '/admin', 'Admin Dashboard'],
    [['manager', 'user'], '/admin', 'Admin Dashboard'],
  ])('%j goes to %s (%s)', (roles, path, label) => {
    expect(backTargetFor(roles)).toEqual({ path, label });
  });

  it('follows the primary-role precedence for several roles', () => {
    expect(backTargetFor(['admin', 'audit', 'operator'])).toEqual({
      path: '/operator',
      label: 'Operator Dashboard',
    });
    expect(backTargetFor(['admin', 'factory_manager']).path).toBe('/factory-manager');
  });
});

describe('current-page label by path (spec §2)', () => {
  it.each([
    ['/floorplans', 'Floorplan Manager'],
    ['/video', 'Video Library'],
    ['/video/aaaa00000000000000000001', 'Video Library'],
    ['/reports', 'Reports'],
    ['/analysis', 'Analysis'],
    ['/user', 'User Management'],
    ['/inspection-report/d00000000000000000000001', 'Inspection Report'],
    ['/videos', 'Current Page'],
    ['/users', 'Current Page'],
    ['/admin', 'Current Page'],
  ])('%s reads %s', (path, label) => {
    expect(currentPageLabel(path)).toBe(label);
  });
});

describe('BreadcrumbBar', () => {
  it('shows the page label and takes the user back to their dashboard', async () => {
    signIn('token', { id: 'u1', name: 'Helen Park', email: 'a@example.com', roles: ['audit'] });
    const memory = memoryLocation({ path: '/video/abc', record: true });
    await render(
      <Router hook={memory.hook}>
        <BreadcrumbBar />
      </Router>,
    );
    await expect.element(page.getByText('Video Library')).toBeVisible();
    await page.getByRole('button', { name: 'Back to Audit Dashboard' }).click();
    expect(memory.history.at(-1)).toBe('/audit');
  });
});
