import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { cleanup, render } from '../../tests/web/render.tsx';
import { UserText } from './user-text.tsx';
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
});
