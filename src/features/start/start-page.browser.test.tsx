import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { paths, routeRoles } from '../../config/paths.ts';
import { roles as allRoles } from '../../lib/roles.ts';
import { signIn, signOut } from '../../stores/session.ts';
import StartPage from './start-page.tsx';
import { mainActionByRole } from './strings.ts';

afterEach(async () => {
  await cleanup();
  signOut();
});

async function show(roles: string[] | null) {
  if (roles) signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles });
  await render(
    <Router hook={memoryLocation({ path: '/' }).hook}>
      <StartPage />
    </Router>,
  );
}

const actionNames = () =>
  page
    .getByRole('region', { name: 'Quick Actions' })
    .getByRole('link')
    .all()
    .map((link) => `${link.element().textContent} ${link.element().getAttribute('href')}`);

describe('start page', () => {
  it('signed out: Ready to Begin? and the six features', async () => {
    await show(null);
    await expect.element(page.getByRole('heading', { name: 'Ready to Begin?' })).toBeVisible();
    for (const name of [
      'Video Recording',
      'QR Code Scanning',
      'AI Analysis',
      'Reports',
      'Video Library',
      'Quick Search',
    ]) {
      await expect.element(page.getByRole('heading', { name, exact: true })).toBeVisible();
    }
  });

  it.each([
    [['operator'], ['Start Inspection /operator', 'Recent Inspections /analysis']],
    [['lc_manager'], ['Review Reports /reports', 'Area Management /floorplans']],
    // Not /admin, which the route table keeps a factory manager out of: the same page.
    [['factory_manager'], ['Factory Overview /factory-manager', 'Area Management /floorplans']],
    [
      ['factory_manager', 'admin'],
      ['Factory Overview /factory-manager', 'Area Management /floorplans'],
    ],
    [['admin'], ['Admin Dashboard /admin']],
    // Not /user, which the route table keeps auditors out of: their own dashboard.
    [['audit'], ['Dashboard /audit']],
    [['user'], ['Dashboard /user']],
  ])('signed in as %j: quick actions %j and Sign Out', async (roles, actions) => {
    await show(roles);
    await expect.element(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
    expect(actionNames()).toEqual(actions);
  });

  it('gives each role a main action to a page the route table lets that role enter', () => {
    const rolesOf = (href: string) => {
      const key = Object.keys(routeRoles).find(
        (name) => paths[name as keyof typeof paths] === href,
      );
      return key ? routeRoles[key as keyof typeof routeRoles] : [];
    };
    for (const role of allRoles) {
      const { label, href } = mainActionByRole[role];
      expect(rolesOf(href), `${role}: ${label} ${href}`).toContain(role);
    }
  });
});
