// Debian's Chromium driven by the Playwright library (browsers cannot be downloaded here), one per
// test file, with helpers that wait on the page instead of sleeping.
import { type Browser, type BrowserContext, chromium, type Dialog, type Page } from 'playwright';
import { expect } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../support/chromium.ts';

export type Scheme = 'light' | 'dark';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
}

export interface ContextOptions {
  baseUrl: string;
  /** Signed in from the start: the token is in local storage before the app's first script. */
  token?: string;
  /** IANA time zone of the page (e.g. 'UTC' for date filters); the machine's when omitted. */
  timezoneId?: string;
}

export async function newContext(
  browser: Browser,
  options: ContextOptions,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: options.baseUrl,
    // Every page starts light; axeViolationsLightAndDark switches a page to dark and back.
    colorScheme: 'light',
    viewport: { width: 1280, height: 900 },
    timezoneId: options.timezoneId,
  });
  // A page or an element can take many seconds to come on two busy cores; well under the test
  // timeout all the same, so a missing element fails with Playwright's own message.
  context.setDefaultTimeout(30_000);
  if (options.token) {
    await context.addInitScript((token) => {
      localStorage.setItem('accessToken', token);
    }, options.token);
  }
  return context;
}

/** The path (and query) the page is on. */
export function currentPath(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/**
 * Waits until the routed page has rendered its heading. The guard and the landing redirect render
 * only a status line until they decide, so once a heading shows the URL is final.
 */
export async function pageSettled(page: Page): Promise<string> {
  await page.locator('main h1').first().waitFor({ state: 'visible' });
  return currentPath(page);
}

/** Waits for the page to reach `path` and render its heading. */
export async function landedOn(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path);
  await pageSettled(page);
}

export type ToastSeverity = 'success' | 'info' | 'warn' | 'error';

/** Waits for a toast of this severity with this title and detail text. */
export async function expectToast(
  page: Page,
  severity: ToastSeverity,
  title: string,
  detail: string,
): Promise<void> {
  const toast = page
    .locator(`.toast.toast-${severity}`)
    .filter({ has: page.getByText(title, { exact: true }) })
    .filter({ has: page.getByText(detail, { exact: true }) });
  await toast.first().waitFor({ state: 'visible' });
}

/** Signs in through the login screen and waits for the dashboard it leads to. */
export async function signInThroughUi(
  page: Page,
  email: string,
  password: string,
  landing: string,
): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await landedOn(page, landing);
}

/**
 * Runs `action`, which must open a browser confirm dialog; accepts it (the handler is in place
 * before the click, so the page never blocks on it) and answers its text.
 */
export async function acceptConfirm(page: Page, action: () => Promise<void>): Promise<string> {
  const shown = new Promise<Dialog>((resolve) => {
    page.once('dialog', (dialog) => {
      resolve(dialog);
      void dialog.accept();
    });
  });
  await action();
  const dialog = await shown;
  expect(dialog.type()).toBe('confirm');
  return dialog.message();
}
