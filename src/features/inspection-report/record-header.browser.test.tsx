import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { reportFixture } from '../../../tests/web/report-fixture.ts';
import { RecordHeader, SignatureBlock } from './record-header.tsx';
import './inspection-report.css';

afterEach(cleanup);

const walk = {
  id: 'c00000000000000000000001',
  filename: 'walk.webm',
  duration: 81.5,
  sha256: 'a'.repeat(64),
  analysisVersion: 'lc-analysis/1',
};
const report = reportFixture({
  video: walk,
  device: { id: 'e00000000000000000000001', name: 'Inspection Tablet TB-02' },
  canSign: false,
});

/** The value the header gives beside `label`. */
function field(container: HTMLElement, label: string): string | null {
  const term = [...container.querySelectorAll('dt')].find((dt) => dt.textContent === label);
  return term?.nextElementSibling?.textContent ?? null;
}

describe('the record header', () => {
  it('names the device the video was recorded on, by name and id', async () => {
    const container = await render(<RecordHeader report={report} />);
    await expect.element(page.getByText('Device', { exact: true })).toBeVisible();
    expect(field(container, 'Device')).toBe('Inspection Tablet TB-02 (e00000000000000000000001)');
  });

  it('says Unknown for a deleted device, and not recorded when the video names none', async () => {
    const deleted = await render(
      <RecordHeader
        report={{ ...report, device: { id: 'e00000000000000000000002', name: null } }}
      />,
    );
    await expect.element(page.getByText('Device', { exact: true })).toBeVisible();
    expect(field(deleted, 'Device')).toBe('Unknown (e00000000000000000000002)');
    await cleanup();
    const none = await render(<RecordHeader report={{ ...report, device: null }} />);
    await expect.element(page.getByText('Device', { exact: true })).toBeVisible();
    expect(field(none, 'Device')).toBe('not recorded');
  });

  it('gives the video’s length in whole seconds, floored, as every other screen does', async () => {
    const container = await render(
      <RecordHeader report={{ ...report, video: { ...walk, duration: 34.78 } }} />,
    );
    await expect.element(page.getByText('Video', { exact: true })).toBeVisible();
    expect(field(container, 'Video')).toBe('walk.webm (34 s)');
  });

  it('gives the server’s receipt time beside the device’s, or says it was not recorded', async () => {
    const received = await render(
      <RecordHeader report={{ ...report, receivedAt: '2026-11-01T09:25:00.000Z' }} />,
    );
    await expect.element(page.getByText('Received by the server', { exact: true })).toBeVisible();
    expect(field(received, 'Received by the server')).toMatch(/^2026-11-01 09:25:00 UTC/);
    await cleanup();
    const older = await render(<RecordHeader report={report} />);
    await expect.element(page.getByText('Received by the server', { exact: true })).toBeVisible();
    expect(field(older, 'Received by the server')).toBe('not recorded');
  });
});

describe('the signature block', () => {
  it('says what a signature by an earlier release does not cover', async () => {
    const note = 'Signed by an earlier release, before the floor plan was kept with signatures.';
    await render(<SignatureBlock report={{ ...report, notCoveredBySignature: note }} />);
    await expect.element(page.getByText(note)).toBeVisible();
  });

  it('says which flags came after a signature made under older report rules', async () => {
    const note = 'Signed under earlier report rules (version 1): its signer did not see the flags.';
    await render(<SignatureBlock report={{ ...report, flagsSinceSigning: note }} />);
    await expect.element(page.getByText(note)).toBeVisible();
  });
});
