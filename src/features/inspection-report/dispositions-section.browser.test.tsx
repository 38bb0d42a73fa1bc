import { useState } from 'react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { LONGWORD } from '../../../tests/web/long-text.ts';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { NO_LONGER_REVIEWABLE } from '../../api/sign-inspection.ts';
import { createPlaybackClock } from '../../components/video-review/playback-clock.ts';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import type { InspectionReport } from '../../types/api.ts';
import { detection, recordBodies } from './detection.fixtures.ts';
import { DispositionsSection } from './dispositions-section.tsx';
import { FlagsPanel } from './flags-panel.tsx';
import './inspection-report.css';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  vi.unstubAllGlobals();
});

/** Under the dismissal's reason field, after any error: the rule of every reason. */
const REASON_HINT = 'At least 3 different words. It is kept with the dismissal in the audit trail.';

/** A signed report: nobody may change a disposition, so each row offers 'Go to' only. */
const signedReport = {
  inspectionId: 'd00000000000000000000001',
  canSign: false,
  detections: [
    detection(1, {
      predictionId: 'e00000000000000000000001',
      disposition: 'dismissed',
      reason:
        'A reflection on the guard, not debris: the same glare shows at this spot on every ' +
        'recording of this line, and the operator walked past the guard twice without stopping',
      reviewerId: 'b00000000000000000000002',
      reviewerName: 'Sofia Marquez',
      at: '2026-11-20T10:40:00.000Z',
    }),
    detection(2, {
      predictionId: 'e00000000000000000000002',
      disposition: 'confirmed',
      reason: '',
      reviewerId: 'b00000000000000000000002',
      reviewerName: 'Sofia Marquez',
      at: '2026-11-20T10:41:00.000Z',
    }),
  ],
  replacedDecisions: [],
} as unknown as InspectionReport;

describe('the dispositions table at 1280 px', () => {
  it('keeps the Actions cell in its row (borders line up) and each time and button on one line', async () => {
    await page.viewport(1280, 900);
    await render(
      <section className="report-page">
        <DispositionsSection
          report={signedReport}
          clock={createPlaybackClock()}
          onChanged={() => {}}
        />
      </section>,
    );
    const goTo = page.getByRole('button', { name: 'Go to 14.792 s' });
    await expect.element(goTo).toBeVisible();

    const row = goTo.element().closest('tr') as HTMLTableRowElement;
    const rowBox = row.getBoundingClientRect();
    for (const cell of Array.from(row.cells)) {
      const box = cell.getBoundingClientRect();
      expect.soft(Math.abs(box.top - rowBox.top), `${cell.textContent} top`).toBeLessThan(1);
      expect
        .soft(Math.abs(box.bottom - rowBox.bottom), `${cell.textContent} bottom`)
        .toBeLessThan(1);
    }

    // One line each: no taller than the line height plus the button's padding and border.
    const lineHeight = (element: Element) =>
      Number.parseFloat(getComputedStyle(element).lineHeight);
    const button = goTo.element();
    const style = getComputedStyle(button);
    const chrome =
      Number.parseFloat(style.paddingTop) +
      Number.parseFloat(style.paddingBottom) +
      Number.parseFloat(style.borderTopWidth) +
      Number.parseFloat(style.borderBottomWidth);
    expect(button.getBoundingClientRect().height).toBeLessThan(lineHeight(button) * 1.5 + chrome);
    const time = row.cells[0] as HTMLTableCellElement;
    const range = document.createRange();
    range.selectNodeContents(time);
    expect(range.getClientRects()).toHaveLength(1);
    expect(time.textContent).toBe('14.792 s');

    // The Disposition column is wide enough for its text to read in a few lines, not a word a line.
    const disposition = row.cells[3] as HTMLTableCellElement;
    expect(disposition.getBoundingClientRect().width).toBeGreaterThan(200);
  });
});

describe('a dismissal reason as typed', () => {
  it('keeps its line breaks and wraps a long word inside the table', async () => {
    await page.viewport(1280, 900);
    try {
      const [first] = signedReport.detections;
      const typed = `Reflection on the guard.\n\n${LONGWORD}`;
      const report = {
        ...signedReport,
        detections: [{ ...first, disposition: { ...first?.disposition, reason: typed } }],
      } as InspectionReport;
      await render(
        <section className="report-page">
          <DispositionsSection report={report} clock={createPlaybackClock()} onChanged={() => {}} />
        </section>,
      );
      const cell = page.getByRole('cell', { name: /^Dismissed as a false positive:/ });
      await expect.element(cell).toBeVisible();
      const lines = [...cell.element().querySelectorAll('.user-text-line')];
      expect(lines.map((line) => line.textContent)).toEqual([
        'Reflection on the guard.',
        '',
        LONGWORD,
      ]);
      const frame = document.querySelector('.report-table-scroll') as HTMLElement;
      expect(frame.scrollWidth).toBeLessThanOrEqual(frame.clientWidth);
    } finally {
      await page.viewport(414, 896);
    }
  });
});

describe('the dispositions table for a keyboard and a screen reader', () => {
  it('is named, and a dismissal without a reason says so at the Reason field', async () => {
    const report = { ...signedReport, canSign: true, detections: [detection(3, null)] };
    await render(
      <DispositionsSection report={report} clock={createPlaybackClock()} onChanged={() => {}} />,
    );
    await expect
      .element(page.getByRole('table', { name: 'Detections and dispositions' }))
      .toBeVisible();
    await userEvent.click(page.getByRole('button', { name: 'Dismiss 16.792 s' }));
    const dialog = page.getByRole('dialog', { name: 'Dismiss as a false positive' });
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    const reason = dialog.getByLabelText('Reason (required)');
    const why =
      'Please give the reason for dismissing this detection, in at least 3 different words';
    const hint = REASON_HINT;
    await expect.element(reason).toHaveFocus();
    await expect.element(reason).toHaveAttribute('aria-invalid', 'true');
    await expect.element(reason).toHaveAccessibleDescription(`${why} ${hint}`);
    // The spec-style warning toast stays.
    expect(toasts.items.map((toast) => toast.detail)).toEqual([why]);
    // A reason of invisible characters only is none, and a direction control is named.
    await reason.fill('\u200b\u3164');
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    await expect.element(reason).toHaveAccessibleDescription(`${why} ${hint}`);
    // Nor is a word or two, as the server answers (QA: 'x' dismissed a 97% debris flag).
    for (const short of ['x', 'glare glare']) {
      await reason.fill(short);
      await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
      await expect.element(reason).toHaveAccessibleDescription(`${why} ${hint}`);
    }
    await reason.fill('Reflection on \u202eAP-2041');
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    await expect
      .element(reason)
      .toHaveAccessibleDescription(
        `Reason (required) contains an invisible direction control (U+202E); type the text without it ${hint}`,
      );
  });
});

describe('a decision over another one than the page shows', () => {
  it('sends a Confirm once however often it is clicked, until the report reloads', async () => {
    const report = { ...signedReport, canSign: true, detections: [detection(1, null)] };
    let answer = () => {};
    const sent: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
      sent.push(String(input));
      return new Promise<Response>((resolve) => {
        answer = () => resolve(new Response('{}', { status: 200 }));
      });
    });
    let reload = () => {};
    // The page's reload, held until the test lets it arrive.
    function Reloading() {
      const [shown, setShown] = useState(report as InspectionReport);
      reload = () => setShown({ ...shown });
      return (
        <DispositionsSection report={shown} clock={createPlaybackClock()} onChanged={() => {}} />
      );
    }
    await render(<Reloading />);
    const confirm = page.getByRole('button', { name: 'Confirm 14.792 s' });
    await userEvent.click(confirm);
    await expect.element(confirm).toHaveAttribute('aria-disabled', 'true');
    // Forced: Playwright waits for an aria-disabled button to be enabled; a person can click it.
    await userEvent.click(confirm, { force: true });
    answer();
    await expect
      .poll(() => toasts.items.map((toast) => toast.detail))
      .toEqual(['Disposition saved']);
    // Saved, but the page still shows the decision before it: a click now would be refused as
    // outdated (QA), so it waits for the reloaded report.
    await userEvent.click(confirm, { force: true });
    await expect.element(confirm).toHaveAttribute('aria-disabled', 'true');
    reload();
    await expect.element(confirm).not.toHaveAttribute('aria-disabled');
    expect(sent).toHaveLength(1);
  });

  it('sends a Confirm once whether it is clicked at the flag or in the table', async () => {
    const report = {
      ...signedReport,
      canSign: true,
      detections: [detection(1, null)],
      flags: [
        {
          kind: 'detection',
          severity: 'high',
          text: 'Detection: debris 81% at 14.79 s',
          time: 14.792,
          ref: 'e00000000000000000000001',
          decision: null,
        },
      ],
    } as InspectionReport;
    const sent: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
      sent.push(String(input));
      return Promise.resolve(new Response('{}', { status: 200 }));
    });
    const clock = createPlaybackClock();
    await render(
      <>
        <FlagsPanel report={report} clock={clock} onChanged={() => {}} />
        <DispositionsSection report={report} clock={clock} onChanged={() => {}} />
      </>,
    );
    await userEvent.click(page.getByRole('button', { name: /^Confirm Detection: debris 81%/ }));
    await expect
      .poll(() => toasts.items.map((toast) => toast.detail))
      .toEqual(['Disposition saved']);
    const inTable = page.getByRole('button', { name: 'Confirm 14.792 s' });
    await expect.element(inTable).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(inTable, { force: true });
    expect(sent).toHaveLength(1);
  });

  it('names the one shown; refused, it says why and the report reloads', async () => {
    const shown = signedReport.detections[0]?.disposition ?? null;
    const report = {
      ...signedReport,
      canSign: true,
      detections: [detection(1, shown)],
    } as InspectionReport;
    const url = `/api/inspections/${report.inspectionId}/dispositions/e00000000000000000000001`;
    const decided =
      'The detection at 14.79 s (debris 81%) was confirmed as a finding by Lee Chan on 2026-11-20 at 10:45 UTC since you opened the report. Review it again, then decide.';
    const routes: Parameters<typeof fakeFetch>[0] = {
      [`PUT ${url}`]: { status: 409, body: { message: decided } },
    };
    vi.stubGlobal('fetch', fakeFetch(routes).fetchImpl);
    const bodies = recordBodies();
    const reloads = vi.fn();
    await render(
      <DispositionsSection report={report} clock={createPlaybackClock()} onChanged={reloads} />,
    );
    await userEvent.click(page.getByRole('button', { name: 'Confirm 14.792 s' }));
    await expect.poll(() => reloads.mock.calls.length).toBe(1);
    expect(toasts.items.map((toast) => toast.detail)).toEqual([
      `Failed to save the disposition: ${decided}`,
    ]);
    expect(bodies).toEqual([
      {
        disposition: 'confirmed',
        reason: '',
        seen: { disposition: 'dismissed', at: '2026-11-20T10:40:00.000Z' },
      },
    ]);

    // In the dismissal's dialog the refusal stays on the screen; the report reloads as it closes.
    routes[`PUT ${url}`] = { status: 404, body: { message: 'Inspection not found' } };
    await userEvent.click(page.getByRole('button', { name: 'Dismiss 14.792 s' }));
    const dialog = page.getByRole('dialog', { name: 'Dismiss as a false positive' });
    const reason = dialog.getByLabelText('Reason (required)');
    await reason.fill('Glare on the guard');
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    await expect
      .element(reason)
      .toHaveAccessibleDescription(
        `Failed to save the disposition: ${NO_LONGER_REVIEWABLE} ${REASON_HINT}`,
      );
    expect(reloads).toHaveBeenCalledTimes(1);
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(reloads).toHaveBeenCalledTimes(2);
  });
});

describe('a decision without an answer', () => {
  // The server may have stored it: the page shows what it has, so a retry does not send the
  // decision it showed before and get a puzzling 409 (QA: 'dismissed … by you').
  it('reloads the report, at once after a Confirm, as its dialog closes after a dismissal', async () => {
    const report = { ...signedReport, canSign: true, detections: [detection(1, null)] };
    const url = `/api/inspections/${report.inspectionId}/dispositions/e00000000000000000000001`;
    vi.stubGlobal('fetch', fakeFetch({ [`PUT ${url}`]: { lost: true } }).fetchImpl);
    const reloads = vi.fn();
    await render(
      <DispositionsSection report={report} clock={createPlaybackClock()} onChanged={reloads} />,
    );
    const lost =
      'Failed to save the disposition: no answer from the server, so it is not known whether this was saved.';
    await userEvent.click(page.getByRole('button', { name: 'Confirm 14.792 s' }));
    await expect.poll(() => reloads.mock.calls.length).toBe(1);
    expect(toasts.items.map((toast) => toast.detail)).toEqual([
      `${lost} The report is reloaded: check the detection's decision before trying again.`,
    ]);

    await userEvent.click(page.getByRole('button', { name: 'Dismiss 14.792 s' }));
    const dialog = page.getByRole('dialog', { name: 'Dismiss as a false positive' });
    const reason = dialog.getByLabelText('Reason (required)');
    await reason.fill('Glare on the guard');
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    await expect
      .element(reason)
      .toHaveAccessibleDescription(
        `${lost} Dismiss again to save the reason shown here: it replaces the one sent if that was saved. Or close this dialog to see the detection's decision. ${REASON_HINT}`,
      );
    expect(reloads).toHaveBeenCalledTimes(1);
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(reloads).toHaveBeenCalledTimes(2);
  });
});

/** The section on `report`, its dismissal dialog open on the detection at 14.792 s. */
async function openDismissal(report: InspectionReport, onChanged: () => void) {
  await render(
    <DispositionsSection report={report} clock={createPlaybackClock()} onChanged={onChanged} />,
  );
  await userEvent.click(page.getByRole('button', { name: 'Dismiss 14.792 s' }));
  return page.getByRole('dialog', { name: 'Dismiss as a false positive' });
}

describe('a dismissal sent again after no answer', () => {
  const report = {
    ...signedReport,
    canSign: true,
    detections: [detection(1, null)],
  } as InspectionReport;
  const put = `PUT /api/inspections/${report.inspectionId}/dispositions/e00000000000000000000001`;
  const read = `GET /api/reports/${report.inspectionId}`;
  /** The report as the server has it now, its detection decided by `by`. */
  const storedAs = (reason: string, by: { id: string; name: string }, disposition = 'dismissed') =>
    ({
      ...report,
      detections: [
        detection(1, {
          predictionId: 'e00000000000000000000001',
          disposition: disposition as 'dismissed',
          reason,
          reviewerId: by.id,
          reviewerName: by.name,
          at: '2026-11-20T10:50:00.000Z',
        }),
      ],
    }) as InspectionReport;
  const me = { id: 'b00000000000000000000002', name: 'Sofia Marquez' };
  /** The dismissal sent again naming the decision the page showed (none). */
  const asShown = { disposition: 'dismissed', reason: 'Glare on the guard', seen: null };

  /** The dialog after a dismissal with `reason` got no answer; `routes` answer what follows. */
  async function unanswered(reason: string) {
    signIn('token', { ...me, email: 's@example.com', roles: ['lc_manager'] });
    onTestFinished(signOut);
    const routes: Parameters<typeof fakeFetch>[0] = { [put]: { lost: true } };
    const { fetchImpl, calls } = fakeFetch(routes);
    vi.stubGlobal('fetch', fetchImpl);
    const bodies = recordBodies();
    const changed = vi.fn();
    const dialog = await openDismissal(report, changed);
    const field = dialog.getByLabelText('Reason (required)');
    await field.fill(reason);
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    await expect
      .element(field)
      .toHaveAccessibleDescription(/^Failed to save the disposition: no answer/);
    toasts.items = [];
    return { routes, calls, bodies, changed, dialog, field };
  }

  it('saves the reason the dialog holds now, replacing the one sent that did arrive', async () => {
    const { routes, bodies, changed, dialog, field } = await unanswered('Glare on the guard');
    // The first one was stored; its answer was lost on the way.
    routes[read] = { body: storedAs('Glare on the guard', me) };
    routes[put] = { body: {} };
    await field.fill('Glare on the guard rail, not debris');
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    await expect.poll(() => page.getByRole('dialog').query()).toBeNull();
    expect(bodies.at(-1)).toEqual({
      disposition: 'dismissed',
      reason: 'Glare on the guard rail, not debris',
      seen: { disposition: 'dismissed', at: '2026-11-20T10:50:00.000Z' },
    });
    expect(toasts.items.map((toast) => toast.detail)).toEqual(['Disposition saved']);
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('sends nothing again when the reason sent is stored and unchanged', async () => {
    const { routes, calls, changed, dialog } = await unanswered('Glare on the guard ');
    routes[read] = { body: storedAs('Glare on the guard', me) };
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    await expect.poll(() => page.getByRole('dialog').query()).toBeNull();
    expect(calls).toEqual([put, read]);
    expect(toasts.items.map((toast) => toast.detail)).toEqual(['Disposition saved']);
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('sends it as before when the first did not arrive', async () => {
    const { routes, bodies, dialog } = await unanswered('Glare on the guard');
    routes[read] = { body: report };
    routes[put] = { body: {} };
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    await expect.poll(() => page.getByRole('dialog').query()).toBeNull();
    expect(bodies.at(-1)).toEqual(asShown);
  });

  it('replaces no other decision stored meanwhile: the server refuses, the dialog says why', async () => {
    const { routes, bodies, dialog, field } = await unanswered('Glare on the guard');
    // Another reviewer confirmed it; the dismissal sent never arrived.
    routes[read] = {
      body: storedAs('', { id: 'b00000000000000000000009', name: 'Lee Chan' }, 'confirmed'),
    };
    const decided =
      'The detection at 14.79 s (debris 81%) was confirmed as a finding by Lee Chan on 2026-11-20 at 10:50 UTC since you opened the report. Review it again, then decide.';
    routes[put] = { status: 409, body: { message: decided } };
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    await expect
      .element(field)
      .toHaveAccessibleDescription(`Failed to save the disposition: ${decided} ${REASON_HINT}`);
    expect(bodies.at(-1)).toEqual(asShown);
  });

  it('sends nothing while the server is still out of reach, and says so', async () => {
    const { routes, calls, dialog, field } = await unanswered('Glare on the guard');
    routes[read] = { lost: true };
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    await expect
      .element(field)
      .toHaveAccessibleDescription(
        `Failed to save the disposition: the server could not be reached. Check the connection and try again. ${REASON_HINT}`,
      );
    expect(calls).toEqual([put, read]);
  });
});

describe('a dismissal from the table', () => {
  it('takes a common reason in one click, as at a flag (one dialog for both)', async () => {
    const report = { ...signedReport, canSign: true, detections: [detection(1, null)] };
    const url = `/api/inspections/${report.inspectionId}/dispositions/e00000000000000000000001`;
    vi.stubGlobal('fetch', fakeFetch({ [`PUT ${url}`]: { body: {} } }).fetchImpl);
    const bodies = recordBodies();
    const changed = vi.fn();
    const dialog = await openDismissal(report, changed);
    const reasons = dialog.getByRole('group', { name: 'Common reasons' });
    await userEvent.click(
      reasons.getByRole('radio', { name: /^Part of the line’s fixed equipment/ }),
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss' }));
    await expect.poll(() => changed.mock.calls.length).toBe(1);
    expect(bodies).toEqual([
      {
        disposition: 'dismissed',
        reason: 'Part of the line’s fixed equipment (guard, rail, sensor, fixing)',
        seen: null,
      },
    ]);
    expect(toasts.items.map((toast) => toast.detail)).toEqual(['Disposition saved']);
  });
});
