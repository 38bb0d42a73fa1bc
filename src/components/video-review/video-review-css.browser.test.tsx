// video-review.css where WCAG asks for more than looks: the detection markers' hit area (2.5.8) and
// the ring round the player while the keyboard is in its native controls (2.4.7); and the one
// detection list a single column shows.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../../tests/web/render.tsx';
import type { Detection } from './detections.ts';
import { createPlaybackClock } from './playback-clock.ts';
import { TimeSlider } from './time-slider.tsx';
import { recordWebm } from './webm.fixtures.ts';
import './video-review.css';

afterEach(cleanup);

const detectionAt = (time: number): Detection => ({
  id: `d-${time}`,
  time,
  stamp: time.toFixed(3),
  filename: `${time.toFixed(3)}.png`,
  subfolder: 'frames',
  objects: [{ label: 'carton', confidence: 0.72, box: null }],
});

describe('detection markers', () => {
  it('take a press within 12 px of their middle, look unchanged, and keep their neighbour’s', async () => {
    await page.viewport(1280, 900);
    const seek = vi.fn();
    // 8 s apart on a 0–300 s track about 1000 px wide: about 27 px apart.
    const detections = [detectionAt(100), detectionAt(108)];
    await render(
      <TimeSlider
        clock={createPlaybackClock()}
        bounds={{ min: 0, max: 300 }}
        detections={detections}
        onTogglePlay={() => {}}
        onSeekToDetection={seek}
      />,
    );
    const marker = page.getByRole('button', { name: /^Go to detection at 100\.00 s/ });
    await expect.element(marker).toBeVisible();
    const box = marker.element().getBoundingClientRect();
    expect([box.width, Math.round(box.height)]).toEqual([8, 13]);

    const middle = { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    for (const [dx, dy] of [
      [-11, 0],
      [11, 0],
      [0, -11],
      [0, 11],
    ] as const) {
      expect(document.elementFromPoint(middle.x + dx, middle.y + dy)).toBe(marker.element());
    }
    await userEvent.click(marker, { position: { x: box.width / 2 + 10, y: box.height / 2 } });
    expect(seek).toHaveBeenLastCalledWith(detections[0]);

    // The next marker's own mark is still its own, though the areas meet between them.
    const next = page.getByRole('button', { name: /^Go to detection at 108\.00 s/ }).element();
    const nextBox = next.getBoundingClientRect();
    expect(nextBox.left - box.right).toBeGreaterThan(16);
    expect(document.elementFromPoint(nextBox.left + 1, middle.y)).toBe(next);
    expect(document.elementFromPoint(box.right - 1, middle.y)).toBe(marker.element());
  });
});

describe('the video player', () => {
  it('shows the app’s focus ring round it while Tab is in its native controls', async () => {
    // A one-second playable video made here (the player's controls stay disabled without one).
    const source = await recordWebm();
    await render(
      <>
        <button type="button">Before</button>
        {/* biome-ignore lint/a11y/useMediaCaption: a silent test recording. */}
        <video className="va-video" src={source} controls aria-label="Video player" />
      </>,
    );
    const before = page.getByRole('button', { name: 'Before' });
    await expect.element(before).toBeVisible();
    const player = document.querySelector('video') as HTMLVideoElement;
    await vi.waitFor(() => expect(player.readyState).toBeGreaterThan(0));
    (before.element() as HTMLElement).focus();
    // The video itself, then its first control (play) inside it.
    await userEvent.keyboard('{Tab}{Tab}');
    expect(player.matches(':focus')).toBe(false);
    expect(player.matches(':focus-within')).toBe(true);
    const ring = getComputedStyle(player);
    expect(ring.outlineStyle).toBe('solid');
    expect(ring.outlineWidth).toBe('3px');
    const focusColour = document.createElement('span');
    focusColour.style.color = 'var(--focus)';
    document.body.append(focusColour);
    expect(ring.outlineColor).toBe(getComputedStyle(focusColour).color);
    URL.revokeObjectURL(source);
  });
});

describe('the detection lists', () => {
  /** The video page's columns: the main one with its list, the sidebar with its copy. */
  const layout = (
    <div className="va-layout">
      <div className="va-main">
        <section className="va-detections">Detections (15)</section>
      </div>
      <aside className="va-right" aria-label="Detections list">
        <section className="va-detections">Detections (15)</section>
      </aside>
    </div>
  );

  it('shows the sidebar’s copy beside the main list only, never stacked under it (with a mouse too)', async () => {
    expect(matchMedia('(pointer: coarse)').matches).toBe(false);
    await page.viewport(1024, 768);
    await render(layout);
    await expect.element(page.getByText('Detections (15)').first()).toBeVisible();
    expect(document.querySelector('.va-right')?.checkVisibility()).toBe(false);

    await page.viewport(1280, 900);
    await expect.poll(() => document.querySelector('.va-right')?.checkVisibility()).toBe(true);
  });
});
