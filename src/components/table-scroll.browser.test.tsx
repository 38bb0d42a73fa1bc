import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../tests/web/render.tsx';
import { reportRow } from '../../tests/web/report-row.ts';
import { ReportTable } from './report-table.tsx';
import { TableScroll } from './table-scroll.tsx';

afterEach(async () => {
  await cleanup();
  await page.viewport(414, 896);
});

const hint = 'Scroll sideways for more columns';

const row = reportRow;

function NarrowTable() {
  return (
    <TableScroll label="Parts">
      <table>
        <tbody>
          <tr>
            <td>Part</td>
            <td>Status</td>
          </tr>
        </tbody>
      </table>
    </TableScroll>
  );
}

describe('TableScroll', () => {
  it('on a phone, says the reports table scrolls: hint, edge shadow, focusable named region', async () => {
    await page.viewport(390, 844);
    await render(<ReportTable rows={[row]} roles={['lc_manager']} caption="Inspection reports" />);
    await expect.element(page.getByText(hint)).toBeVisible();
    const region = page.getByRole('region', { name: 'Inspection reports' });
    await expect.element(region).toHaveAttribute('tabindex', '0');
    await expect.element(region).toHaveAccessibleDescription(hint);
    const frame = region.element().parentElement as HTMLElement;
    expect(frame.classList).toContain('table-scroll-more-after');
    expect(frame.classList).not.toContain('table-scroll-more-before');
    // Arrow keys scroll the focused region; the shadow follows which side hides columns.
    const scroller = region.element() as HTMLElement;
    scroller.focus();
    await userEvent.keyboard('{ArrowRight}');
    await expect.poll(() => scroller.scrollLeft).toBeGreaterThan(0);
    await expect.poll(() => frame.classList.contains('table-scroll-more-before')).toBe(true);
    scroller.scrollLeft = scroller.scrollWidth;
    await expect.poll(() => frame.classList.contains('table-scroll-more-after')).toBe(false);
    const open = page
      .getByRole('link', { name: /^Open report/ })
      .element()
      .getBoundingClientRect();
    const box = region.element().getBoundingClientRect();
    expect(open.right).toBeLessThanOrEqual(box.right + 1);
  });

  it('shows no hint and no scroll region when the table fits', async () => {
    await page.viewport(1280, 900);
    await render(<NarrowTable />);
    await expect.element(page.getByText('Part')).toBeVisible();
    expect(page.getByText(hint).query()).toBeNull();
    expect(page.getByRole('region').query()).toBeNull();
    expect(document.querySelector('[tabindex]')).toBeNull();
  });

  it('adds the hint when the screen narrows below the table', async () => {
    await page.viewport(1280, 900);
    await render(<ReportTable rows={[row]} roles={['audit']} caption="Inspection reports" />);
    await expect.element(page.getByRole('link', { name: /^PDF of report/ })).toBeVisible();
    expect(page.getByText(hint).query()).toBeNull();
    await page.viewport(390, 844);
    await expect.element(page.getByText(hint)).toBeVisible();
    await expect.element(page.getByRole('region', { name: 'Inspection reports' })).toBeVisible();
  });
});
