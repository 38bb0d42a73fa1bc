// axe-core against the project's accessibility target, WCAG 2.2 level AA: one tag list and one
// rule set for every axe check in the end-to-end tests, new screens' included.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright';

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

/**
 * What axe finds on the page as it is now: one line per rule broken, with where. WCAG 2.2 AA plus
 * axe's best practices, which the pages already met.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // options() replaces every option set before it, the tag list included: it comes first.
  const results = await new AxeBuilder({ page })
    .options({
      // Only violations are reported: skipping the details of passes halves axe's time.
      resultTypes: ['violations'],
      rules: Object.fromEntries(experimentalWcagRules.map((id) => [id, { enabled: true }])),
    })
    .withTags([...WCAG_22_AA_TAGS, 'best-practice'])
    .analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
        .map((node) => node.target.join(' '))
        .join(', ')}`,
  );
}
