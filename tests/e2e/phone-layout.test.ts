// A 390 px phone (390×844) on the demo data: no page scrolls sideways, forms stay inside their
// cards, the toolbar keeps one row, tables that are wider than the screen say so (hint, named
// focusable scroll region), the video page's one Detections list in one column, axe
// (WCAG 2.2 AA) light and dark. Also the ways in and out that a QA pass found missing: the Audit
// Dashboard link on the managers' and the admin's dashboards, an unknown URL, a malformed
// inspection id.
import type { BrowserContext, Page } from 'playwright';
import { describe, expect, test } from 'vitest';
import { axeViolationsLightAndDark } from './support/axe.ts';
import { landedOn, newContext } from './support/browser.ts';
import type { Role } from './support/demo.ts';
import { setUpE2e } from './support/fixture.ts';

const e2e = setUpE2e();

const phone = { width: 390, height: 844 };
const hint = 'Scroll sideways for more columns';

const contexts = new Map<string, Promise<BrowserContext>>();
function contextFor(role: Role): Promise<BrowserContext> {
  let context = contexts.get(role);
  if (!context) {
    context = (async () =>
      newContext(e2e.browser, {
        baseUrl: e2e.server.baseUrl,
        token: await e2e.tokenFor(role),
      }))();
    contexts.set(role, context);
  }
  return context;
}

/** Opens `url` at phone size and waits for the page's heading and its data. */
async function openOnPhone(role: Role, url: string): Promise<Page> {
  const page = await (await contextFor(role)).newPage();
  await page.setViewportSize(phone);
  await page.goto(url);
  await landedOn(page, new URL(url, e2e.server.baseUrl).pathname);
  await page.waitForFunction(() => {
    const text = document.body.textContent ?? '';
    return !/Loading…|Loading the report…|Restoring your session…/.test(text);
  });
  return page;
}

interface Layout {
  pageWidth: number;
  /** Vertical centres of the toolbar's controls (logo, theme, guide, admin panel, account). */
  toolbarCentres: number[];
  /** Every table frame: wider than it shows, and what it then says about itself. */
  tables: { scrolls: boolean; region: boolean; name: string; tabIndex: number; hint: boolean }[];
  /** Form controls and buttons sticking out of their card (px). */
  outOfCard: string[];
}

function layoutOf(page: Page): Promise<Layout> {
  return page.evaluate((hintText) => {
    const toolbar = [
      ...document.querySelectorAll('.toolbar .logo, .toolbar-actions > *'),
    ] as HTMLElement[];
    const tables = [...document.querySelectorAll('.report-table-scroll')].map((frame) => {
      const element = frame as HTMLElement;
      const shown = element.closest('.table-scroll')?.querySelector('.table-scroll-hint');
      return {
        scrolls: element.scrollWidth > element.clientWidth + 1,
        region: element.getAttribute('role') === 'region',
        name: element.getAttribute('aria-label') ?? '',
        tabIndex: element.tabIndex,
        hint: shown?.textContent?.startsWith(hintText) ?? false,
      };
    });
    const outOfCard = [...document.querySelectorAll('.card input, .card select, .card .btn')]
      // Controls inside a table's own scroll frame are meant to be scrolled to.
      .filter((control) => !control.closest('.report-table-scroll'))
      .filter((control) => {
        const card = control.closest('.card') as HTMLElement;
        const box = control.getBoundingClientRect();
        const cardBox = card.getBoundingClientRect();
        return box.width > 0 && (box.right > cardBox.right + 0.5 || box.left < cardBox.left - 0.5);
      })
      .map((control) => control.outerHTML.slice(0, 80));
    return {
      pageWidth: document.documentElement.scrollWidth,
      toolbarCentres: toolbar.map((element) => {
        const box = element.getBoundingClientRect();
        return Math.round(box.top + box.height / 2);
      }),
      tables,
      outOfCard,
    };
  }, hint);
}

const views: readonly { role: Role; url: string }[] = [
  { role: 'lc_manager', url: '/floorplans' },
  { role: 'admin', url: '/floorplans' },
  { role: 'admin', url: '/admin' },
  { role: 'factory_manager', url: '/factory-manager' },
  { role: 'lc_manager', url: '/lc-manager' },
  { role: 'lc_manager', url: '/reports' },
  { role: 'admin', url: '/reports' },
  { role: 'audit', url: '/audit' },
  { role: 'admin', url: '/audit' },
  { role: 'lc_manager', url: '/inspection-report/{inspectionId}' },
  { role: 'admin', url: '/no-such-page' },
];

const urlOf = (url: string) => url.replace('{inspectionId}', e2e.params.inspectionId);

describe.concurrent('a 390 px phone', () => {
  test.each(views)(
    '$role $url: no sideways page, one toolbar row, tables say they scroll',
    async ({ role, url }) => {
      const page = await openOnPhone(role, urlOf(url));
      const layout = await layoutOf(page);
      await page.close();
      expect(layout.pageWidth).toBeLessThanOrEqual(phone.width);
      expect(layout.outOfCard).toEqual([]);
      expect(
        Math.max(...layout.toolbarCentres) - Math.min(...layout.toolbarCentres),
        'toolbar controls on one row',
      ).toBeLessThanOrEqual(1);
      for (const table of layout.tables) {
        if (table.scrolls) {
          expect(table).toMatchObject({ region: true, tabIndex: 0, hint: true });
          expect(table.name).not.toBe('');
        } else {
          expect(table).toMatchObject({ region: false, hint: false });
        }
      }
    },
  );

  test.each(['/reports', '/audit'])(
    '%s: the report table scrolls to its Open/PDF column',
    async (url) => {
      const page = await openOnPhone('lc_manager', url);
      // The table's own scroll region (on /audit each table also sits in a section named alike).
      const region = page.locator('.report-table-scroll[role="region"][tabindex="0"]').first();
      // Waited for, not sampled: the frame becomes a region once it has measured its table,
      // which on /audit can be after the loading texts are gone (CI once sampled it too early).
      await region.waitFor({ state: 'visible' });
      await page.getByText(hint).first().waitFor({ state: 'visible' });
      await region.focus();
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => (document.activeElement?.scrollLeft ?? 0) > 0);
      // The row's PDF link is reached by scrolling the table, not the page.
      const pdf = region.getByRole('link', { name: /^PDF of report/ }).first();
      await pdf.scrollIntoViewIfNeeded();
      const [box, frame] = await Promise.all([pdf.boundingBox(), region.boundingBox()]);
      const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      await page.close();
      expect(box && frame && box.x + box.width - (frame.x + frame.width)).toBeLessThanOrEqual(1);
      expect(pageWidth).toBeLessThanOrEqual(phone.width);
    },
  );

  test('/video/{id}: one Detections list in one column, with a mouse too', async () => {
    // A demo video with detections: the wide layout's sidebar holds a second list.
    const videos = await e2e.admin.get<{ id: string; filename: string }[]>('/api/videos');
    const video = videos.find((candidate) => candidate.filename === 'lc1-20261103-081500.mp4');
    if (!video) throw new Error('the demo data has no video lc1-20261103-081500');
    const page = await openOnPhone('lc_manager', `/video/${video.id}`);
    // The sidebar is made once the detections are in; stacked under the main list, it was the same
    // items twice (QA, at 1024 px with a mouse).
    await page.locator('.va-right').waitFor({ state: 'attached' });
    const main = await page.locator('.va-main .va-detections').boundingBox();
    const sidebarShown = await page.locator('.va-right').isVisible();
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    await page.close();
    expect(pageWidth).toBeLessThanOrEqual(phone.width);
    expect(main?.width).toBeGreaterThan(300);
    expect(sidebarShown).toBe(false);
  });

  test('/video/{id} on a touch phone: the slider has a row of its own, no list twice, 44 px buttons', async () => {
    const videos = await e2e.admin.get<{ id: string; filename: string }[]>('/api/videos');
    const video = videos.find((candidate) => candidate.filename === 'lc1-20261103-081500.mp4');
    if (!video) throw new Error('the demo data has no video lc1-20261103-081500');
    // A phone's own browser: touch, so `pointer: coarse` holds.
    const context = await e2e.browser.newContext({
      baseURL: e2e.server.baseUrl,
      viewport: phone,
      hasTouch: true,
      isMobile: true,
    });
    const token = await e2e.tokenFor('lc_manager');
    await context.addInitScript((value) => localStorage.setItem('accessToken', value), token);
    try {
      const page = await context.newPage();
      await page.goto(`/video/${video.id}`);
      const slider = page.getByRole('slider', { name: 'Time' });
      await slider.waitFor();
      expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
      expect((await slider.boundingBox())?.width).toBeGreaterThan(300);
      expect(await page.locator('.va-right').isVisible()).toBe(false);
      await page.locator('.va-main .va-detections').waitFor();
      const heights = await page
        .locator('main .btn')
        .evaluateAll((buttons) =>
          buttons
            .filter((button) => (button as HTMLElement).offsetParent !== null)
            .map((button) => button.getBoundingClientRect().height),
        );
      expect(heights.length).toBeGreaterThan(0);
      expect(Math.min(...heights)).toBeGreaterThanOrEqual(44);
      // The toolbar's controls too, both ways: the logo, the theme switch, the avatar (gloves).
      const toolbar = await page.locator('header a, header button').evaluateAll((controls) =>
        controls
          .filter((control) => (control as HTMLElement).offsetParent !== null)
          .map((control) => {
            const box = control.getBoundingClientRect();
            return {
              name: control.textContent?.trim() || control.getAttribute('aria-label'),
              width: box.width,
              height: box.height,
            };
          }),
      );
      expect(toolbar.length).toBeGreaterThan(2);
      for (const control of toolbar) {
        expect(
          Math.min(control.width, control.height),
          String(control.name),
        ).toBeGreaterThanOrEqual(44);
      }
    } finally {
      await context.close();
    }
  });

  test('axe light and dark at 390 px with the scroll hints', async () => {
    const failures: Record<string, string[]> = {};
    for (const { role, url } of [
      { role: 'lc_manager' as const, url: '/reports' },
      { role: 'audit' as const, url: '/audit' },
      { role: 'lc_manager' as const, url: '/inspection-report/{inspectionId}' },
      { role: 'lc_manager' as const, url: '/floorplans' },
      { role: 'admin' as const, url: '/no-such-page' },
    ]) {
      const page = await openOnPhone(role, urlOf(url));
      const violations = await axeViolationsLightAndDark(page);
      await page.close();
      if (violations.length > 0) failures[url] = violations;
    }
    expect(failures).toEqual({});
  });
});

describe.concurrent('ways in and out', () => {
  test.each([
    ['admin', '/admin'],
    ['factory_manager', '/factory-manager'],
    ['lc_manager', '/lc-manager'],
  ] as const)('%s: the dashboard links to the Audit Dashboard', async (role, url) => {
    const page = await openOnPhone(role, url);
    await page
      .getByRole('region', { name: 'Quick Actions' })
      .getByRole('link', { name: 'Audit Dashboard' })
      .click();
    await landedOn(page, '/audit');
    const heading = await page.locator('main h1').first().textContent();
    await page.close();
    expect(heading).toBe('Audit Dashboard');
  });

  test('an unknown URL says the page does not exist and leads to the start page', async () => {
    const page = await openOnPhone('operator', '/no-such-page');
    const heading = await page.locator('main h1').first().textContent();
    const notBuilt = await page.getByText('This screen is not built yet').count();
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.close();
    expect(heading).toBe('Page not found');
    expect(notBuilt).toBe(0);
  });

  test('a malformed inspection id reads "Inspection not found"', async () => {
    const page = await openOnPhone('lc_manager', '/inspection-report/nonsense');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = await alert.textContent();
    await page.close();
    expect(text).toBe('Inspection not found');
  });
});
