// Full-page screenshots of every view, in each colour scheme, for people to look at (git-ignored):
// tests/artifacts/screenshots/{light,dark}/<view>.png. Taken where a view is axe-checked.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import type { Scheme } from './browser.ts';
import { repoRoot } from './web-build.ts';

const screenshotDir = path.join(repoRoot, 'tests/artifacts/screenshots');

/** For axeViolationsLightAndDark's `inEach`: the page as it is, saved under the view's name. */
export function screenshotAs(page: Page, view: string): (scheme: Scheme) => Promise<void> {
  return async (scheme) => {
    mkdirSync(path.join(screenshotDir, scheme), { recursive: true });
    await page.screenshot({
      path: path.join(screenshotDir, scheme, `${view}.png`),
      fullPage: true,
    });
  };
}
