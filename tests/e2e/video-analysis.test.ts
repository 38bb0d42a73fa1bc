// The Video Analysis page end to end on the demo data (spec §2 'Video Analysis page', §4, §5, §8;
// issue 5): choosing videos through the timeline and its filters, playing and scrubbing with the
// real media element, both modals, the keyboard shortcuts, the videoId fallbacks, the back button
// by role, and axe (WCAG 2.2 AA) with and without a video selected.
import { format } from 'date-fns';
import type { BrowserContext, Page } from 'playwright';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { axeViolationsLightAndDark } from './support/axe.ts';
import { currentPath, landedOn, newContext } from './support/browser.ts';
import { demoAccount, type Role } from './support/demo.ts';
import { setUpE2e } from './support/fixture.ts';
import { screenshotAs } from './support/screenshots.ts';

const e2e = setUpE2e();

/** Several page loads and real playback on a shared 2-core machine. */
const slow = 120_000;

interface ListedVideo {
  id: string;
  filename: string;
  size: number;
}

/** Demo video ids by file name without extension (server/demo/dataset.json). */
let videoIds: Record<string, string> = {};
/** The newest demo video: submitted, its file not arrived (named after its id, size 0). */
let notArrivedId = '';
const idOf = (name: string) => {
  const id = videoIds[name];
  if (!id) throw new Error(`the demo data has no video ${name}`);
  return id;
};

beforeAll(async () => {
  const videos = await e2e.admin.get<ListedVideo[]>('/api/videos');
  videoIds = Object.fromEntries(
    videos.map((video) => [video.filename.replace(/\.mp4$/, ''), video.id]),
  );
  notArrivedId = videos.find((video) => video.size === 0)?.id ?? '';
  if (!notArrivedId) throw new Error('the demo data has no video whose file has not arrived');
});

const contexts: BrowserContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

/** Opens `path` signed in as `role`, in UTC so the demo dates fall on the days they name. */
async function open(role: Role, path: string): Promise<Page> {
  const token = await e2e.tokenFor(role);
  const context = await newContext(e2e.browser, {
    baseUrl: e2e.server.baseUrl,
    token,
    timezoneId: 'UTC',
  });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: 'Video Analysis' }).waitFor();
  return page;
}

const cards = (page: Page) => page.locator('.va-video-card');
const card = (page: Page, line: string, when: string) =>
  page.getByRole('button', { name: new RegExp(`^${line} .*${when}`) });
const currentCard = (page: Page) => page.locator('.va-video-card[aria-current="true"]');
const slider = (page: Page) => page.getByRole('slider', { name: 'Time' });
const timeText = (page: Page) => page.locator('.va-time');
const mainDetections = (page: Page) => page.locator('.va-main .va-detections');
const detection = (page: Page, stamp: string) =>
  mainDetections(page).getByRole('button', { name: new RegExp(`^${stamp.replace('.', '\\.')} s`) });

/** Waits until the path player reported its keyframes and the keyframe image list is read. */
async function pathLoaded(page: Page): Promise<void> {
  await page.getByText(/^Keyframe image: \d+ of \d+/).waitFor();
}

const mediaTime = (page: Page) =>
  page.evaluate(() => (document.querySelector('video') as HTMLVideoElement).currentTime);
const sliderValue = async (page: Page) => Number(await slider(page).inputValue());

/** The multi-select filter `label`: ticks the options, then closes the popover. */
async function pick(page: Page, label: string, options: readonly string[]): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${label}:`) }).click();
  for (const option of options) await page.getByRole('checkbox', { name: option }).click();
  await page.keyboard.press('Escape');
}

/** Picks a day range in the calendar, moving month by month to the first day's month. */
async function pickDays(page: Page, first: Date, last: Date): Promise<void> {
  await page.getByRole('button', { name: 'Filter by date range' }).click();
  const target = format(first, 'MMMM yyyy');
  for (let step = 0; step < 120; step++) {
    const shown = await page.locator('.calendar-month').innerText();
    if (shown === target) break;
    const later = new Date(`1 ${shown}`) > first;
    await page.getByRole('button', { name: later ? 'Previous month' : 'Next month' }).click();
  }
  await page.getByRole('button', { name: format(first, 'EEEE, MMMM d, yyyy') }).click();
  await page.getByRole('button', { name: format(last, 'EEEE, MMMM d, yyyy') }).click();
}

describe('video timeline and filters', () => {
  test(
    'shows the empty state, filters by line, user and dates, and selects a video',
    async () => {
      const page = await open('admin', '/video');
      await page.getByRole('heading', { name: 'No video selected' }).waitFor();
      await page
        .getByText('Please select a video from the timeline on the left to begin analysis.')
        .waitFor();
      await page.getByText('Videos loaded: 6').waitFor();
      await expect.poll(() => cards(page).count()).toBe(6);

      await pick(page, 'Line clearances', ['Bottling Line 2']);
      await expect.poll(() => cards(page).count()).toBe(3);
      expect(await cards(page).allInnerTexts()).toEqual([
        expect.stringContaining('Bottling Line 2'),
        expect.stringContaining('Bottling Line 2'),
        expect.stringContaining('Bottling Line 2'),
      ]);
      await pick(page, 'Users', ['Tomás Rivera']);
      await expect.poll(() => cards(page).count()).toBe(1);
      await card(page, 'Bottling Line 2', '2026-11-18 22:15').waitFor();

      await page.getByRole('button', { name: 'Clear Filters' }).click();
      await expect.poll(() => cards(page).count()).toBe(6);
      // Whole days (spec §9): 10 to 12 November keeps 14:05 on the 10th and 06:30 on the 12th.
      await pickDays(page, new Date(2026, 10, 10), new Date(2026, 10, 12));
      await expect.poll(() => cards(page).count()).toBe(2);
      await card(page, 'Blister Line 1', '2026-11-10 14:05').waitFor();

      await card(page, 'Bottling Line 2', '2026-11-12 06:30').click();
      await page.waitForURL(`**/video/${idOf('lc2-20261112-063000')}`);
      await expect.poll(() => currentCard(page).innerText()).toContain('2026-11-12 06:30');
      expect(await page.locator('video').getAttribute('src')).toBe(
        '/api/videos/lc2-20261112-063000.mp4',
      );
      await pathLoaded(page);
    },
    slow,
  );
});

describe('playback', () => {
  test(
    'plays with the slider disabled, then scrubs the video with the slider',
    async () => {
      const page = await open('lc_manager', `/video/${idOf('lc1-20261103-081500')}`);
      await page.getByText('Time bounds: 0.00 s – 40.00 s').waitFor();
      await pathLoaded(page);

      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.getByText('Playing…').waitFor();
      expect(await slider(page).isDisabled()).toBe(true);
      await expect.poll(() => mediaTime(page)).toBeGreaterThan(1);
      await page.getByRole('button', { name: 'Pause', exact: true }).click();
      await page.getByText('Playing…').waitFor({ state: 'hidden' });
      expect(await slider(page).isEnabled()).toBe(true);
      // The clock follows the player: the slider shows the paused video's time.
      expect(Math.abs((await sliderValue(page)) - (await mediaTime(page)))).toBeLessThanOrEqual(
        0.05,
      );

      // Drag the slider from a quarter to three quarters of the track.
      const box = await slider(page).boundingBox();
      if (!box) throw new Error('the time slider is not laid out');
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + box.width * 0.25, y);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.75, y, { steps: 10 });
      await page.mouse.up();
      const scrubbed = await sliderValue(page);
      expect(scrubbed).toBeGreaterThan(25);
      expect(scrubbed).toBeLessThan(35);
      await expect
        .poll(async () => Math.abs((await mediaTime(page)) - scrubbed))
        .toBeLessThanOrEqual(0.05);
      expect(await timeText(page).innerText()).toBe(`${scrubbed.toFixed(2)} s`);

      await slider(page).focus();
      await page.keyboard.press('Home');
      await expect.poll(() => mediaTime(page)).toBeLessThanOrEqual(0.05);
      expect(await timeText(page).innerText()).toBe('0.00 s');
    },
    slow,
  );
});

describe('modals', () => {
  test(
    'opens a keyframe from a detection and from the path, and a tag, closing each',
    async () => {
      const page = await open('audit', `/video/${idOf('lc1-20261103-081500')}`);
      await pathLoaded(page);

      // The path player opens the current keyframe (time 0) by Enter on its canvas.
      await page.getByRole('img', { name: 'Floor plan with the inspection path' }).focus();
      await page.keyboard.press('Enter');
      const first = page.getByRole('dialog', { name: 'Keyframe image at 0.000 s' });
      await first.waitFor();
      await first.getByText('No detections for this frame').waitFor();
      await page.keyboard.press('Escape');
      await first.waitFor({ state: 'detached' });

      await detection(page, '8.003').click();
      const frame = page.getByRole('dialog', { name: 'Keyframe image at 8.003 s' });
      await frame.waitFor();
      const image = frame.getByRole('img', { name: 'Keyframe image at 8.003 s' });
      await expect
        .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth))
        .toBe(320);
      expect(await image.getAttribute('src')).toBe('/api/keyframes/lc1-20261103-081500/8.003.png');
      expect(await frame.locator('.va-box').allInnerTexts()).toEqual(['carton 71.8%']);
      await frame.getByRole('button', { name: 'Close' }).filter({ hasText: 'Close' }).click();
      await frame.waitFor({ state: 'detached' });

      await detection(page, '17.339').click();
      await page.getByRole('dialog', { name: 'Keyframe image at 17.339 s' }).waitFor();
      await page.mouse.click(5, 5);
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Thermoformer front, scanned: show details' }).click();
      const tag = page.getByRole('dialog', { name: 'Tag details: Thermoformer front' });
      await tag.waitFor();
      await tag.getByText('Position', { exact: true }).waitFor();
      await tag.getByRole('button', { name: 'Close' }).click();
      await tag.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Thermoformer front, scanned: show details' }).click();
      await tag.waitFor();
      // Settled, the focus inside it: a click outside in the dialog's first moments was missed once.
      await page.waitForFunction(() =>
        document.querySelector('[role="dialog"]')?.contains(document.activeElement),
      );
      await page.mouse.click(5, 5);
      await tag.waitFor({ state: 'detached' });
    },
    slow,
  );
});

describe('keyboard shortcuts', () => {
  test(
    'N/P, [ and ], arrows, J, Space, K and L',
    async () => {
      const page = await open('lc_manager', `/video/${idOf('lc1-20261103-081500')}`);
      await pathLoaded(page);
      await mainDetections(page).getByRole('listitem').first().waitFor();
      await page.getByRole('heading', { level: 1 }).click();
      const current = mainDetections(page).locator('[aria-current="true"]');

      await page.keyboard.press('n');
      await expect.poll(() => current.innerText()).toMatch(/^8\.003 s/);
      expect(await timeText(page).innerText()).toBe('8.00 s');
      await page.keyboard.press('n');
      await expect.poll(() => current.innerText()).toMatch(/^9\.335 s/);
      await page.keyboard.press('p');
      await expect.poll(() => current.innerText()).toMatch(/^8\.003 s/);

      await page.keyboard.press(']');
      await page.getByText('Speed: 1.25×').waitFor();
      await page.keyboard.press('[');
      await page.keyboard.press('[');
      await page.getByText('Speed: 0.75×').waitFor();
      expect(await page.evaluate(() => document.querySelector('video')?.playbackRate)).toBe(0.75);

      // 8.003 s is a keyframe image; the next one is 9.335 s, then back.
      const indicator = page.getByText(/^Keyframe image: \d+ of/);
      const before = await indicator.innerText();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => timeText(page).innerText()).toBe('9.34 s');
      expect(await indicator.innerText()).not.toBe(before);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => timeText(page).innerText()).toBe('8.00 s');
      expect(await indicator.innerText()).toBe(before);
      await page.keyboard.press('j');
      await expect.poll(() => timeText(page).innerText()).toBe('3.00 s');
      await expect.poll(() => mediaTime(page)).toBeCloseTo(3.003, 2);

      await page.keyboard.press(' ');
      await page.getByText('Playing…').waitFor();
      await page.keyboard.press(' ');
      await page.getByText('Playing…').waitFor({ state: 'hidden' });
      await page.keyboard.press('l');
      await page.getByText('Playing…').waitFor();
      await page.keyboard.press('l');
      await page.getByText('Speed: 1×').waitFor();
      await page.keyboard.press('k');
      await page.getByText('Playing…').waitFor({ state: 'hidden' });
    },
    slow,
  );
});

describe('selection by the videoId parameter (spec §4)', () => {
  test(
    'exact id, contained id, fetched by id, and the first video when the fetch fails',
    async () => {
      const target = idOf('lc2-20261118-221500');
      const page = await open('admin', `/video/${target}`);
      await expect.poll(() => currentCard(page).innerText()).toContain('2026-11-18 22:15');
      expect(currentPath(page)).toBe(`/video/${target}`);

      const partial = idOf('lc1-20261110-140500');
      await page.goto(`/video/${partial.slice(0, 12)}`);
      await page.waitForURL(`**/video/${partial}`);
      await expect.poll(() => currentCard(page).innerText()).toContain('2026-11-10 14:05');

      // A video missing from the list answer is fetched by its id.
      const hidden = idOf('lc1-20261103-081500');
      await page.route('**/api/videos', async (route) => {
        const response = await route.fetch();
        const list = (await response.json()) as ListedVideo[];
        await route.fulfill({ response, json: list.filter((video) => video.id !== hidden) });
      });
      const fetched = page.waitForRequest((request) =>
        request.url().endsWith(`/api/videos/${hidden}`),
      );
      await page.goto(`/video/${hidden}`);
      await fetched;
      await expect
        .poll(() => page.locator('video').getAttribute('src'))
        .toBe('/api/videos/lc1-20261103-081500.mp4');
      expect(await cards(page).count()).toBe(5);
      expect(await currentCard(page).count()).toBe(0);
      await page.unroute('**/api/videos');

      // No such video: the first (newest) one is shown, here one whose file has not arrived: it
      // says so, with no player and no path to fetch.
      const asked: string[] = [];
      page.on('request', (request) => asked.push(new URL(request.url()).pathname));
      await page.goto('/video/ffffffffffffffffffffffff');
      await page.waitForURL(`**/video/${notArrivedId}`);
      await expect.poll(() => currentCard(page).innerText()).toContain('2026-11-21 07:00');
      await page.getByText('The video file has not arrived yet', { exact: false }).waitFor();
      await page
        .getByRole('alert')
        .filter({ hasText: 'No path yet: the analysis makes it once the video file has arrived.' })
        .waitFor();
      expect(await page.locator('video').count()).toBe(0);
      expect(asked.filter((url) => url.startsWith(`/api/keyframes/${notArrivedId}`))).toEqual([]);
    },
    slow,
  );

  test(
    "an operator opening another operator's video gets the first of their own",
    async () => {
      const page = await open('operator', `/video/${idOf('lc1-20261110-140500')}`);
      await page.waitForURL(`**/video/${idOf('lc1-20261120-101000')}`);
      await expect.poll(() => cards(page).count()).toBe(3);
      await expect.poll(() => currentCard(page).innerText()).toContain('Tomás Rivera');
    },
    slow,
  );
});

describe('back button by role (spec §2)', () => {
  test.each([
    ['admin', 'Admin Dashboard'],
    ['factory_manager', 'Factory Manager Dashboard'],
    ['lc_manager', 'Line Clearance Manager Dashboard'],
    ['audit', 'Audit Dashboard'],
    ['operator', 'Operator Dashboard'],
  ] as const)(
    '%s goes back to the %s',
    async (role, label) => {
      const page = await open(role, '/video');
      await page.getByText('Video Library', { exact: true }).waitFor();
      await page.getByRole('button', { name: `Back to ${label}` }).click();
      await landedOn(page, demoAccount(role).dashboard);
    },
    slow,
  );
});

describe('accessibility (axe, WCAG 2.2 AA)', () => {
  test(
    'light and dark: no violations without and with a video, and with each modal open',
    async () => {
      const page = await open('lc_manager', '/video');
      await page.getByRole('heading', { name: 'No video selected' }).waitFor();
      expect(await axeViolationsLightAndDark(page, screenshotAs(page, 'video'))).toEqual([]);

      await card(page, 'Blister Line 1', '2026-11-03 08:15').click();
      await pathLoaded(page);
      await mainDetections(page).getByRole('listitem').first().waitFor();
      expect(await axeViolationsLightAndDark(page, screenshotAs(page, 'video-with-id'))).toEqual(
        [],
      );

      await detection(page, '8.003').click();
      await page.getByRole('dialog', { name: 'Keyframe image at 8.003 s' }).waitFor();
      expect(await axeViolationsLightAndDark(page)).toEqual([]);
      await page.keyboard.press('Escape');

      await page
        .getByRole('button', { name: /: show details$/ })
        .first()
        .click();
      await page.getByRole('dialog', { name: /^Tag details: / }).waitFor();
      expect(await axeViolationsLightAndDark(page)).toEqual([]);
    },
    slow,
  );
});
