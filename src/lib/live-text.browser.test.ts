import { describe, expect, it } from 'vitest';
import { setLiveText } from './live-text.ts';

describe('setLiveText', () => {
  it('fills an empty element, then rewrites the same text node', () => {
    const element = document.createElement('output');
    setLiveText(element, '1.00 s');
    const node = element.firstChild;
    expect(element.textContent).toBe('1.00 s');
    setLiveText(element, '1.25 s');
    expect(element.textContent).toBe('1.25 s');
    expect(element.firstChild).toBe(node);
    expect(element.childNodes).toHaveLength(1);
  });

  it('replaces other content with the text', () => {
    const element = document.createElement('p');
    element.innerHTML = '<b>old</b> text';
    setLiveText(element, 'new');
    expect(element.innerHTML).toBe('new');
  });
});
