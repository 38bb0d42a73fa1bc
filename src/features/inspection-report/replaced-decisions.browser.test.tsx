import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { reportFixture } from '../../../tests/web/report-fixture.ts';
import { createPlaybackClock } from '../../components/video-review/playback-clock.ts';
import type { ReplacedDecision } from '../../types/api.ts';
import { DispositionsSection } from './dispositions-section.tsx';
import './inspection-report.css';

afterEach(cleanup);

const confirmed: ReplacedDecision = {
  predictionId: 'e00000000000000000000009',
  disposition: 'confirmed',
  reason: 'Loose debris on the conveyor belt',
  reviewerId: 'b00000000000000000000002',
  reviewerName: 'Sofia Marquez',
  at: '2026-11-20T10:40:00.000Z',
  detection: {
    filename: '8.000.png',
    subfolder: 'keyframes',
    labels: ['carton', 'debris'],
    confs: [0.72, 0.97],
    boxes: [
      [0.1, 0.1, 0.2, 0.2],
      [0.3, 0.3, 0.4, 0.4],
    ],
    time: 8,
    analysisVersion: 'detector 1',
    replacedAt: '2026-11-20T11:00:00.000Z',
  },
};
/** Replaced before detections were kept with their decisions: only the decision is known. */
const older: ReplacedDecision = {
  ...confirmed,
  predictionId: 'e00000000000000000000010',
  disposition: 'dismissed',
  reason: 'Reflection on the guard rail',
  detection: null,
};

describe('decisions on replaced detections, in the dispositions', () => {
  it('shows each with its detection as it was, and goes to its time', async () => {
    const clock = createPlaybackClock();
    await render(
      <DispositionsSection
        report={reportFixture({ replacedDecisions: [confirmed, older] })}
        clock={clock}
        onChanged={() => {}}
      />,
    );
    const part = page.getByRole('region', { name: 'Decisions on replaced detections (2)' });
    await expect.element(part).toBeVisible();
    const items = part.getByRole('listitem');
    const [first, second] = [items.nth(0), items.nth(1)];
    await expect.element(first).toHaveTextContent(
      // Strongest first, as the flag and the PDF say it.
      /^debris 97%, carton 72% at 8\.00 s \(8\.000\.png, analysis detector 1, replaced 2026-11-20 11:00 UTC.*\)Confirmed finding: Loose debris on the conveyor belt \(Sofia Marquez, 2026-11-20 10:40:00 UTC/,
    );
    await expect
      .element(second)
      .toHaveTextContent(
        /^a detection whose details were replaced before they were kept\s*Dismissed as a false positive: Reflection on the guard rail/,
      );
    // Without a time there is nowhere to go.
    await expect.element(second.getByRole('button')).not.toBeInTheDocument();
    await userEvent.click(
      part.getByRole('button', { name: 'Go to debris 97%, carton 72% at 8.00 s' }),
    );
    expect(clock.time).toBe(8);
  });

  it('is absent when every decision is on a current detection', async () => {
    await render(
      <DispositionsSection
        report={reportFixture()}
        clock={createPlaybackClock()}
        onChanged={() => {}}
      />,
    );
    await expect.element(page.getByText('No detections.')).toBeVisible();
    expect(document.body.textContent).not.toContain('Decisions on replaced detections');
  });
});
