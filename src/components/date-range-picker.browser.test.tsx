import { format } from 'date-fns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../tests/web/render.tsx';
import type { DateRange } from '../lib/date-range.ts';
import { DateRangePicker } from './date-range-picker.tsx';

afterEach(cleanup);

describe('DateRangePicker', () => {
  it('picks two days and reports whole days ending 23:59:59.999', async () => {
    const picked: DateRange[] = [];
    await render(
      <DateRangePicker
        value={{ start: new Date(2026, 4, 1), end: new Date(2026, 4, 1, 23, 59, 59, 999) }}
        onChange={(range) => picked.push(range)}
        placeholder="Filter by date range"
      />,
    );
    // Named by what it filters, and the range it holds (shown as its text).
    await userEvent.click(
      page.getByRole('button', {
        name: 'Filter by date range: May 1, 2026 – May 1, 2026',
        exact: true,
      }),
    );
    await userEvent.click(page.getByRole('button', { name: 'Friday, May 15, 2026' }));
    await expect.element(page.getByText('Pick the last day')).toBeInTheDocument();
    // The keyboard works too: from the 15th, a week up and three days left is the 5th.
    await userEvent.keyboard('{ArrowUp}{ArrowLeft}{ArrowLeft}{ArrowLeft}');
    await expect.element(page.getByRole('button', { name: 'Tuesday, May 5, 2026' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(picked).toEqual([
      { start: new Date(2026, 4, 5, 0, 0, 0, 0), end: new Date(2026, 4, 15, 23, 59, 59, 999) },
    ]);
  });

  it('shows the times of a range that does not cover whole days here (a link from another zone)', async () => {
    await render(
      <DateRangePicker
        value={{
          start: new Date(2026, 10, 18, 21, 30),
          end: new Date(2026, 10, 19, 20, 59, 59, 999),
        }}
        onChange={() => {}}
        placeholder="Filter by date range"
      />,
    );
    await expect
      .element(page.getByRole('button', { name: /^Filter by date range: / }))
      .toHaveTextContent('Nov 18, 2026 21:30 – Nov 19, 2026 20:59');
  });

  it('starts the week where the browser’s locale does: Monday in Germany, Sunday in the US', async () => {
    const language = vi.spyOn(navigator, 'language', 'get');
    const weekdays = () =>
      [...document.querySelectorAll('.calendar-weekday')].map((day) => day.textContent);
    for (const [locale, first] of [
      ['de-DE', 'Mo'],
      ['en-US', 'Su'],
    ] as const) {
      language.mockReturnValue(locale);
      await render(
        <DateRangePicker value={null} onChange={() => {}} placeholder="Filter by date range" />,
      );
      await userEvent.click(page.getByRole('button', { name: 'Filter by date range' }));
      await expect.poll(weekdays).toHaveLength(7);
      expect(weekdays()[0]).toBe(first);
      await cleanup();
    }
    language.mockRestore();
  });

  it('shows the placeholder when no range is set', async () => {
    await render(
      <DateRangePicker value={null} onChange={() => {}} placeholder="Filter by date range" />,
    );
    const trigger = page.getByRole('button', { name: 'Filter by date range' });
    await expect.element(trigger).toBeVisible();
    await userEvent.click(trigger);
    await expect.element(page.getByRole('button', { name: 'Previous month' })).toBeVisible();
    expect(document.querySelectorAll('[aria-pressed="true"]')).toHaveLength(0);
  });

  it('shows a label beside other filters, whose words are in the name a screen reader says', async () => {
    await render(
      <DateRangePicker
        value={null}
        onChange={() => {}}
        placeholder="Filter by date range"
        label="Date range"
      />,
    );
    const label = page.getByText('Date range', { exact: true });
    await expect.element(label).toBeVisible();
    await expect.element(label).toHaveAttribute('aria-hidden', 'true');
    const trigger = page.getByRole('button', { name: 'Filter by date range' });
    await expect.element(trigger).toBeVisible();
    // WCAG 2.5.3 (label in name): the visible words are part of the spoken name.
    expect(trigger.element().getAttribute('aria-label')?.toLowerCase()).toContain('date range');
  });

  it('opens as a dialog named by what it filters, and says the next pick politely', async () => {
    await render(
      <DateRangePicker value={null} onChange={() => {}} placeholder="Filter by date range" />,
    );
    await userEvent.click(page.getByRole('button', { name: 'Filter by date range' }));
    await expect.element(page.getByRole('dialog', { name: 'Filter by date range' })).toBeVisible();
    const hint = page.getByText('Pick the first day');
    await expect.element(hint).toHaveAttribute('aria-live', 'polite');
    const region = hint.element();
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => region.textContent).toBe('Pick the last day');
  });
});

describe('DateRangePicker by keyboard', () => {
  const dayTabStops = () =>
    [...document.querySelectorAll('.calendar-day')].filter(
      (day) => (day as HTMLElement).tabIndex === 0,
    );

  it('opens on the range’s first day; the day grid is one Tab stop, arrows go on into April', async () => {
    await render(
      <DateRangePicker
        value={{ start: new Date(2026, 4, 1), end: new Date(2026, 4, 3, 23, 59, 59, 999) }}
        onChange={() => {}}
        placeholder="Filter by date range"
      />,
    );
    const trigger = page.getByRole('button', { name: /^Filter by date range/ });
    await expect.element(trigger).toBeVisible();
    (trigger.element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    const first = page.getByRole('button', { name: 'Friday, May 1, 2026' });
    await expect.element(first).toHaveFocus();
    expect(dayTabStops()).toEqual([first.element()]);
    // One Tab stop: back to Next month, and forward again straight to the day.
    await userEvent.keyboard('{Shift>}{Tab}{/Shift}');
    await expect.element(page.getByRole('button', { name: 'Next month' })).toHaveFocus();
    await userEvent.keyboard('{Tab}');
    await expect.element(first).toHaveFocus();

    await userEvent.keyboard('{ArrowLeft}');
    const april = page.getByRole('button', { name: 'Thursday, April 30, 2026' });
    await expect.element(april).toHaveFocus();
    expect(document.querySelector('.calendar-month')?.textContent).toBe('April 2026');
    expect(dayTabStops()).toEqual([april.element()]);
  });

  it('opens on today without a range', async () => {
    await render(
      <DateRangePicker value={null} onChange={() => {}} placeholder="Filter by date range" />,
    );
    await userEvent.click(page.getByRole('button', { name: 'Filter by date range' }));
    await expect
      .element(page.getByRole('button', { name: format(new Date(), 'EEEE, MMMM d, yyyy') }))
      .toHaveFocus();
    expect(dayTabStops()).toHaveLength(1);
  });
});
