// app.css's `.password-input` (the login page's password field and its Show password toggle) at
// WCAG 1.4.10's 320 px: the toggle stays whole and inside the card, under a usable field.
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, render } from '../../tests/web/render.tsx';
import LoginPage from '../features/auth/login-page.tsx';

afterEach(async () => {
  await cleanup();
  await page.viewport(414, 896);
});

async function showLogin() {
  const memory = memoryLocation({ path: '/login' });
  await render(
    <Router hook={memory.hook}>
      <LoginPage />
    </Router>,
  );
  const toggle = page.getByRole('button', { name: 'Show password' });
  await expect.element(toggle).toBeVisible();
  return {
    toggle: toggle.element() as HTMLElement,
    card: document.querySelector('.login-card') as HTMLElement,
    field: page.getByLabelText('Password', { exact: true }).element() as HTMLElement,
  };
}

/** Whether the button's text takes one line (its height is one line box and its padding). */
function oneLine(button: HTMLElement): boolean {
  const style = getComputedStyle(button);
  const padding = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
  const border =
    Number.parseFloat(style.borderTopWidth) + Number.parseFloat(style.borderBottomWidth);
  return button.clientHeight + border - padding < 2 * Number.parseFloat(style.lineHeight);
}

describe('password field with its Show password toggle', () => {
  it('fits a 320 px screen without sideways scrolling, the toggle inside the card', async () => {
    await page.viewport(320, 640);
    const { toggle, card, field } = await showLogin();
    await expect.poll(() => document.documentElement.scrollWidth).toBeLessThanOrEqual(320);
    expect(toggle.getBoundingClientRect().right).toBeLessThanOrEqual(
      card.getBoundingClientRect().right,
    );
    expect(oneLine(toggle)).toBe(true);
    expect(field.getBoundingClientRect().width).toBeGreaterThan(80);
  });

  it('keeps the toggle on one line beside the field on a wide screen', async () => {
    await page.viewport(1280, 900);
    const { toggle, field } = await showLogin();
    expect(oneLine(toggle)).toBe(true);
    expect(toggle.getBoundingClientRect().top).toBe(field.getBoundingClientRect().top);
  });
});
