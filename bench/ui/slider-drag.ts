// The scrub the UI bench measures (and bench/ui/trace-scrub.ts traces): the time slider dragged
// across the path and back, one position per animation frame.
import type { Page } from 'playwright';

export interface SliderTrack {
  y: number;
  /** The page x of a fraction of the slider's width. */
  xAt(fraction: number): number;
}

/** Scrolls the time slider into view; where to drag it. */
export async function locateTimeSlider(page: Page): Promise<SliderTrack> {
  const slider = page.getByRole('slider', { name: 'Time' });
  await slider.scrollIntoViewIfNeeded();
  const box = await slider.boundingBox();
  if (!box) throw new Error('the time slider is not on screen');
  return { y: box.y + box.height / 2, xAt: (fraction) => box.x + box.width * fraction };
}

/**
 * Drags 5% → 95% → 5% `sweeps` times, `steps` positions each way, waiting for an animation frame
 * after each; then releases and gives the last frame's answer time to arrive.
 */
export async function sweepTimeSlider(
  page: Page,
  track: SliderTrack,
  sweeps: number,
  steps: number,
): Promise<void> {
  await page.mouse.move(track.xAt(0.05), track.y);
  await page.mouse.down();
  for (let sweep = 0; sweep < sweeps; sweep++) {
    for (let step = 0; step <= 2 * steps; step++) {
      const along = step <= steps ? step : 2 * steps - step;
      await page.mouse.move(track.xAt(0.05 + (0.9 * along) / steps), track.y);
      await page.evaluate(() => new Promise(requestAnimationFrame));
    }
  }
  await page.mouse.up();
  await page.waitForTimeout(200);
}
