import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../tests/web/render.tsx';
import { App } from './app.tsx';

// The test page's own address, given back when done.
const testPage = window.location.href;
afterEach(async () => {
  await cleanup();
  history.replaceState(null, '', testPage);
});

describe('the app shell', () => {
  it('moves the focus to the page with Skip to content, without outlining the whole page', async () => {
    history.replaceState(null, '', '/no-such-page');
    await render(<App />);
    await expect
      .element(page.getByRole('heading', { level: 1, name: 'Page not found' }))
      .toBeVisible();
    await userEvent.keyboard('{Tab}');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect.element(skip).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    const main = page.getByRole('main');
    await expect.element(main).toHaveFocus();
    expect(getComputedStyle(main.element()).outlineStyle).toBe('none');
    // The next Tab goes on from there, into the page.
    await userEvent.keyboard('{Tab}');
    await expect.element(page.getByRole('link', { name: 'Go to the start page' })).toHaveFocus();
  });
});
