import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { createPlaybackClock } from '../../components/video-review/playback-clock.ts';
import type { Flag } from '../../types/api.ts';
import { FlagsPanel } from './flags-panel.tsx';

afterEach(cleanup);

const flags: Flag[] = [
  {
    kind: 'zone',
    severity: 'critical',
    text: 'Hot zone not visited: Sealer (critical)',
    time: 3.5,
    ref: '0',
    decision: null,
  },
  {
    kind: 'detection',
    severity: 'high',
    text: 'Detection: debris 81% at 8.87 s',
    time: 8.87,
    ref: 'p1',
    decision: null,
  },
];

describe('the flags list', () => {
  it('shows a detection’s time once, and going to it still moves the clock there', async () => {
    const clock = createPlaybackClock();
    await render(<FlagsPanel flags={flags} clock={clock} />);
    const detection = page.getByRole('button', { name: /Detection: debris 81%/ });
    await expect.element(detection).toBeVisible();
    expect(detection.element().textContent?.match(/8\.87 s/g)).toHaveLength(1);
    // A missed zone's text has no time: the closest approach shows beside it.
    await expect
      .element(page.getByRole('button', { name: /Hot zone not visited/ }))
      .toHaveTextContent('closest at 3.50 s');

    await userEvent.click(detection);
    expect(clock.time).toBe(8.87);
    await expect.element(detection).toHaveAttribute('aria-current', 'true');
  });
});
