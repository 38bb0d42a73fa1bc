import { format } from 'date-fns';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { activeLine } from '../../../tests/web/line-fixture.ts';
import { LONGWORD, within } from '../../../tests/web/long-text.ts';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { videoIdOf } from '../../lib/video.ts';
import type { Video } from '../../types/api.ts';
import type { VideoFilters } from './api/get-videos.ts';
import { noFilters, VideoTimeline } from './video-timeline.tsx';
import '../../components/video-review/video-review.css';

// Each card draws one status tag: counting the tags drawn counts the cards drawn.
const tags = vi.hoisted(() => ({ renders: 0 }));
vi.mock('../../components/tag.tsx', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../components/tag.tsx')>();
  return {
    ...original,
    StatusTag: (props: { status: string }) => {
      tags.renders++;
      return original.StatusTag(props);
    },
  };
});

afterEach(cleanup);

/** 5000 videos, one an hour from 2026-01-01, in no particular order (the timeline sorts them). */
const videos = Array.from({ length: 5000 }, (_, index) => {
  const hour = (index * 7919) % 5000;
  const id = hour.toString(16).padStart(24, '0');
  return {
    _id: id,
    id,
    filename: `${id}.mp4`,
    timestamp: new Date(Date.UTC(2026, 0, 1) + hour * 3_600_000).toISOString(),
    userId: null,
    operatorId: null,
    deviceId: null,
    lineClearanceId: null,
    path: { video: `/api/videos/${id}.mp4`, keyframesData: `/api/keyframes/${id}.txt` },
    status: 'completed',
    size: 1000,
    duration: 40,
  } as unknown as Video;
});
/** The id of the video at `hour` hours after 2026-01-01 (newest first: hour 4999 is shown first). */
const idAt = (hour: number) => hour.toString(16).padStart(24, '0');

/** The timeline with the page's part: the selection and the filters in state. */
function Timeline({ initialId = null }: { initialId?: string | null }) {
  const [selectedId, setSelectedId] = useState<string | null>(initialId);
  const [filters, setFilters] = useState<VideoFilters>(noFilters);
  return (
    <VideoTimeline
      videos={videos}
      loading={false}
      users={[]}
      lineClearances={[]}
      filters={filters}
      onFiltersChange={setFilters}
      selectedId={selectedId}
      onSelect={(video) => setSelectedId(videoIdOf(video))}
    />
  );
}

const cards = () => document.querySelectorAll('.va-video-card');
/** The day of the video `hour` hours after 2026-01-01 (as shown: local day, UTC in these tests). */
const times = (hour: number) =>
  new RegExp(`^${new Date(Date.UTC(2026, 0, 1) + hour * 3_600_000).toISOString().slice(0, 10)}`);

describe('Video timeline with a plant’s list', () => {
  it('draws one page of cards, says how many in all and pages', async () => {
    await render(<Timeline />);
    // 20,006 entries drawn at once took 9.7 s and 160,000 DOM elements.
    await expect.element(page.getByText('1–50 of 5000 videos · Page 1 of 100')).toBeVisible();
    expect(cards()).toHaveLength(50);
    const elements = document.body.querySelectorAll('*').length;
    console.info(`Video timeline, 5000 videos: ${elements} DOM elements`);
    expect(elements).toBeLessThan(1000);
    await userEvent.click(page.getByRole('button', { name: 'Next page' }));
    await expect.element(page.getByText('51–100 of 5000 videos · Page 2 of 100')).toBeVisible();
    expect(cards()).toHaveLength(50);
    // Newest first across pages: hour 4949 is the first card of page 2.
    expect(cards()[0]?.querySelector('.va-video-when')?.textContent).toMatch(times(4949));
  });

  it('redraws only the cards whose selection changed when a video is selected', async () => {
    await render(<Timeline />);
    await expect.poll(() => cards().length, { timeout: 60_000 }).toBeGreaterThan(7);
    const first = cards()[3] as HTMLButtonElement;
    first.click();
    await expect.poll(() => first.getAttribute('aria-current')).toBe('true');
    tags.renders = 0;
    const second = cards()[7] as HTMLButtonElement;
    second.click();
    await expect.poll(() => second.getAttribute('aria-current')).toBe('true');
    expect(first.getAttribute('aria-current')).toBeNull();
    // The card left and the card chosen; redrawing all of a plant's took 4.8 s.
    expect(tags.renders).toBe(2);
  });

  it('opens on the page of the selected video, and on the first page again when a filter changes', async () => {
    // The 120th newest (hour 4880) is on page 3.
    await render(<Timeline initialId={idAt(4880)} />);
    await expect.element(page.getByText('101–150 of 5000 videos · Page 3 of 100')).toBeVisible();
    const current = document.querySelectorAll('[aria-current="true"]');
    expect(current).toHaveLength(1);
    expect(current[0]?.querySelector('.va-video-when')?.textContent).toMatch(times(4880));
    await userEvent.click(page.getByRole('button', { name: 'Filter by date range' }));
    // The calendar opens on the current month: its 15th, as a one-day range.
    const today = new Date();
    const day = page.getByRole('button', {
      name: format(new Date(today.getFullYear(), today.getMonth(), 15), 'EEEE, MMMM d, yyyy'),
    });
    await userEvent.click(day);
    await userEvent.click(day);
    await expect.element(page.getByRole('button', { name: 'Clear Filters' })).toBeVisible();
    await expect.element(page.getByText(/^1–50 of 5000 videos/)).toBeVisible();
  });
});

describe('a video’s duration on its card', () => {
  it('counts whole seconds floored, as the operator’s review step and media players do', async () => {
    // 4.6 s read '5 s' here while the operator's review step read 0:04.
    await render(
      <VideoTimeline
        videos={[{ ...videos[0], duration: 4.6 } as Video]}
        loading={false}
        users={[]}
        lineClearances={[]}
        filters={noFilters}
        onFiltersChange={() => {}}
        selectedId={null}
        onSelect={() => {}}
      />,
    );
    await expect.element(page.getByText('Duration: 4 s')).toBeVisible();
  });
});

describe('a video on a line named with one long word', () => {
  it('keeps every card and its status tag within the sidebar', async () => {
    await page.viewport(1280, 900);
    try {
      const lineId = 'f'.repeat(24);
      await render(
        <div className="va-layout">
          <VideoTimeline
            videos={[{ ...videos[0], lineClearanceId: lineId } as Video, videos[1] as Video]}
            loading={false}
            users={[]}
            lineClearances={[activeLine(lineId, { name: LONGWORD })]}
            filters={noFilters}
            onFiltersChange={() => {}}
            selectedId={null}
            onSelect={() => {}}
          />
        </div>,
      );
      await expect.element(page.getByText(LONGWORD)).toBeVisible();
      const sidebar = page.getByRole('complementary').element();
      expect(sidebar.getBoundingClientRect().width).toBeLessThanOrEqual(251);
      for (const card of cards()) {
        expect(within(card, sidebar)).toBe(true);
        expect(within(card.querySelector('.tag') as Element, card)).toBe(true);
      }
    } finally {
      await page.viewport(414, 896);
    }
  });
});
