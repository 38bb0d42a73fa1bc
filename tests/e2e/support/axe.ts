// axe-core against the project's accessibility target, WCAG 2.2 level AA: one tag list and one
// rule set for every axe check in the end-to-end tests, new screens' included.
import axe, { type RunOptions } from 'axe-core';
import type { Page } from 'playwright';
import type { Scheme } from './browser.ts';

/** The success criteria of WCAG 2.0, 2.1 and 2.2 at levels A and AA, as axe tags its rules. */
export const WCAG_22_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe's rules for criteria of those levels that it still calls experimental: a run by tags leaves
 * them out, so they are switched on by name (label-content-name-mismatch is WCAG 2.5.3, label in
 * name: what a speech-input user says must match the accessible name).
 */
const experimentalWcagRules = [
  'label-content-name-mismatch',
  'css-orientation-lock',
  'p-as-heading',
  'table-fake-caption',
  'td-has-header',
];

/** axe.run's options: the tags above and axe's best practices, which the pages already met. */
export const runOptions = {
  runOnly: { type: 'tag', values: [...WCAG_22_AA_TAGS, 'best-practice'] },
  rules: Object.fromEntries(experimentalWcagRules.map((id) => [id, { enabled: true }])),
  // Only violations are reported: skipping the details of passes halves axe's time.
  resultTypes: ['violations'],
} satisfies RunOptions;

/**
 * What axe finds on the page as it is now: one line per rule broken, with where. axe runs in the
 * page itself, injected once per document: @axe-core/playwright injected it again for every check
 * and finished each in a new blank page, about 0.9 s a check before any rule ran.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(
    async (options) =>
      (await (window as unknown as { axe: typeof axe }).axe.run(document, options)).violations.map(
        (violation) => ({
          id: violation.id,
          impact: violation.impact,
          help: violation.help,
          targets: violation.nodes.map((node) => node.target.join(' ')),
        }),
      ),
    runOptions,
  );
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} at ${violation.targets.join(', ')}`,
  );
}

/**
 * axe in the light and then the dark colour scheme, switched on the open page (the app follows
 * the system scheme live): one page load checks both. Each line says its scheme; `inEach` runs in
 * each scheme after its check (a screenshot); the page is left in the light scheme.
 */
export async function axeViolationsLightAndDark(
  page: Page,
  inEach?: (scheme: Scheme) => Promise<void>,
): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    found.push(...(await axeViolations(page)).map((line) => `${colorScheme}: ${line}`));
    await inEach?.(colorScheme);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
