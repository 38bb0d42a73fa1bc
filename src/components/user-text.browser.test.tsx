import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../tests/web/render.tsx';
import { ClampedUserText, UserText } from './user-text.tsx';
import '../styles/app.css';

afterEach(cleanup);

describe('UserText', () => {
  it('shows each typed line on its own line, in its own direction', async () => {
    await render(
      <p>
        <UserText text={'Krok 1: linia czysta\r\nשורה בעברית\nKrok 3'} />
      </p>,
    );
    await expect.element(page.getByText('Krok 3')).toBeVisible();
    const lines = [...document.querySelectorAll('.user-text-line')];
    expect(lines.map((line) => line.textContent)).toEqual([
      'Krok 1: linia czysta',
      'שורה בעברית',
      'Krok 3',
    ]);
    expect(lines.every((line) => line.getAttribute('dir') === 'auto')).toBe(true);
    const tops = lines.map((line) => line.getBoundingClientRect().top);
    expect(tops[1]).toBeGreaterThan(tops[0] ?? 0);
    expect(tops[2]).toBeGreaterThan(tops[1] ?? 0);
    // The Hebrew line runs right to left by itself.
    expect(getComputedStyle(lines[1] as Element).direction).toBe('rtl');
  });

  it('keeps a blank line as tall as a line of text, as the PDF prints it', async () => {
    await render(
      <p>
        <UserText text={'Paragraph one\n\nParagraph two'} />
      </p>,
    );
    await expect.element(page.getByText('Paragraph two')).toBeVisible();
    const [first, blank, last] = [...document.querySelectorAll('.user-text-line')].map((line) =>
      line.getBoundingClientRect(),
    );
    expect(blank?.height).toBeCloseTo(first?.height ?? 0, 0);
    expect((last?.top ?? 0) - (first?.top ?? 0)).toBeCloseTo(2 * (first?.height ?? 0), 0);
  });
});

describe('ClampedUserText', () => {
  const steps = Array.from({ length: 30 }, (_, i) => `Step ${i + 1}: wipe the hopper`).join('\n');

  it('cuts a long text to four lines, and shows it all and back with one button', async () => {
    await render(
      <div style={{ width: '300px' }}>
        <ClampedUserText text={steps} about="Description of Line 1" empty="No description" />
      </div>,
    );
    const more = page.getByRole('button', { name: 'Show all: Description of Line 1' });
    await expect.element(more).toHaveAttribute('aria-expanded', 'false');
    const box = document.getElementById(more.element().getAttribute('aria-controls') ?? '');
    if (!box) throw new Error('the button controls no text');
    const lineHeight = Number.parseFloat(getComputedStyle(box).lineHeight);
    expect(box.getBoundingClientRect().height).toBeLessThanOrEqual(lineHeight * 4 + 1);
    await userEvent.click(more);
    const less = page.getByRole('button', { name: 'Show less: Description of Line 1' });
    await expect.element(less).toHaveAttribute('aria-expanded', 'true');
    expect(box.getBoundingClientRect().height).toBeGreaterThan(lineHeight * 29);
    await userEvent.click(less);
    await expect.element(more).toBeVisible();
    expect(box.getBoundingClientRect().height).toBeLessThanOrEqual(lineHeight * 4 + 1);
  });

  it('offers Show all for a long text that arrives after the card was drawn without one', async () => {
    function Card() {
      const [text, setText] = useState<string | null>(null);
      return (
        <div style={{ width: '300px' }}>
          <button type="button" onClick={() => setText(steps)}>
            Reload
          </button>
          <ClampedUserText text={text} about="Description of Line 1" empty="No description" />
        </div>
      );
    }
    await render(<Card />);
    await expect.element(page.getByText('No description')).toBeVisible();
    await userEvent.click(page.getByRole('button', { name: 'Reload' }));
    await expect
      .element(page.getByRole('button', { name: 'Show all: Description of Line 1' }))
      .toBeVisible();
  });

  it('shows a short text whole, without a button; none as its empty words', async () => {
    await render(
      <ClampedUserText text={'Hall 7\nnear the door'} about="Description of Line 1" empty="—" />,
    );
    await expect.element(page.getByText('near the door')).toBeVisible();
    expect(page.getByRole('button').query()).toBeNull();
    await cleanup();
    await render(
      <ClampedUserText text={null} about="Description of Line 1" empty="No description" />,
    );
    await expect.element(page.getByText('No description')).toBeVisible();
  });
});
