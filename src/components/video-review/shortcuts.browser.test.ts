import { afterEach, describe, expect, it } from 'vitest';
import { videoShortcuts } from '../../config/video-shortcuts.ts';
import { type ShortcutKey, shortcutFor } from './shortcuts.ts';

afterEach(() => {
  document.body.innerHTML = '';
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
