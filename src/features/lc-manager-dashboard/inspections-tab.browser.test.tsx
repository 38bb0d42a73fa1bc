import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { inspectionFixture } from '../../../tests/web/my-inspection-fixture.ts';
import { cleanup, render } from '../../../tests/web/render.tsx';
import type { ListedInspection } from '../../types/api.ts';
import { InspectionsTab } from './inspections-tab.tsx';

const now = new Date('2026-03-10T22:00:00Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

/** A pending inspection on Blister Line 1, received by the server `minutes` ago. */
const pending = (n: number, minutes: number): ListedInspection => ({
  ...inspectionFixture(`d0000000000000000000000${n}`, {
    lineClearanceId: 'c00000000000000000000001',
    startTime: minutesAgo(minutes + 10),
    endTime: minutesAgo(minutes + 5),
    receivedAt: minutesAgo(minutes),
  }),
  approvalBlocker: null,
  signBlocker: null,
});

function renderTab(inspections: ListedInspection[]) {
  return render(
    <InspectionsTab
      inspections={inspections}
      loading={false}
      lineName={() => 'Blister Line 1'}
      operatorName={() => 'Priya Nair'}
      reload={() => {}}
    />,
  );
}

const card = (n: number) =>
  page.getByRole('article').filter({ hasText: `d0000000000000000000000${n}` });

// Only the interval and the clock: the page's other timers (Radix, polling) run as in the app.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(now);
});

afterEach(async () => {
  vi.useRealTimers();
  await cleanup();
});

describe('the Inspections tab left open', () => {
  it('follows the clock: a card waiting 23 hours becomes overdue without a reload', async () => {
    // Received 23 h 59 min ago: not yet a day, not yet overdue.
    await renderTab([pending(1, 24 * 60 - 1), pending(2, 30)]);
    await expect.element(card(1).getByText('23 hours')).toBeVisible();
    expect(card(1).getByText('Overdue (over 24 h)').query()).toBeNull();
    await expect.element(card(2).getByText('30 minutes')).toBeVisible();

    await vi.advanceTimersByTimeAsync(2 * 60_000);
    await expect.element(card(1).getByText('1 day', { exact: true })).toBeVisible();
    await expect.element(card(1).getByText('Overdue (over 24 h)')).toBeVisible();
    await expect.element(card(2).getByText('32 minutes')).toBeVisible();
  });

  it('runs one timer for all its cards, stopped when the tab goes', async () => {
    await renderTab([pending(1, 10), pending(2, 20), pending(3, 30)]);
    await expect.element(card(3).getByText('30 minutes')).toBeVisible();
    expect(vi.getTimerCount()).toBe(1);
    await cleanup();
    expect(vi.getTimerCount()).toBe(0);
  });
});
