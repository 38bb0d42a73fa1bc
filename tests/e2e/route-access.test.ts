// Spec §2 route table end to end: every route visited signed out and as each role's demo account,
// each ending where the table and the guard say.
import { describe, expect, test } from 'vitest';
import { newContext, pageSettled } from './support/browser.ts';
import { demoAccounts, expectedLanding, type Role, routeTable, routeUrl } from './support/demo.ts';
import { setUpE2e } from './support/fixture.ts';

const e2e = setUpE2e();

const visitors: readonly (Role | null)[] = [null, ...demoAccounts.map((account) => account.role)];

describe.concurrent('route table × roles', () => {
  test.each(visitors.map((role) => ({ role, name: role ?? 'signed out' })))(
    '$name: every route allowed or redirected as the table says',
    async ({ role }) => {
      const token = role ? await e2e.tokenFor(role) : undefined;
      const context = await newContext(e2e.browser, { baseUrl: e2e.server.baseUrl, token });
      const page = await context.newPage();
      const outcomes: string[] = [];
      const expected: string[] = [];
      for (const rule of routeTable) {
        const url = routeUrl(rule, e2e.params);
        await page.goto(url);
        outcomes.push(`${rule.pattern} → ${await pageSettled(page)}`);
        expected.push(`${rule.pattern} → ${expectedLanding(rule, role, url)}`);
      }
      await context.close();
      expect(outcomes).toEqual(expected);
    },
    // Sixteen full page loads in a row, several visitors at once on a shared 2-core machine.
    120_000,
  );
});
