import { afterEach, describe, expect, it } from 'vitest';
import { videoShortcuts } from '../../config/video-shortcuts.ts';
import { keyboardShortcuts, setKeyboardShortcuts } from '../../stores/keyboard-shortcuts.ts';
import {
  type ShortcutKey,
  shortcutAllowed,
  shortcutFor,
  VIDEO_WORKSPACE_SELECTOR,
} from './shortcuts.ts';

afterEach(() => {
  document.body.innerHTML = '';
  setKeyboardShortcuts(true);
});

const press = (key: string, extra: Partial<ShortcutKey> = {}) =>
  shortcutFor({
    key,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    target: document.body,
    defaultPrevented: false,
    ...extra,
  });

function element(html: string): Element {
  document.body.innerHTML = html;
  return document.body.firstElementChild as Element;
}

describe('keyboard shortcuts of the Video Analysis page', () => {
  it('maps each key, letters in either case', () => {
    expect(press(' ')).toBe('togglePlay');
    expect(press('ArrowLeft')).toBe('previousKeyframe');
    expect(press('ArrowRight')).toBe('nextKeyframe');
    expect(press('j')).toBe('back');
    expect(press('K')).toBe('pause');
    expect(press('l')).toBe('play');
    expect(press('[')).toBe('slower');
    expect(press(']')).toBe('faster');
    expect(press('N')).toBe('nextDetection');
    expect(press('p')).toBe('previousDetection');
    expect(press('x')).toBeNull();
  });

  it('binds every key of the table the User Guide lists, each key once', () => {
    const keys = videoShortcuts.flatMap((shortcut) => shortcut.keys);
    expect(new Set(keys).size).toBe(keys.length);
    for (const shortcut of videoShortcuts) {
      for (const key of shortcut.keys) expect(press(key)).toBe(shortcut.action);
    }
  });

  it('leaves browser shortcuts alone but accepts AltGr', () => {
    expect(press('n', { ctrlKey: true })).toBeNull();
    expect(press('n', { metaKey: true })).toBeNull();
    expect(press('n', { altKey: true })).toBeNull();
    expect(press('[', { ctrlKey: true, altKey: true })).toBe('slower');
    expect(press('n', { defaultPrevented: true })).toBeNull();
  });

  it('does nothing while typing in a text field, text area or select', () => {
    for (const html of ['<input type="text">', '<input type="search">', '<textarea></textarea>']) {
      expect(press('j', { target: element(html) })).toBeNull();
    }
    expect(press(' ', { target: element('<select><option>a</option></select>') })).toBeNull();
    expect(press('n', { target: element('<div contenteditable="true">x</div>') })).toBeNull();
  });

  it('leaves Space to buttons and arrows to sliders, but takes the other keys there', () => {
    const button = element('<button type="button">Open</button>');
    expect(press(' ', { target: button })).toBeNull();
    expect(press('ArrowRight', { target: button })).toBe('nextKeyframe');
    const slider = element('<input type="range">');
    expect(press('ArrowLeft', { target: slider })).toBeNull();
    expect(press('n', { target: slider })).toBe('nextDetection');
    const video = element('<video controls></video>');
    expect(press(' ', { target: video })).toBeNull();
    expect(press('l', { target: video })).toBe('play');
  });

  it('does nothing inside an open popover (calendar arrows, multi-select type-ahead)', () => {
    const option = element(
      '<div data-radix-popper-content-wrapper><input type="checkbox"></div>',
    ).querySelector('input');
    expect(press('n', { target: option })).toBeNull();
  });
});

describe('where the shortcuts act (WCAG 2.1.4)', () => {
  const allowed = (target: Element) => shortcutAllowed(target, VIDEO_WORKSPACE_SELECTOR);

  it('inside the workspace or on no control, never from a link or button elsewhere', () => {
    document.body.innerHTML = `
      <h1 tabindex="-1">Video Analysis</h1>
      <a href="/report.pdf">Download PDF</a>
      <div class="va-main"><button type="button">Play</button></div>
      <aside class="va-right"><button type="button">8.250 s</button></aside>`;
    const [heading, link, play, item] = ['h1', 'a', '.va-main button', '.va-right button'].map(
      (selector) => document.querySelector(selector) as Element,
    );
    expect(allowed(document.body)).toBe(true);
    expect(allowed(heading as Element)).toBe(true);
    expect(allowed(link as Element)).toBe(false);
    expect(allowed(play as Element)).toBe(true);
    expect(allowed(item as Element)).toBe(true);
  });

  it('nowhere once the user turned them off', () => {
    setKeyboardShortcuts(false);
    expect(keyboardShortcuts.on).toBe(false);
    expect(allowed(document.body)).toBe(false);
    expect(allowed(element('<div class="va-main"><button>Play</button></div>'))).toBe(false);
  });
});
