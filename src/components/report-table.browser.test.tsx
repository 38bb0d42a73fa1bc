import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
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
});
