import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { keyboardShortcuts, setKeyboardShortcuts } from '../../stores/keyboard-shortcuts.ts';
import { signIn, signOut } from '../../stores/session.ts';
import UserGuideDialog from './user-guide-dialog.tsx';

afterEach(async () => {
  await cleanup();
  signOut();
  setKeyboardShortcuts(true);
  await page.viewport(414, 896);
});

describe('User Guide: width', () => {
  it('is 70vw on a wide screen and the screen less its margins on a phone', async () => {
    await page.viewport(1280, 900);
    await render(<UserGuideDialog open onOpenChange={() => {}} />);
    const dialog = page.getByRole('dialog', { name: 'User Guide' });
    await expect.poll(() => dialog.element().getBoundingClientRect().width).toBe(0.7 * 1280);
    await page.viewport(390, 844);
    // 390 px less 2 × 16 px of margin, not 70vw (273 px).
    await expect.poll(() => dialog.element().getBoundingClientRect().width).toBe(358);
  });
});

describe('User Guide: the first topic', () => {
  it.each([
    [['operator'], 'Mobile Operations'],
    [['lc_manager'], 'AI Analysis'],
    [['audit'], 'AI Analysis'],
    [['admin'], 'Floorplan Setup'],
    [['operator', 'factory_manager'], 'Floorplan Setup'],
  ])('opens for %j on %s, their own work', async (roles, topic) => {
    signIn('token', { id: 'u1', name: 'Olga', email: 'o@example.com', roles });
    await render(<UserGuideDialog open onOpenChange={() => {}} />);
    await expect
      .element(page.getByRole('tab', { name: topic }))
      .toHaveAttribute('aria-selected', 'true');
  });
});

describe('User Guide: AI analysis', () => {
  it('lists the keyboard shortcuts of the Video Analysis page', async () => {
    await render(<UserGuideDialog open onOpenChange={() => {}} />);
    await page.getByRole('tab', { name: 'AI Analysis' }).click();
    const table = page.getByRole('table');
    await expect.element(table).toBeVisible();
    const rows = table
      .getByRole('row')
      .elements()
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'KeyWhat it does',
      'SpacePlay or pause the video',
      '←Go to the previous keyframe image (an open keyframe window follows)',
      '→Go to the next keyframe image (an open keyframe window follows)',
      'JJump back 5 seconds',
      'KPause',
      'LPlay; while playing, play faster (up to 2×)',
      '[Slower playback (down to 0.25×)',
      ']Faster playback (up to 2×)',
      'NGo to the next detection and highlight it (an open keyframe window shows it)',
      'PGo to the previous detection and highlight it (an open keyframe window shows it)',
    ]);
  });
});

describe('User Guide: keyboard shortcuts switch (WCAG 2.1.4)', () => {
  it('turns the shortcuts off and on by keyboard, where they are listed, and remembers it', async () => {
    await render(<UserGuideDialog open onOpenChange={() => {}} />);
    await page.getByRole('tab', { name: 'AI Analysis' }).click();
    const toggle = page.getByRole('switch', { name: 'Keyboard shortcuts' });
    await expect.element(toggle).toBeChecked();
    (toggle.element() as HTMLElement).focus();
    await userEvent.keyboard(' ');
    await expect.element(toggle).not.toBeChecked();
    expect(keyboardShortcuts.on).toBe(false);
    expect(localStorage.getItem('keyboardShortcuts')).toBe('off');
    await userEvent.keyboard(' ');
    await expect.element(toggle).toBeChecked();
    expect(keyboardShortcuts.on).toBe(true);
  });
});
