import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { cleanup, fakeFetch, render } from '../../tests/web/render.tsx';
import type { Flag, InspectionReport } from '../types/api.ts';
import { SigningDialog } from './signing-dialog.tsx';

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

const id = 'd00000000000000000000001';
const flag = (over: Partial<Flag>): Flag => ({
  kind: 'zone',
  severity: 'critical',
  text: 'Hot zone not visited',
  time: 1,
  ref: '0',
  decision: null,
  ...over,
});

async function open(decision: 'approve' | 'reject', report: object | null) {
  const fake = fakeFetch(report ? { [`GET /api/reports/${id}`]: { body: report } } : {});
  vi.stubGlobal('fetch', fake.fetchImpl);
  await render(
    <SigningDialog inspectionId={id} decision={decision} onClose={() => {}} onSigned={() => {}} />,
  );
  return fake.calls;
}

describe('SigningDialog', () => {
  it('cannot approve without a verified video, and says why', async () => {
    await open('approve', {
      approvalBlocker: 'No video: nothing was recorded or submitted for this inspection',
      flags: [],
    });
    const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
    await expect
      .element(dialog.getByRole('alert'))
      .toHaveTextContent(
        'No video: nothing was recorded or submitted for this inspection. It cannot be approved as clear, only rejected.',
      );
    await expect.element(dialog.getByRole('button', { name: 'Sign and approve' })).toBeDisabled();
  });

  it('names the open critical and high flags and the undecided detections it would sign over', async () => {
    await open('approve', {
      approvalBlocker: null,
      flags: [
        flag({ text: 'Hot zone not visited: Sealer (critical)' }),
        flag({ kind: 'tag', severity: 'high', text: 'Tag not scanned: Feeder' }),
        flag({ kind: 'detection', severity: 'high', text: 'Detection: tool 91%', ref: 'p1' }),
        flag({ kind: 'detection', severity: 'high', text: 'Detection: label 80%', ref: 'p2' }),
        flag({
          kind: 'detection',
          severity: 'high',
          text: 'Detection: carton 70%',
          ref: 'p3',
          decision: 'dismissed',
        }),
        flag({ kind: 'gap', severity: 'medium', text: 'Gap in the path', ref: null }),
      ],
    });
    const warning = page.getByRole('dialog').getByRole('alert');
    await expect.element(warning).toHaveTextContent('4 critical or high flags are open:');
    await expect.element(warning).toHaveTextContent('Hot zone not visited: Sealer (critical)');
    await expect.element(warning).toHaveTextContent('…and 1 more');
    await expect
      .element(warning)
      .toHaveTextContent(
        '2 flagged detections have no decision yet (confirm or dismiss each on the report).',
      );
    expect(warning.element().textContent).not.toContain('carton');
    await expect.element(page.getByRole('button', { name: 'Sign and approve' })).not.toBeDisabled();
  });

  it('uses the report its caller holds instead of asking for it again', async () => {
    const fake = fakeFetch({});
    vi.stubGlobal('fetch', fake.fetchImpl);
    const report = { approvalBlocker: 'No video: nothing was recorded', flags: [] };
    await render(
      <SigningDialog
        inspectionId={id}
        decision="approve"
        report={report as unknown as InspectionReport}
        onClose={() => {}}
        onSigned={() => {}}
      />,
    );
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('No video: nothing was recorded');
    expect(fake.calls).toEqual([]);
  });

  it('shows no warning when nothing is open, and a rejection reads no report', async () => {
    await open('approve', {
      approvalBlocker: null,
      flags: [flag({ decision: null, severity: 'low' })],
    });
    await expect.element(page.getByRole('button', { name: 'Sign and approve' })).toBeVisible();
    expect(page.getByRole('alert').query()).toBeNull();
    await cleanup();
    const calls = await open('reject', null);
    await expect.element(page.getByRole('dialog', { name: 'Reject inspection' })).toBeVisible();
    expect(calls).toEqual([]);
  });
});
