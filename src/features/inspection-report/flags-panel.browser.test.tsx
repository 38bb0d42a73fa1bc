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

describe('Next flag', () => {
  const gap: Flag = {
    kind: 'gap',
    severity: 'medium',
    text: 'Gap in the path: no position for 6.00 s from 12.50 s',
    time: 12.5,
    ref: null,
    decision: null,
  };
  const dismissed = (flag: Flag): Flag => ({ ...flag, decision: 'dismissed' });

  it('steps through the open flags only, counting them, by key and by button', async () => {
    const clock = createPlaybackClock();
    await render(
      <FlagsPanel flags={[flags[0] as Flag, dismissed(flags[1] as Flag), gap]} clock={clock} />,
    );
    const button = page.getByRole('button', { name: 'Next flag (F)' });
    const status = page.getByRole('status');

    await userEvent.keyboard('f');
    await expect.element(status).toHaveTextContent(`Open flag 1 of 2: ${flags[0]?.text}`);
    expect(clock.time).toBe(3.5);
    // The dismissed detection between them is closed: skipped.
    await userEvent.click(button);
    await expect.element(status).toHaveTextContent(`Open flag 2 of 2: ${gap.text}`);
    expect(clock.time).toBe(12.5);
    await userEvent.click(button);
    await expect.element(status).toHaveTextContent(`Open flag 1 of 2: ${flags[0]?.text}`);

    // A dismissed flag picked from the list is shown, not counted; Next goes on to the open one after it.
    await userEvent.click(page.getByRole('button', { name: /Detection: debris 81%/ }));
    await expect.element(status).toHaveTextContent(`Dismissed flag: ${flags[1]?.text}`);
    await userEvent.click(button);
    await expect.element(status).toHaveTextContent(`Open flag 2 of 2: ${gap.text}`);
  });

  it('says why it does nothing when every flag is dismissed, and stays reachable by keyboard', async () => {
    const clock = createPlaybackClock();
    await render(<FlagsPanel flags={[dismissed(flags[1] as Flag)]} clock={clock} />);
    const button = page.getByRole('button', { name: 'Next flag (F)' });
    await expect.element(button).toHaveAttribute('aria-disabled', 'true');
    // Not the `disabled` attribute, which takes a button out of the tab order.
    expect((button.element() as HTMLButtonElement).disabled).toBe(false);
    await expect
      .element(button)
      .toHaveAccessibleDescription('No open flag: every flag is dismissed.');

    // Tab reaches it (a disabled button would be skipped); Enter, a click and F do nothing.
    (document.activeElement as HTMLElement | null)?.blur();
    await userEvent.keyboard('{Tab}');
    expect(document.activeElement).toBe(button.element());
    await userEvent.keyboard('{Enter}');
    await userEvent.click(button, { force: true });
    await userEvent.keyboard('f');
    expect(clock.time).toBe(0);
    await expect.element(page.getByRole('status')).toBeEmptyDOMElement();
  });
});
