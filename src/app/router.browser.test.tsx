import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { navigate } from 'wouter/use-browser-location';
import { cleanup, render } from '../../tests/web/render.tsx';
import { AppRoutes } from './router.tsx';

// The test page's own address, given back when done.
const testPage = window.location.href;
afterEach(async () => {
  await cleanup();
  history.replaceState(null, '', testPage);
});

describe('each route’s page (browser history, as in the app)', () => {
  it('names the page in the title; moving to another page focuses its heading, not the first', async () => {
    // Opened at /: the redirects of an opening replace the entry and do not count as a move.
    history.replaceState(null, '', '/');
    await render(
      <Suspense fallback={<p>Loading…</p>}>
        <AppRoutes />
      </Suspense>,
    );
    const start = page.getByRole('heading', { level: 1, name: 'Line Clearance Inspection System' });
    await expect.element(start).toBeVisible();
    await expect.poll(() => document.title).toBe('Start page – Line Clearance');
    expect(document.activeElement).toBe(document.body);

    navigate('/no-such-page');
    const notFound = page.getByRole('heading', { level: 1, name: 'Page not found' });
    await expect.element(notFound).toHaveFocus();
    await expect.poll(() => document.title).toBe('Not found – Line Clearance');

    // The login page names itself but starts in its Email field.
    navigate('/login');
    await expect.element(page.getByLabelText('Email')).toHaveFocus();
    await expect.poll(() => document.title).toBe('Sign In – Line Clearance');

    // Back counts as a move too.
    history.back();
    await expect.element(notFound).toHaveFocus();
  });
});
