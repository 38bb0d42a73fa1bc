// axe-core (WCAG 2.2 AA, support/axe.ts) on every page, tab and dialog of the web app, in the light
// and the dark colour scheme, with a full-page screenshot of each (support/screenshots.ts). The
// video analysis page is checked in video-analysis.test.ts; the inspection report, /reports and
// /audit in reports.test.ts, where they are in the states those tests build (a signed record).
import type { BrowserContext, Page } from 'playwright';
import { describe, expect, test } from 'vitest';
import { axeViolationsLightAndDark } from './support/axe.ts';
import { landedOn, newContext } from './support/browser.ts';
import type { Role } from './support/demo.ts';
import { setUpE2e } from './support/fixture.ts';
import { screenshotAs } from './support/screenshots.ts';

const e2e = setUpE2e();

interface View {
  name: string;
  /** Who looks at it; null is a signed-out visitor. */
  role: Role | null;
  path: string;
  /** Brings the page into the state to check (a tab, an open dialog). */
  open?: (page: Page) => Promise<void>;
}

const clickTab = (name: string) => async (page: Page) => {
  await page.getByRole('tab', { name }).click();
};

const openDialog = (button: string, dialog: string) => async (page: Page) => {
  await page.getByRole('button', { name: button }).click();
  await page.getByRole('dialog', { name: dialog }).waitFor();
};

const views: readonly View[] = [
  { name: 'start-signed-out', role: null, path: '/' },
  { name: 'login', role: null, path: '/login' },
  { name: 'not-found', role: 'operator', path: '/no-such-page' },
  {
    name: 'start-signed-in',
    role: 'lc_manager',
    path: '/user',
    // The start page with its Quick Actions is what / shows when reached inside the app.
    open: async (page) => {
      await page.getByRole('link', { name: 'Line Clearance: start page' }).click();
      await page.getByRole('heading', { name: 'Quick Actions' }).waitFor();
    },
  },
  { name: 'admin-line-clearances', role: 'admin', path: '/admin' },
  { name: 'admin-users', role: 'admin', path: '/admin', open: clickTab('Users') },
  { name: 'admin-devices', role: 'admin', path: '/admin', open: clickTab('Devices') },
  { name: 'admin-videos', role: 'admin', path: '/admin', open: clickTab('Videos') },
  {
    name: 'admin-create-user-dialog',
    role: 'admin',
    path: '/admin',
    open: async (page) => {
      await clickTab('Users')(page);
      await openDialog('Add New', 'Create New User')(page);
    },
  },
  { name: 'factory-manager', role: 'factory_manager', path: '/factory-manager' },
  { name: 'lc-manager-line-clearances', role: 'lc_manager', path: '/lc-manager' },
  {
    name: 'lc-manager-operators',
    role: 'lc_manager',
    path: '/lc-manager',
    open: clickTab('Operators'),
  },
  {
    name: 'lc-manager-inspections',
    role: 'lc_manager',
    path: '/lc-manager',
    open: clickTab('Inspections'),
  },
  {
    name: 'lc-manager-create-operator-dialog',
    role: 'lc_manager',
    path: '/lc-manager',
    open: async (page) => {
      await clickTab('Operators')(page);
      await openDialog('Add New', 'Create New Operator')(page);
    },
  },
  { name: 'operator', role: 'operator', path: '/operator' },
  { name: 'inspection', role: 'operator', path: '/inspection/{areaId}' },
  { name: 'user', role: 'operator', path: '/user' },
  { name: 'floorplans', role: 'admin', path: '/floorplans' },
  { name: 'analysis', role: 'operator', path: '/analysis' },
  {
    name: 'user-guide-dialog',
    role: 'operator',
    path: '/operator',
    open: openDialog('User Guide', 'User Guide'),
  },
  {
    name: 'profile-dialog',
    role: 'audit',
    path: '/audit',
    open: async (page) => {
      await page.getByRole('button', { name: /: account menu$/ }).click();
      await page.getByRole('menuitem', { name: 'Profile' }).click();
      await page.getByRole('dialog', { name: 'Profile' }).waitFor();
    },
  },
];

/** Waits until no loading or restoring line is left on the page. */
async function dataLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const text = document.body.textContent ?? '';
    return !text.includes('Loading…') && !text.includes('Restoring your session…');
  });
}

// One context per role, shared by that role's views (each view opens its own page).
const contexts = new Map<Role | null, Promise<BrowserContext>>();
function contextFor(role: Role | null): Promise<BrowserContext> {
  let context = contexts.get(role);
  if (!context) {
    context = (async () => {
      const token = role ? await e2e.tokenFor(role) : undefined;
      return newContext(e2e.browser, { baseUrl: e2e.server.baseUrl, token });
    })();
    contexts.set(role, context);
  }
  return context;
}

test('the check finds what it is for, in each scheme', async () => {
  const page = await (await contextFor(null)).newPage();
  await page.setContent(`<html lang="en"><head><title>Check</title><style>
    @media (prefers-color-scheme: dark) { p { color: #333; background: #000 } }
  </style></head><body><main><h1>Check</h1><img src="plan.png">
    <button aria-label="Close">Open now</button><p>Text</p></main></body></html>`);
  const found = (await axeViolationsLightAndDark(page)).map((line) => line.split(' (')[0]);
  await page.close();
  expect(found).toEqual([
    'light: image-alt',
    'light: label-content-name-mismatch',
    'dark: color-contrast',
    'dark: image-alt',
    'dark: label-content-name-mismatch',
  ]);
});

// Each view is loaded once and checked in both schemes: the app follows the system scheme live.
describe.concurrent('accessibility (axe, WCAG 2.2 AA) and screenshots', () => {
  test.each(views)('light and dark $name', async (view) => {
    const page = await (await contextFor(view.role)).newPage();
    const url = view.path.replace(/\{(\w+)\}/, (_, name: keyof typeof e2e.params) =>
      encodeURIComponent(e2e.params[name]),
    );
    await page.goto(url);
    await landedOn(page, new URL(url, e2e.server.baseUrl).pathname);
    await view.open?.(page);
    await dataLoaded(page);
    const violations = await axeViolationsLightAndDark(page, screenshotAs(page, view.name));
    await page.close();
    expect(violations).toEqual([]);
  });
});
