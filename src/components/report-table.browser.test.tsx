import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { LONGWORD, pageWidth } from '../../tests/web/long-text.ts';
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

describe('ReportTable at 390 px', () => {
  /** Whether each word of `cell`'s text sits on one line. */
  const wordsWhole = (cell: Element) => {
    const text = cell.firstChild as Text;
    const range = document.createRange();
    return [...(text.data.matchAll(/\S+/g) ?? [])].every((word) => {
      range.setStart(text, word.index);
      range.setEnd(text, word.index + word[0].length);
      return range.getClientRects().length === 1;
    });
  };

  it('wraps names between words, and breaks only a word longer than a column may be', async () => {
    await page.viewport(390, 844);
    try {
      const sha256 = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
      const hashed = { ...reportRow, inspectionId: 'a'.repeat(24), lineName: sha256 };
      const sachet = { ...reportRow, lineName: 'Sachet Line 4', operatorName: 'Olga Operator' };
      await render(
        <ReportTable rows={[sachet, hashed]} roles={['audit']} caption="Inspection reports" />,
      );
      const line = page.getByRole('cell', { name: 'Sachet Line 4', exact: true }).element();
      expect(wordsWhole(line)).toBe(true);
      expect(
        wordsWhole(page.getByRole('cell', { name: 'Olga Operator', exact: true }).element()),
      ).toBe(true);
      // The hash breaks inside its cell: the table scrolls in its frame, the page does not.
      const hash = page.getByRole('cell', { name: sha256, exact: true }).element();
      expect(hash.scrollWidth).toBeLessThanOrEqual(hash.clientWidth);
      expect(hash.getBoundingClientRect().width).toBeLessThan(300);
      expect(pageWidth()).toBeLessThanOrEqual(390);
    } finally {
      await page.viewport(414, 896);
    }
  });
});
