import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { reportFixture } from '../../../tests/web/report-fixture.ts';
import { Toaster } from '../../components/toaster.tsx';
import {
  createPlaybackClock,
  type PlaybackClock,
} from '../../components/video-review/playback-clock.ts';
import {
  keyOwnedByTarget,
  shortcutAllowed,
  VIDEO_WORKSPACE_SELECTOR,
} from '../../components/video-review/shortcuts.ts';
import { setKeyboardShortcuts } from '../../stores/keyboard-shortcuts.ts';
import { toastSuccess, toasts } from '../../stores/toasts.ts';
import type { Flag, InspectionReport, ReportDetection } from '../../types/api.ts';
import { detection, detectionFlag, recordBodies } from './detection.fixtures.ts';
import { FLAG_PLAYER_SELECTOR, FlagsPanel } from './flags-panel.tsx';
import './inspection-report.css';

afterEach(async () => {
  await cleanup();
  setKeyboardShortcuts(true);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  toasts.items = [];
  window.scrollTo(0, 0);
});

/** The panel as the report page mounts it, on a report with these flags and no detections. */
function Panel({ flags, clock }: { flags: Flag[]; clock: PlaybackClock }) {
  return <FlagsPanel report={reportFixture({ flags })} clock={clock} onChanged={() => {}} />;
}

/**
 * The report page's order as the app lays it out: the sticky toolbar, the record's header and
 * signature, the flags, then the workspace with the player (`media`) and what follows it.
 */
function ReportPageStandIn({ report, media }: { report: InspectionReport; media: ReactNode }) {
  return (
    <>
      {/* The app's sticky toolbar, over the top of the page. */}
      <div className="toolbar" style={{ height: '64px' }} />
      <section className="report-page">
        <h1>Inspection Report</h1>
        {/* The record's header and signature block. */}
        <div style={{ height: '600px' }} />
        <FlagsPanel report={report} clock={createPlaybackClock()} onChanged={() => {}} />
        <div className="report-workspace">
          <div className="va-main">
            <div className="va-media">{media}</div>
            {/* The slider and the detections. */}
            <div style={{ height: '900px' }} />
          </div>
        </div>
        <div style={{ height: '1200px' }} />
      </section>
    </>
  );
}

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
    await render(<Panel flags={flags} clock={clock} />);
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
      <Panel flags={[flags[0] as Flag, dismissed(flags[1] as Flag), gap]} clock={clock} />,
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
    await render(<Panel flags={[dismissed(flags[1] as Flag)]} clock={clock} />);
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

  it('takes F only in its panel, the player or on no control (WCAG 2.1.4)', async () => {
    const clock = createPlaybackClock();
    await render(
      <>
        <a href="/api/reports/1/pdf">Download PDF</a>
        <Panel flags={flags} clock={clock} />
        <div className="va-main">
          <button type="button">Play</button>
        </div>
      </>,
    );
    const status = page.getByRole('status');
    const link = page.getByRole('link', { name: 'Download PDF' });
    await expect.element(link).toBeVisible();
    (link.element() as HTMLElement).focus();
    await userEvent.keyboard('f');
    expect(clock.time).toBe(0);
    await expect.element(status).toBeEmptyDOMElement();

    (page.getByRole('button', { name: 'Play' }).element() as HTMLElement).focus();
    await userEvent.keyboard('f');
    await expect.element(status).toHaveTextContent(`Open flag 1 of 2: ${flags[0]?.text}`);
    // From a flag of the list, too: the panel is F's own.
    (page.getByRole('button', { name: /Hot zone not visited/ }).element() as HTMLElement).focus();
    await userEvent.keyboard('f');
    await expect.element(status).toHaveTextContent(`Open flag 2 of 2: ${flags[1]?.text}`);
  });

  it('once shortcuts are off, F does nothing and the button, named without it, still works', async () => {
    setKeyboardShortcuts(false);
    const clock = createPlaybackClock();
    await render(<Panel flags={flags} clock={clock} />);
    await userEvent.keyboard('f');
    expect(clock.time).toBe(0);
    const button = page.getByRole('button', { name: 'Next flag', exact: true });
    await expect.element(button).not.toHaveAttribute('aria-keyshortcuts');
    await userEvent.click(button);
    expect(clock.time).toBe(3.5);
    await userEvent.keyboard('f');
    expect(clock.time).toBe(3.5);
  });
});

describe('Next flag and the player below the fold', () => {
  const gapAt = (time: number): Flag => ({
    kind: 'gap',
    severity: 'medium',
    text: `Gap in the path: no position for 6.00 s from ${time.toFixed(2)} s`,
    time,
    ref: null,
    decision: null,
  });
  /** The report page's order: flags, then the video and path player, below the fold at 1280 × 900. */
  async function renderPage(clock = createPlaybackClock()) {
    await page.viewport(1280, 900);
    await render(
      <>
        {/* The app's sticky toolbar, over the top of the page. */}
        <div className="toolbar" style={{ height: '64px' }} />
        <h1 tabIndex={-1}>Inspection Report</h1>
        <Panel flags={flags} clock={clock} />
        <div style={{ height: '1200px' }} />
        <div className="report-workspace">
          <div className="va-main">
            <div className="va-media" style={{ height: '480px' }}>
              {/* biome-ignore lint/a11y/useMediaCaption: a stand-in without a source. */}
              <video controls aria-label="Video player" />
            </div>
          </div>
        </div>
        <div style={{ height: '1200px' }} />
      </>,
    );
    await expect.poll(() => document.querySelector(FLAG_PLAYER_SELECTOR)).not.toBeNull();
    const player = document.querySelector(FLAG_PLAYER_SELECTOR) as HTMLElement;
    return { clock, player };
  }
  const inView = (element: HTMLElement) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  };

  it('brings the player into view, and leaves a visible one where it is', async () => {
    const { clock, player } = await renderPage();
    expect(inView(player)).toBe(false);
    // As the page opened: its heading has the focus, which need not stay in view.
    (page.getByRole('heading', { level: 1 }).element() as HTMLElement).focus();
    await userEvent.keyboard('f');
    expect(clock.time).toBe(3.5);
    await expect.poll(() => inView(player)).toBe(true);

    // Already in view: the page stays where it is.
    const scrolled = window.scrollY;
    await userEvent.keyboard('f');
    expect(clock.time).toBe(8.87);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(window.scrollY).toBe(scrolled);
  });

  it('moves the focus from the page heading to the flag strip, where ← and → stay the page’s keys', async () => {
    const { player } = await renderPage();
    (page.getByRole('heading', { level: 1 }).element() as HTMLElement).focus();
    await userEvent.keyboard('f');
    // The strip above the player names the flag; the panel's status line went there.
    const strip = page.getByRole('group', { name: `Open flag 1 of 2: ${flags[0]?.text}` });
    await expect.element(strip).toHaveFocus();
    await expect.poll(() => inView(player)).toBe(true);
    // Not the <video>, whose own controls take the arrows (QA: a 1% step instead of the next
    // keyframe image): the video's shortcuts act from the strip.
    const focused = document.activeElement;
    expect(focused).not.toBeInstanceOf(HTMLMediaElement);
    expect(keyOwnedByTarget(focused, 'ArrowRight')).toBe(false);
    expect(shortcutAllowed(focused, VIDEO_WORKSPACE_SELECTOR)).toBe(true);
    // The next Tab goes on from the flag: the strip's own Next.
    await userEvent.keyboard('{Tab}');
    await expect.element(page.getByRole('button', { name: 'Next (F)' })).toHaveFocus();
  });

  it('moves the focus from the page to a flag without a time, in its list', async () => {
    const noTime: Flag = { ...gapAt(0), kind: 'tag', text: 'Tag not scanned: Gate', time: null };
    await render(<Panel flags={[noTime]} clock={createPlaybackClock()} />);
    await userEvent.keyboard('f');
    await expect.element(page.getByRole('button', { name: /Tag not scanned: Gate/ })).toHaveFocus();
  });

  it('takes the focus from Next flag along to the strip, on screen above the player', async () => {
    const { clock, player } = await renderPage();
    const button = page.getByRole('button', { name: 'Next flag (F)' }).element() as HTMLElement;
    const toolbar = document.querySelector('.toolbar') as HTMLElement;
    /** The focused strip and the player below it, both in view and clear of the toolbar. */
    const shownTogether = (name: RegExp) => async () => {
      const strip = page.getByRole('group', { name }).element().getBoundingClientRect();
      const video = player.getBoundingClientRect();
      return (
        strip.top >= toolbar.getBoundingClientRect().bottom - 1 &&
        strip.bottom <= video.top &&
        video.bottom <= window.innerHeight
      );
    };
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(clock.time).toBe(3.5);
    // Its button 1200 px above the player: a keyboard user is not left pressing a button they
    // cannot see, nor looking at a player without the flag it was moved for.
    await expect.element(page.getByRole('group', { name: /^Open flag 1 of 2/ })).toHaveFocus();
    await expect.poll(shownTogether(/^Open flag 1 of 2/)).toBe(true);

    window.scrollTo(0, 0);
    await userEvent.click(button);
    expect(clock.time).toBe(8.87);
    await expect.element(page.getByRole('group', { name: /^Open flag 2 of 2/ })).toHaveFocus();
    await expect.poll(shownTogether(/^Open flag 2 of 2/)).toBe(true);
  });

  it('goes on from the strip’s own Next, the focus kept on it; shortcuts off, it is named without F', async () => {
    setKeyboardShortcuts(false);
    const noTime: Flag = { ...gapAt(0), kind: 'tag', text: 'Tag not scanned: Gate', time: null };
    const clock = createPlaybackClock();
    await page.viewport(1280, 900);
    await render(
      <>
        <Panel flags={[flags[0] as Flag, noTime, gapAt(20)]} clock={clock} />
        <div className="report-workspace">
          <div className="va-main">
            <div className="va-media" style={{ height: '480px' }} />
          </div>
        </div>
      </>,
    );
    await userEvent.click(page.getByRole('button', { name: 'Next flag', exact: true }));
    const next = page.getByRole('button', { name: 'Next', exact: true });
    await userEvent.click(next);
    // A flag without a time is read in the strip too: the focus stays where the reader steps.
    await expect
      .element(page.getByRole('group', { name: 'Open flag 2 of 3: Tag not scanned: Gate' }))
      .toBeVisible();
    expect(clock.time).toBe(3.5);
    await expect.element(next).toHaveFocus();
    await userEvent.click(next);
    expect(clock.time).toBe(20);
    await expect.element(next).toHaveFocus();
  });

  it('scrolls the flag list to a flag far down it', async () => {
    const many: Flag[] = Array.from({ length: 14 }, (_, i) => ({
      ...gapAt(20 + i),
      ref: String(i),
    }));
    await page.viewport(1280, 900);
    await render(<Panel flags={many} clock={createPlaybackClock()} />);
    const button = page.getByRole('button', { name: 'Next flag (F)' });
    for (let i = 0; i < many.length; i++) await userEvent.click(button);
    await expect.element(page.getByRole('status')).toHaveTextContent('Open flag 14 of 14');
    const item = document.getElementById('report-flag-13') as HTMLElement;
    const list = item.parentElement as HTMLElement;
    expect(list.scrollTop).toBeGreaterThan(0);
    expect(item.getBoundingClientRect().bottom).toBeLessThanOrEqual(
      list.getBoundingClientRect().bottom + 1,
    );
  });

  it('scrolls smoothly, or at once when the reader asked for reduced motion', async () => {
    await renderPage();
    const scroll = vi.spyOn(window, 'scrollBy');
    await userEvent.keyboard('f');
    expect(scroll).toHaveBeenLastCalledWith({ top: expect.any(Number), behavior: 'smooth' });
    window.scrollTo(0, 0);

    const matchMedia = window.matchMedia.bind(window);
    vi.spyOn(window, 'matchMedia').mockImplementation((query) =>
      query === '(prefers-reduced-motion: reduce)'
        ? ({ matches: true, media: query } as MediaQueryList)
        : matchMedia(query),
    );
    await userEvent.keyboard('f');
    expect(scroll).toHaveBeenLastCalledWith({ top: expect.any(Number), behavior: 'auto' });
  });
});

describe('the flag gone to, shown with the player', () => {
  const decisions = [1, 2].map((n) => detection(n, null));
  const report = reportFixture({
    flags: [...decisions.map(detectionFlag), flags[0] as Flag],
    detections: decisions,
  });
  for (const [width, height] of [
    [1440, 900],
    [1024, 768],
    [390, 844],
  ] as const) {
    it(`keeps its text, Confirm and Dismiss on screen with the video at ${width} × ${height}`, async () => {
      await page.viewport(width, height);
      await render(
        <ReportPageStandIn
          report={report}
          media={
            <>
              {/* biome-ignore lint/a11y/useMediaCaption: a stand-in without a source. */}
              <video
                controls
                aria-label="Video player"
                style={{ width: '500px', maxWidth: '100%', aspectRatio: '16 / 9' }}
              />
              {/* The path player. */}
              <div style={{ width: '700px', maxWidth: '100%', height: '650px' }} />
            </>
          }
        />,
      );
      const toolbar = document.querySelector('.toolbar') as HTMLElement;
      const video = document.querySelector('video') as HTMLVideoElement;
      /** The flag's text and decision in view below the toolbar, and (`withVideo`) the video below them. */
      const shown =
        (text: string, withVideo = true) =>
        () => {
          const top = toolbar.getBoundingClientRect().bottom - 1;
          const parts = [
            page.getByRole('status').filter({ hasText: text }),
            page.getByRole('button', { name: 'Confirm current flag' }),
            page.getByRole('button', { name: 'Dismiss current flag' }),
          ].map((part) => part.element().getBoundingClientRect());
          const inView = parts.every((box) => box.top >= top && box.bottom <= innerHeight);
          const player = video.getBoundingClientRect();
          const below = Math.max(...parts.map((box) => box.bottom));
          return inView && (!withVideo || (player.top >= below && player.bottom <= innerHeight));
        };
      const first = `Open flag 1 of 3: ${detectionFlag(decisions[0] as ReportDetection).text}`;
      await userEvent.click(page.getByRole('button', { name: 'Next flag (F)' }));
      await expect.poll(shown(first)).toBe(true);
      const second = `Open flag 2 of 3: ${detectionFlag(decisions[1] as ReportDetection).text}`;
      await userEvent.keyboard('f');
      await expect.poll(shown(second)).toBe(true);
      // Down the path player and the detections, the flag and its decision stay under the toolbar.
      window.scrollBy(0, 500);
      await expect.poll(shown(second, false)).toBe(true);
    });
  }
});

describe('deciding a flagged detection at its flag', () => {
  const predictionId = 'e00000000000000000000001';
  const put = `PUT /api/inspections/d00000000000000000000001/dispositions/${predictionId}`;
  const shown: ReportDetection['disposition'] = {
    predictionId,
    disposition: 'dismissed',
    reason: 'Glare on the guard',
    reviewerId: 'b00000000000000000000002',
    reviewerName: 'Lee Chan',
    at: '2026-11-20T10:40:00.000Z',
  };
  const flagged = (disposition: ReportDetection['disposition'] = null) =>
    reportFixture({
      flags: [flags[0] as Flag, detectionFlag(detection(1, disposition))],
      detections: [detection(1, disposition)],
    });
  const flagText = 'Detection: debris 81% at 14.79 s';
  const confirmAtFlag = `Confirm ${flagText}`;
  const dismissAtFlag = `Dismiss ${flagText}`;

  /** The panel on `report`, whose decisions are saved; the bodies they send are kept. */
  async function decide(report: InspectionReport) {
    const fake = fakeFetch({ [put]: { body: {} } });
    vi.stubGlobal('fetch', fake.fetchImpl);
    const bodies = recordBodies();
    const changed = vi.fn();
    await render(<FlagsPanel report={report} clock={createPlaybackClock()} onChanged={changed} />);
    return { bodies, calls: fake.calls, changed };
  }

  it('confirms with one PUT naming the decision the flag shows, and the report reloads', async () => {
    const { bodies, calls, changed } = await decide(flagged(shown));
    // A dismissed flag is listed with its decision, and may still be decided again.
    const confirm = page.getByRole('button', { name: confirmAtFlag });
    await userEvent.click(confirm);
    await expect.poll(() => changed.mock.calls.length).toBe(1);
    expect(calls).toEqual([put]);
    expect(bodies).toEqual([
      {
        disposition: 'confirmed',
        reason: '',
        seen: { disposition: 'dismissed', at: '2026-11-20T10:40:00.000Z' },
      },
    ]);
    expect(toasts.items.map((toast) => toast.detail)).toEqual(['Disposition saved']);
  });

  it('dismisses with a common reason picked in one click, the text the reason stored', async () => {
    const { bodies, changed } = await decide(flagged());
    await userEvent.click(page.getByRole('button', { name: dismissAtFlag }));
    const dialog = page.getByRole('dialog', { name: 'Dismiss as a false positive' });
    await expect.element(dialog.getByText('14.792 s: debris 81%, tool 42%')).toBeVisible();
    const glare = dialog.getByRole('radio', {
      name: 'Reflection or glare on a surface, not an object',
    });
    await userEvent.click(glare);
    await expect.element(glare).toBeChecked();
    await expect
      .element(dialog.getByLabelText('Reason (required)'))
      .toHaveValue('Reflection or glare on a surface, not an object');
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    await expect.poll(() => page.getByRole('dialog').query()).toBeNull();
    expect(changed).toHaveBeenCalledTimes(1);
    expect(bodies).toEqual([
      {
        disposition: 'dismissed',
        reason: 'Reflection or glare on a surface, not an object',
        seen: null,
      },
    ]);
  });

  it('submits a dismissal with a Dismiss as red as the one that opened it', async () => {
    await decide(flagged());
    const dismiss = page.getByRole('button', { name: dismissAtFlag });
    await expect.element(dismiss).toBeVisible();
    // Kept: the open dialog hides the page from the accessibility tree.
    const opener = dismiss.element();
    await userEvent.click(opener);
    const dialog = page.getByRole('dialog', { name: 'Dismiss as a false positive' });
    const submit = dialog.getByRole('button', { name: 'Dismiss' });
    await expect.element(submit).toBeVisible();
    const background = (element: Element) => getComputedStyle(element).backgroundColor;
    expect(background(submit.element())).toBe(background(opener));
  });

  it('says which decision a flag has: the one taken pressed, the other not', async () => {
    const decided = (n: number, disposition: 'confirmed' | 'dismissed') =>
      detection(n, {
        predictionId: `e0000000000000000000000${n}`,
        disposition,
        reason: disposition === 'dismissed' ? 'Glare on the guard' : '',
        reviewerId: 'b00000000000000000000002',
        reviewerName: 'Lee Chan',
        at: '2026-11-20T10:40:00.000Z',
      });
    const confirmedOne = decided(1, 'confirmed');
    const dismissedOne = decided(2, 'dismissed');
    const undecided = detection(3, null);
    const decisions = [confirmedOne, dismissedOne, undecided];
    await decide(reportFixture({ flags: decisions.map(detectionFlag), detections: decisions }));
    const pressed = (name: string, value: 'true' | 'false') =>
      expect
        .element(page.getByRole('button', { name, exact: true }))
        .toHaveAttribute('aria-pressed', value);
    const at = (d: ReportDetection) => `Detection: debris 81% at ${d.time.toFixed(2)} s`;
    await pressed(`Confirm ${at(confirmedOne)}`, 'true');
    await pressed(`Dismiss ${at(confirmedOne)}`, 'false');
    await pressed(`Confirm ${at(dismissedOne)}`, 'false');
    await pressed(`Dismiss ${at(dismissedOne)}`, 'true');
    await pressed(`Confirm ${at(undecided)}`, 'false');
    await pressed(`Dismiss ${at(undecided)}`, 'false');
    // Beside 'Next flag', the flag gone to says it too (the dismissed one is skipped).
    await userEvent.click(page.getByRole('button', { name: 'Next flag (F)' }));
    await pressed('Confirm current flag', 'true');
    await pressed('Dismiss current flag', 'false');
  });

  it('keeps the reason editable and required; Other leaves it for the reviewer’s own words', async () => {
    const { bodies } = await decide(flagged());
    await userEvent.click(page.getByRole('button', { name: dismissAtFlag }));
    const dialog = page.getByRole('dialog', { name: 'Dismiss as a false positive' });
    const reason = dialog.getByLabelText('Reason (required)');
    const other = dialog.getByRole('radio', { name: 'Other', exact: true });
    const hand = dialog.getByRole('radio', { name: /^The operator’s own gloved hand/ });

    // A common reason edited is the reviewer's own: Other is then the one checked.
    await userEvent.click(hand);
    await reason.fill('The operator’s own gloved hand, holding the line’s checklist');
    await expect.element(other).toBeChecked();
    await expect.element(hand).not.toBeChecked();

    // Trying a common reason (arrow keys pick each in turn) keeps the reviewer's own words: Other
    // brings them back (QA: ArrowUp, ArrowDown lost them).
    const own = 'The operator’s own gloved hand, holding the line’s checklist';
    await userEvent.keyboard('{Shift>}{Tab}{/Shift}');
    await expect.element(other).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    await expect.element(other).not.toBeChecked();
    await expect.element(reason).not.toHaveValue(own);
    await userEvent.keyboard('{ArrowDown}');
    await expect.element(other).toBeChecked();
    await expect.element(reason).toHaveValue(own);

    // Empty, it is refused at the field.
    await reason.fill('');
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    const why =
      'Please give the reason for dismissing this detection, in at least 3 different words ' +
      'At least 3 different words. It is kept with the dismissal in the audit trail.';
    await expect.element(reason).toHaveFocus();
    await expect.element(reason).toHaveAttribute('aria-invalid', 'true');
    await expect.element(reason).toHaveAccessibleDescription(why);
    expect(bodies).toEqual([]);

    await reason.fill('Label of the carton on the neighbouring pallet');
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    await expect
      .poll(() => bodies)
      .toEqual([
        {
          disposition: 'dismissed',
          reason: 'Label of the carton on the neighbouring pallet',
          seen: null,
        },
      ]);
  });

  it('puts the decision next to the flag in the tab order, and F still goes to the next flag', async () => {
    await decide(flagged());
    const next = page.getByRole('button', { name: 'Next flag (F)' });
    await userEvent.click(next);
    await userEvent.click(next);
    const status = page.getByRole('status');
    await expect.element(status).toHaveTextContent(`Open flag 2 of 2: ${flagText}`);

    // Beside 'Next flag', the flag gone to: F, then Tab and Enter decide it.
    const order = ['Confirm current flag', 'Dismiss current flag', /Hot zone/, /^high Detection/i];
    for (const name of [...order, confirmAtFlag, dismissAtFlag]) {
      await userEvent.keyboard('{Tab}');
      await expect.element(page.getByRole('button', { name, exact: true })).toHaveFocus();
    }
    await userEvent.keyboard('f');
    await expect.element(status).toHaveTextContent(`Open flag 1 of 2: ${flags[0]?.text}`);
    await expect.element(page.getByRole('button', { name: dismissAtFlag })).toHaveFocus();
    // No decision for a flag that is no detection.
    expect(page.getByRole('button', { name: 'Confirm current flag' }).query()).toBeNull();
  });

  it('offers no decision to a reader who cannot sign, nor on a signed record', async () => {
    const reader = {
      ...flagged(),
      canSign: false,
      cannotSignReason: 'Only the line’s LC manager or an admin signs this record',
    };
    const signed: InspectionReport = {
      ...flagged(shown),
      status: 'approved',
      canSign: false,
      cannotSignReason: 'The inspection is already approved',
      signature: {
        signerId: 'b00000000000000000000002',
        signerName: 'Lee Chan',
        signerEmail: 'lee@example.com',
        meaning: 'approved',
        statement: 'Approved: the line is clear for the next batch',
        notes: '',
        signedAt: '2026-11-20T11:00:00.000Z',
        recordHash: 'a'.repeat(64),
      },
    };
    for (const report of [reader, signed]) {
      await render(
        <FlagsPanel report={report} clock={createPlaybackClock()} onChanged={() => {}} />,
      );
      await userEvent.click(page.getByRole('button', { name: /^high Detection/i }));
      await expect.element(page.getByRole('status')).toHaveTextContent(/flag.*Detection: debris/);
      expect(page.getByRole('button', { name: /^(Confirm|Dismiss)/ }).all()).toHaveLength(0);
      await cleanup();
    }
  });
});

describe('the toast a decision shows', () => {
  const decisions = [1, 2, 3, 4, 5].map((n) => detection(n, null));
  const report = reportFixture({
    flags: [flags[0] as Flag, ...decisions.map(detectionFlag)],
    detections: decisions,
  });

  /** The report page's order, its toasts too: the flags under the record's header, the player below. */
  async function renderReport(width: number, height: number) {
    await page.viewport(width, height);
    const put = (d: ReportDetection) =>
      `PUT /api/inspections/${report.inspectionId}/dispositions/${d.predictionId}`;
    vi.stubGlobal(
      'fetch',
      fakeFetch(Object.fromEntries(decisions.map((d) => [put(d), { body: {} }]))).fetchImpl,
    );
    await render(
      <>
        <ReportPageStandIn report={report} media={<div style={{ height: '480px' }} />} />
        <Toaster />
      </>,
    );
  }

  /** The toast, once shown, and every Confirm, Dismiss and 'Next flag' on screen, the strip's too. */
  async function toastAndControls() {
    const toast = page.getByRole('status').filter({ hasText: 'Disposition saved' });
    await expect.element(toast).toBeVisible();
    const list = (document.querySelector('.report-flags') as HTMLElement).getBoundingClientRect();
    const buttons = document.querySelectorAll('.report-flags-panel .btn, .report-flag-strip .btn');
    const controls = [...buttons].filter((button) => {
      const box = button.getBoundingClientRect();
      const shownIn = button.closest('.report-flags') ? list : { top: 0, bottom: innerHeight };
      return (
        box.bottom > Math.max(0, shownIn.top) && box.top < Math.min(innerHeight, shownIn.bottom)
      );
    });
    const box = (document.querySelector('.toast') as HTMLElement).getBoundingClientRect();
    return { toast: box, controls: controls.map((control) => control.getBoundingClientRect()) };
  }

  const overlaps = (a: DOMRect, b: DOMRect) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    it(`covers none of the flags' decisions after 'Next flag' at ${width} × ${height}`, async () => {
      await renderReport(width, height);
      const next = page.getByRole('button', { name: 'Next flag (F)' });
      await userEvent.click(next);
      await userEvent.click(next);
      // 'Next flag' brought the player up, the panel under the toolbar.
      await expect.poll(() => window.scrollY).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await userEvent.click(page.getByRole('button', { name: 'Confirm current flag' }));
      const { toast, controls } = await toastAndControls();
      expect(controls.length).toBeGreaterThanOrEqual(5);
      for (const control of controls) expect(overlaps(toast, control)).toBe(false);
    });
  }

  it('covers none of them either with the panel scrolled to the bottom of a desktop screen', async () => {
    await renderReport(1280, 800);
    // The panel mounts after the report's first effects: wait for it rather than race it.
    await expect.poll(() => document.querySelector('.report-flags-panel')).not.toBeNull();
    const panel = document.querySelector('.report-flags-panel') as HTMLElement;
    window.scrollBy(0, panel.getBoundingClientRect().bottom - innerHeight + 8);
    const last = decisions.at(-1) as ReportDetection;
    await userEvent.click(
      page.getByRole('button', { name: `Confirm ${detectionFlag(last).text}`, exact: true }),
    );
    const { toast, controls } = await toastAndControls();
    expect(controls.length).toBeGreaterThanOrEqual(10);
    for (const control of controls) expect(overlaps(toast, control)).toBe(false);
  });

  it('keeps off a dialog’s reason field and buttons while it is open (at 1024 × 768)', async () => {
    await renderReport(1024, 768);
    await userEvent.click(
      page.getByRole('button', {
        name: `Dismiss ${detectionFlag(decisions[0] as ReportDetection).text}`,
      }),
    );
    const dialog = page.getByRole('dialog', { name: 'Dismiss as a false positive' });
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    const why = 'Please give the reason for dismissing this detection';
    await expect.element(page.getByRole('status').filter({ hasText: why })).toBeVisible();
    const toast = (document.querySelector('.toast') as HTMLElement).getBoundingClientRect();
    const kept = [
      dialog.getByLabelText('Reason (required)'),
      dialog.getByText(why),
      dialog.getByRole('button', { name: 'Cancel' }),
      dialog.getByRole('button', { name: 'Dismiss' }),
    ];
    for (const part of kept) {
      expect(overlaps(toast, part.element().getBoundingClientRect())).toBe(false);
    }
  });

  it('leaves toasts at the top right on the other pages, the report’s styles still loaded', async () => {
    await page.viewport(1280, 800);
    await render(<Toaster />);
    toastSuccess('Line clearance updated successfully');
    await expect.element(page.getByText('Line clearance updated successfully')).toBeVisible();
    const box = (document.querySelector('.toast') as HTMLElement).getBoundingClientRect();
    expect(box.top).toBeLessThan(800 / 2);
    expect(box.right).toBeGreaterThan(1280 - 40);
  });
});
