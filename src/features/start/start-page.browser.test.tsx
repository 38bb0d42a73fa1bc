import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import StartPage from './start-page.tsx';

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
    [
      ['factory_manager', 'admin'],
      ['Factory Overview /admin', 'Area Management /floorplans'],
    ],
    [['admin'], ['Admin Dashboard /admin']],
    [['audit'], ['Dashboard /user']],
    [['user'], ['Dashboard /user']],
  ])('signed in as %j: quick actions %j and Sign Out', async (roles, actions) => {
    await show(roles);
    await expect.element(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
    expect(actionNames()).toEqual(actions);
  });
});
