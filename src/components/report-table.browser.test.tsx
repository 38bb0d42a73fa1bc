import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { LONGWORD } from '../../tests/web/long-text.ts';
import { cleanup, render } from '../../tests/web/render.tsx';
import { reportRow } from '../../tests/web/report-row.ts';
import { ReportTable } from './report-table.tsx';

afterEach(cleanup);

describe('ReportTable', () => {
  it('says beside its status that a signed record changed after signing', async () => {
    const changed = { ...reportRow, inspectionId: 'a'.repeat(24), changedAfterSigning: true };
    await render(
      <ReportTable rows={[reportRow, changed]} roles={['audit']} caption="Inspection reports" />,
    );
    const rows = page.getByRole('row');
    await expect.element(rows.nth(2)).toHaveTextContent(/approved Changed after signing/);
    expect(rows.nth(1).element().textContent).not.toContain('Changed after signing');
  });

  it('links each record to its history on /audit for readers of the trail only', async () => {
    await render(<ReportTable rows={[reportRow]} roles={['audit']} caption="Inspection reports" />);
    await expect
      .element(page.getByRole('link', { name: /^History of report / }))
      .toHaveAttribute('href', `/audit?record=${reportRow.inspectionId}`);
    await cleanup();
    await render(
      <ReportTable rows={[reportRow]} roles={['lc_manager']} caption="Inspection reports" />,
    );
    await expect.element(page.getByRole('link', { name: /^Open report / })).toBeVisible();
    expect(page.getByRole('link', { name: /^History of report / }).query()).toBeNull();
  });
});

describe('ReportTable at 1280 px', () => {
  it('wraps a line, operator or signer named with one long word, keeping every column on screen', async () => {
    await page.viewport(1280, 900);
    try {
      const long = {
        ...reportRow,
        lineName: LONGWORD,
        operatorName: LONGWORD,
        signerName: LONGWORD,
      };
      await render(
        <ReportTable rows={[long, reportRow]} roles={['audit']} caption="Inspection reports" />,
      );
      const pdf = page.getByRole('link', { name: new RegExp(`^PDF of report ${LONGWORD}`) });
      await expect.element(pdf).toBeVisible();
      const frame = document.querySelector('.report-table-scroll') as HTMLElement;
      expect(frame.scrollWidth).toBeLessThanOrEqual(frame.clientWidth);
      expect(pdf.element().getBoundingClientRect().right).toBeLessThanOrEqual(1280);
      // Only the cells with the long word wrap it: the status keeps its one line.
      const range = document.createRange();
      range.selectNodeContents(page.getByText('approved').first().element());
      expect(range.getClientRects()).toHaveLength(1);
    } finally {
      await page.viewport(414, 896);
    }
  });
});
