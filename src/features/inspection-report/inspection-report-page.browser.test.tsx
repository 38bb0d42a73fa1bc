import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { reportFixture } from '../../../tests/web/report-fixture.ts';
import { reportRow } from '../../../tests/web/report-row.ts';
import { RECORD_CHANGED } from '../../components/signing-dialog.tsx';
import { Toaster } from '../../components/toaster.tsx';
import {
  fakeApi,
  fixtureRoutes,
  configuration as planConfiguration,
  video as planVideo,
  stopFakeApi,
  VIDEO_ID,
} from '../../components/video-review/path-player/path-player.fixtures.ts';
import { paths } from '../../config/paths.ts';
import { accessTokenKey, signIn, signOut } from '../../stores/session.ts';
import { dismissToast, toasts } from '../../stores/toasts.ts';
import type { InspectionReport, ReportRow } from '../../types/api.ts';
import { detection, detectionFlag, recordBodies } from './detection.fixtures.ts';
import InspectionReportPage from './inspection-report-page.tsx';
import { detectionStamp } from './use-disposition.ts';

afterEach(async () => {
  await cleanup();
  await stopFakeApi();
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
});

async function visit(
  id: string,
  routes: Parameters<typeof fakeFetch>[0] = {},
  roles: string[] = ['lc_manager'],
) {
  const { fetchImpl, calls } = fakeFetch(routes);
  vi.stubGlobal('fetch', fetchImpl);
  signIn('token', { id: 'u1', name: 'Sofia', email: 's@example.com', roles });
  const memory = memoryLocation({ path: `/inspection-report/${id}` });
  await render(
    <Router hook={memory.hook}>
      <Route path={paths.inspectionReport}>
        <InspectionReportPage />
      </Route>
    </Router>,
  );
  return calls;
}

describe('inspection report: an id that names no inspection', () => {
  it('says "Inspection not found" for a malformed id, without asking the server', async () => {
    const calls = await visit('nonsense');
    await expect.element(page.getByRole('alert')).toHaveTextContent('Inspection not found');
    expect(page.getByText(/params\.id/).query()).toBeNull();
    expect(calls).toEqual([]);
  });

  it('says "Inspection not found" for a well-formed id the server does not know', async () => {
    const id = '0123456789abcdef01234567';
    const calls = await visit(id, {
      [`GET /api/reports/${id}`]: { status: 404, body: { message: 'Inspection not found' } },
    });
    await expect.element(page.getByRole('alert')).toHaveTextContent('Inspection not found');
    expect(calls).toEqual([`GET /api/reports/${id}`]);
  });
});

const inspectionId = 'd00000000000000000000001';

/** A pending report the signed-in LC manager may sign; no video, so nothing else is fetched. */
const pendingReport = (approvalBlocker: string | null): InspectionReport =>
  reportFixture({ inspectionId, approvalBlocker });

describe('inspection report: Approve while the server would refuse it', () => {
  const blocker =
    'No video: none is linked to this inspection (none was submitted, or it was deleted)';
  const note = `${blocker}: it can only be rejected.`;

  it('is unavailable but reachable by keyboard, says why, and opens nothing; Reject still works', async () => {
    await visit(inspectionId, {
      [`GET /api/reports/${inspectionId}`]: { body: pendingReport(blocker) },
    });
    const approve = page.getByRole('button', { name: 'Approve', exact: true });
    await expect.element(approve).toHaveAttribute('aria-disabled', 'true');
    // Not the `disabled` attribute, which takes a button out of the tab order.
    expect((approve.element() as HTMLButtonElement).disabled).toBe(false);
    await expect.element(approve).toHaveAccessibleDescription(note);
    await expect.element(page.getByText(note)).toBeVisible();

    // Tab from the link before it reaches it (a disabled button would be skipped).
    (page.getByRole('link', { name: 'Download record (JSON)' }).element() as HTMLElement).focus();
    await userEvent.keyboard('{Tab}');
    expect(document.activeElement).toBe(approve.element());
    await userEvent.keyboard('{Enter}');
    await userEvent.click(approve, { force: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(page.getByRole('dialog').query()).toBeNull();

    await userEvent.click(page.getByRole('button', { name: 'Reject', exact: true }));
    await expect.element(page.getByRole('dialog', { name: 'Reject inspection' })).toBeVisible();
  });

  it('is an ordinary button when nothing blocks the approval', async () => {
    await visit(inspectionId, {
      [`GET /api/reports/${inspectionId}`]: { body: pendingReport(null) },
    });
    const approve = page.getByRole('button', { name: 'Approve', exact: true });
    await expect.element(approve).toBeVisible();
    await expect.element(approve).not.toHaveAttribute('aria-disabled');
    await expect.element(approve).not.toHaveAccessibleDescription();
    expect(page.getByText(/it can only be rejected/).query()).toBeNull();
    await userEvent.click(approve);
    await expect.element(page.getByRole('dialog', { name: 'Approve inspection' })).toBeVisible();
  });
});

describe('inspection report: the record’s history', () => {
  it('links the trail’s readers to /audit showing this record’s whole history', async () => {
    await visit(
      inspectionId,
      {
        [`GET /api/reports/${inspectionId}`]: { body: { ...pendingReport(null), canSign: false } },
      },
      ['factory_manager'],
    );
    await expect
      .element(page.getByRole('link', { name: 'Record history' }))
      .toHaveAttribute('href', `/audit?record=${inspectionId}`);
  });

  it('offers no such link to an LC manager, who does not read the trail', async () => {
    await visit(inspectionId, {
      [`GET /api/reports/${inspectionId}`]: { body: pendingReport(null) },
    });
    await expect.element(page.getByRole('link', { name: 'Download PDF' })).toBeVisible();
    // The electronic copy beside the printable one (21 CFR 11.10(b)), for every reader.
    await expect
      .element(page.getByRole('link', { name: 'Download record (JSON)' }))
      .toHaveAttribute('href', `/api/reports/${inspectionId}/record.json`);
    expect(page.getByRole('link', { name: 'Record history' }).query()).toBeNull();
  });
});

describe('inspection report: after a signature', () => {
  const signature = {
    signerId: 'u1',
    signerName: 'Sofia',
    signerEmail: 's@example.com',
    meaning: 'approved' as const,
    statement: 'Approved: the line is clear for the next batch',
    notes: 'Approved by LC Manager',
    signedAt: '2026-11-20T11:00:00.000Z',
    recordHash: 'a'.repeat(64),
  };
  const signedReport = (signerName: string): InspectionReport => ({
    ...pendingReport(null),
    status: 'approved',
    canSign: false,
    signature: { ...signature, signerName },
    unchangedSinceSigning: true,
  });

  /** Signs the pending report with Approve; the report then reads `after` and the PATCH answers `answer`. */
  async function approve(answer: { status?: number; body?: unknown }, after: InspectionReport) {
    const routes: Parameters<typeof fakeFetch>[0] = {
      [`GET /api/reports/${inspectionId}`]: { body: pendingReport(null) },
      [`PATCH /api/inspections/${inspectionId}/approve`]: answer,
    };
    await visit(inspectionId, routes);
    await userEvent.click(page.getByRole('button', { name: 'Approve', exact: true }));
    const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
    await dialog.getByLabelText('User ID').fill('s@example.com');
    await dialog.getByLabelText('Password').fill('demo-password');
    routes[`GET /api/reports/${inspectionId}`] = { body: after };
    await dialog.getByRole('button', { name: 'Sign and approve' }).click();
    // A refusal keeps the dialog open with the server's reason, until it is closed.
    const reason = (answer.body as { message?: string } | undefined)?.message;
    if (reason) {
      await expect.element(dialog.getByRole('alert')).toHaveTextContent(reason);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }
    await expect.poll(() => page.getByRole('dialog').query()).toBeNull();
  }

  it('moves the focus to the new signature, where Approve and Reject were', async () => {
    await approve({ body: {} }, signedReport('Sofia'));
    const block = page.getByRole('region', { name: 'Electronic signature' });
    await expect.element(block.getByText('Sofia (s@example.com)')).toBeVisible();
    expect(page.getByRole('button', { name: 'Approve', exact: true }).query()).toBeNull();
    await expect.element(block).toHaveFocus();
    // The signer's own: the success toast says so, not 'meanwhile'.
    expect(page.getByText(/meanwhile/).query()).toBeNull();
  });

  it('on a 409 (signed by someone else meanwhile) says why, then shows the record as it is', async () => {
    const message = 'The inspection is already approved by Lee Chan';
    await approve({ status: 409, body: { message } }, signedReport('Lee Chan'));
    const block = page.getByRole('region', { name: 'Electronic signature' });
    await expect.element(block.getByText('Lee Chan (s@example.com)')).toBeVisible();
    await expect.element(block).toHaveFocus();
    expect(page.getByRole('button', { name: 'Reject', exact: true }).query()).toBeNull();
    expect(toasts.items.map((toast) => toast.detail)).toContain(
      `Failed to approve inspection: ${message}`,
    );
  });

  it('without an answer (perhaps signed), says to look at the report, which reloads as the dialog closes', async () => {
    const report = `GET /api/reports/${inspectionId}`;
    const routes: Parameters<typeof fakeFetch>[0] = {
      [report]: { body: pendingReport(null) },
      [`PATCH /api/inspections/${inspectionId}/approve`]: { lost: true },
    };
    await visit(inspectionId, routes);
    await userEvent.click(page.getByRole('button', { name: 'Approve', exact: true }));
    const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
    const password = dialog.getByLabelText('Password');
    await dialog.getByLabelText('User ID').fill('s@example.com');
    await password.fill('demo-password');
    // The server signed; its answer was lost on the way.
    await dialog.getByRole('button', { name: 'Sign and approve' }).click();
    await expect
      .element(password)
      .toHaveAccessibleDescription(
        'Failed to approve inspection: no answer from the server, so it is not known whether this was saved. Close this dialog: the report then shows whether it was signed.',
      );
    routes[report] = { body: signedReport('Sofia') };
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const block = page.getByRole('region', { name: 'Electronic signature' });
    await expect.element(block.getByText('Sofia (s@example.com)')).toBeVisible();
    await expect.element(block).toHaveFocus();
    expect(page.getByRole('button', { name: 'Approve', exact: true }).query()).toBeNull();
  });
});

describe('inspection report: a reviewer coming back to the tab', () => {
  const report = `GET /api/reports/${inspectionId}`;
  const signed: InspectionReport = {
    ...pendingReport(null),
    status: 'approved',
    canSign: false,
    signature: {
      signerId: 'b00000000000000000000009',
      signerName: 'Lee Chan',
      signerEmail: 'lee@example.com',
      meaning: 'approved',
      statement: 'Approved: the line is clear for the next batch',
      notes: '',
      signedAt: '2026-11-20T11:00:00.000Z',
      recordHash: 'a'.repeat(64),
    },
    unchangedSinceSigning: true,
  };
  const reads = (calls: string[]) => calls.filter((call) => call === report).length;

  it('sees a signature made meanwhile by another reviewer, the report read at most every 30 s', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const routes: Parameters<typeof fakeFetch>[0] = { [report]: { body: pendingReport(null) } };
    const calls = await visit(inspectionId, routes);
    await expect.element(page.getByRole('button', { name: 'Approve', exact: true })).toBeVisible();
    routes[report] = { body: signed };
    // Back at once (a glance at another tab): not read again.
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('focus'));
    expect(reads(calls)).toBe(1);

    vi.setSystemTime(Date.now() + 31_000);
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('focus'));
    const block = page.getByRole('region', { name: 'Electronic signature' });
    await expect.element(block.getByText('Lee Chan (lee@example.com)')).toBeVisible();
    expect(page.getByRole('button', { name: 'Approve', exact: true }).query()).toBeNull();
    expect(reads(calls)).toBe(2);
  });

  /** Approve focused on the pending report; `back()` returns to the tab 31 s later, signed meanwhile. */
  async function focusedOnApprove() {
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const routes: Parameters<typeof fakeFetch>[0] = { [report]: { body: pendingReport(null) } };
    await visit(inspectionId, routes);
    const approve = page.getByRole('button', { name: 'Approve', exact: true });
    await expect.element(approve).toBeVisible();
    (approve.element() as HTMLElement).focus();
    const back = () => {
      routes[report] = { body: signed };
      vi.setSystemTime(Date.now() + 31_000);
      window.dispatchEvent(new Event('focus'));
    };
    return { approve, back };
  }
  const meanwhile = () => page.getByRole('status').filter({ hasText: /meanwhile/ });
  const signedMeanwhile = 'Lee Chan approved this inspection meanwhile: it is no longer pending.';

  it('moves the focus from an Approve gone with the pending state to the signature, and says why it went', async () => {
    const { approve, back } = await focusedOnApprove();
    expect(meanwhile().query()).toBeNull();
    back();
    const block = page.getByRole('region', { name: 'Electronic signature' });
    await expect.element(block.getByText('Lee Chan (lee@example.com)')).toBeVisible();
    expect(approve.query()).toBeNull();
    await expect.element(block).toHaveFocus();
    await expect.element(meanwhile()).toHaveTextContent(signedMeanwhile);
  });

  it('leaves the focus where a click left it (nowhere), still saying the record was signed', async () => {
    const { back } = await focusedOnApprove();
    // The reader clicks the page's text: the focus leaves Approve for <body>.
    await userEvent.click(page.getByText(`Blister Line 1 · Omar · ${inspectionId}`));
    expect(document.activeElement).toBe(document.body);
    back();
    await expect.element(meanwhile()).toHaveTextContent(signedMeanwhile);
    expect(document.activeElement).toBe(document.body);
  });

  it('after a Confirm without an answer, moves the focus from it to a signature made meanwhile', async () => {
    const flagged = detection(1, null);
    const flag = detectionFlag(flagged);
    const put = `PUT /api/inspections/${inspectionId}/dispositions/${flagged.predictionId}`;
    const routes: Parameters<typeof fakeFetch>[0] = {
      [report]: { body: reportFixture({ detections: [flagged], flags: [flag] }) },
      [put]: { lost: true },
    };
    await visit(inspectionId, routes);
    const confirm = page
      .getByRole('region', { name: /^Flags/ })
      .getByRole('button', { name: `Confirm ${flag.text}` });
    await expect.element(confirm).toBeVisible();
    routes[report] = { body: { ...signed, detections: [flagged], flags: [flag] } };
    await userEvent.click(confirm);
    const block = page.getByRole('region', { name: 'Electronic signature' });
    await expect.element(block.getByText('Lee Chan (lee@example.com)')).toBeVisible();
    expect(confirm.query()).toBeNull();
    await expect.element(block).toHaveFocus();
    await expect.element(meanwhile()).toHaveTextContent(signedMeanwhile);
  });

  it('keeps the report shown, with no alert, when the network is not back yet', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const routes: Parameters<typeof fakeFetch>[0] = { [report]: { body: pendingReport(null) } };
    const calls = await visit(inspectionId, routes);
    const approve = page.getByRole('button', { name: 'Approve', exact: true });
    await expect.element(approve).toBeVisible();
    routes[report] = { lost: true };
    vi.setSystemTime(Date.now() + 31_000);
    window.dispatchEvent(new Event('focus'));
    await expect.poll(() => reads(calls)).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(page.getByRole('alert').query()).toBeNull();
    await expect.element(approve).toBeVisible();
  });

  it('does not reload under an open dialog, where the signer types', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const routes: Parameters<typeof fakeFetch>[0] = { [report]: { body: pendingReport(null) } };
    const calls = await visit(inspectionId, routes);
    await userEvent.click(page.getByRole('button', { name: 'Reject', exact: true }));
    const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
    await dialog.getByLabelText('Notes (required)').fill('Loose tablets under the feeder');
    // Opening it read the report again.
    await expect.poll(() => reads(calls)).toBe(2);
    routes[report] = { body: signed };
    vi.setSystemTime(Date.now() + 31_000);
    window.dispatchEvent(new Event('focus'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reads(calls)).toBe(2);
    await expect
      .element(dialog.getByLabelText('Notes (required)'))
      .toHaveValue('Loose tablets under the feeder');
    expect(dialog.getByRole('alert').query()).toBeNull();
  });
});

describe('inspection report: a record changed since the page loaded it', () => {
  it('shows it as it is now as the signing dialog opens, which then signs nothing', async () => {
    const report = `GET /api/reports/${inspectionId}`;
    const routes: Parameters<typeof fakeFetch>[0] = { [report]: { body: pendingReport(null) } };
    const calls = await visit(inspectionId, routes);
    await expect.element(page.getByRole('button', { name: 'Approve', exact: true })).toBeVisible();
    // Another reviewer decided on a detection meanwhile: the record hashes otherwise.
    routes[report] = { body: { ...pendingReport(null), recordHash: 'e'.repeat(64) } };
    await userEvent.click(page.getByRole('button', { name: 'Approve', exact: true }));
    const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
    await expect.element(dialog.getByRole('alert')).toHaveTextContent(RECORD_CHANGED);
    await expect.element(dialog.getByRole('button', { name: 'Sign and approve' })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('dialog').query()).toBeNull();
    // Loaded, reloaded as the dialog opened, and again as it closed; nothing was signed.
    await expect.poll(() => calls).toEqual([report, report, report]);
  });
});

describe('inspection report: the evidence files', () => {
  const signed: InspectionReport = {
    ...pendingReport(null),
    status: 'approved',
    canSign: false,
    // No video, so that the page fetches nothing else; the check's answers are the server's.
    signature: {
      signerId: 'u2',
      signerName: 'Lee Chan',
      signerEmail: 'lee@example.com',
      meaning: 'approved',
      statement: 'Approved: the line is clear for the next batch',
      notes: 'Approved by LC Manager',
      signedAt: '2026-11-20T11:00:00.000Z',
      recordHash: 'a'.repeat(64),
    },
    unchangedSinceSigning: true,
  };
  const check = {
    inspectionId,
    signed: true,
    video: { sha256: 'c'.repeat(64), state: 'matches' },
    keyframeImages: { state: 'matches', count: 43 },
    checkedAt: '2026-11-21T09:00:00.000Z',
  };
  const url = `GET /api/reports/${inspectionId}/evidence-check`;

  it('checks them on request and says the answer in words', async () => {
    const calls = await visit(inspectionId, {
      [`GET /api/reports/${inspectionId}`]: { body: signed },
      [url]: { body: check },
    });
    const block = page.getByRole('region', { name: 'Electronic signature' });
    await expect.element(block.getByText('Lee Chan (lee@example.com)')).toBeVisible();
    // Hashing a whole video is costly: only on request.
    expect(calls).not.toContain(url);
    await userEvent.click(block.getByRole('button', { name: 'Check evidence files' }));
    await expect
      .element(block.getByRole('status'))
      .toHaveTextContent('The video file and 43 keyframe images match what was signed.');
    expect(calls.filter((call) => call === url)).toHaveLength(1);
  });

  it('says which file differs, and what changed since signing', async () => {
    await visit(inspectionId, {
      [`GET /api/reports/${inspectionId}`]: {
        body: {
          ...signed,
          unchangedSinceSigning: false,
          changedParts: ['the path file', 'the detections'],
        },
      },
      [url]: {
        body: {
          ...check,
          video: { sha256: 'c'.repeat(64), state: 'differs' },
          keyframeImages: { state: 'differs', count: 12 },
        },
      },
    });
    const block = page.getByRole('region', { name: 'Electronic signature' });
    await expect
      .element(block.getByRole('alert'))
      .toHaveTextContent(/Changed since signing: the path file, the detections\.$/);
    await userEvent.click(block.getByRole('button', { name: 'Check evidence files' }));
    await expect
      .element(block.getByRole('status'))
      .toHaveTextContent(
        `The video file does not match its SHA-256 (${'c'.repeat(64)}). The keyframe images differ from those signed.`,
      );
  });
});

describe('inspection report: the page and its sections', () => {
  it('names the page in the tab’s title', async () => {
    await visit(inspectionId, {
      [`GET /api/reports/${inspectionId}`]: { body: pendingReport(null) },
    });
    await expect.element(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(() => document.title).toBe('Inspection Report – Line Clearance');
  });

  it('says how the checklist counts a tag scanned, as the path player does', async () => {
    await visit(inspectionId, {
      [`GET /api/reports/${inspectionId}`]: { body: pendingReport(null) },
    });
    await expect
      .element(page.getByText(/^A tag counts as scanned when its QR code was read/))
      .toHaveTextContent(/or the path passed it; the path player shows both\.$/);
  });

  it('skips the player and the detection lists to the dispositions, focusing their heading', async () => {
    await visit(inspectionId, {
      [`GET /api/reports/${inspectionId}`]: { body: pendingReport(null) },
    });
    await userEvent.click(page.getByRole('link', { name: 'Skip to dispositions' }));
    await expect
      .element(page.getByRole('heading', { name: /^Detections and dispositions/ }))
      .toHaveFocus();
  });
});

describe('inspection report: a video record whose file is not on the server', () => {
  const fileless = (pathMissingReason: string | null): InspectionReport =>
    reportFixture({
      inspectionId,
      approvalBlocker: 'No verified video',
      video: { id: VIDEO_ID, filename: 'a.webm', duration: 9, sha256: null, analysisVersion: null },
      pathMissingReason,
    });

  it.each([
    [null, /^The video file has not arrived from the operator’s device yet/],
    [
      'Recording discarded on the device',
      'No video file: Recording discarded on the device. There is nothing to play.',
    ],
  ])('says so instead of a player that cannot play (reason %s)', async (reason, text) => {
    const calls = await visit(inspectionId, {
      [`GET /api/reports/${inspectionId}`]: { body: fileless(reason) },
      [`GET /api/videos/${VIDEO_ID}`]: { body: planVideo },
    });
    await expect.element(page.getByText(text)).toBeVisible();
    expect(document.querySelector('video')).toBeNull();
    // Nothing was analysed: the empty detection list says why, not 'No detections.'.
    await expect.element(page.getByText('No detections to show: No verified video.')).toBeVisible();
    expect(page.getByText('No detections.', { exact: true }).query()).toBeNull();
    expect(calls.filter((call) => call.includes('keyframes'))).toEqual([]);
  });
});

describe('inspection report: what the checklist and the detections cannot tell', () => {
  it('says no detector looked rather than "No detections", and a tag is not assessable', async () => {
    const note =
      'Object detection was not run (no detector configured): the keyframe images were not checked for leftover items';
    const tag = {
      index: 0,
      name: 'Feeder',
      qrCode: null,
      source: null,
      time: null,
      keyframe: null,
    };
    await visit(inspectionId, {
      [`GET /api/reports/${inspectionId}`]: {
        body: reportFixture({
          inspectionId,
          detectionNote: note,
          checklist: { tags: [{ ...tag, scanned: null }], zones: [] },
        }),
      },
    });
    await expect.element(page.getByText(`${note}.`)).toBeVisible();
    expect(page.getByText('No detections.').query()).toBeNull();
    const row = page.getByRole('row', { name: /^Feeder/ });
    await expect
      .element(row)
      .toHaveTextContent('Not assessable (no scans from the phone, no path)');
    expect((row.element() as HTMLElement).classList.contains('row-flagged')).toBe(false);
  });
});

describe('inspection report: a flagged detection decided at its flag', () => {
  it('confirms it there with one PUT; the report reloads and the flag shows the decision', async () => {
    const flagged = detection(1, null);
    const flag = detectionFlag(flagged);
    const report = `GET /api/reports/${inspectionId}`;
    const put = `PUT /api/inspections/${inspectionId}/dispositions/${flagged.predictionId}`;
    const routes: Parameters<typeof fakeFetch>[0] = {
      [report]: { body: reportFixture({ detections: [flagged], flags: [flag] }) },
      [put]: { body: {} },
    };
    const calls = await visit(inspectionId, routes);
    const bodies = recordBodies();
    const flags = page.getByRole('region', { name: /^Flags/ });
    const confirm = flags.getByRole('button', { name: `Confirm ${flag.text}` });
    await expect.element(confirm).toBeVisible();
    const confirmed = detection(1, {
      predictionId: flagged.predictionId,
      disposition: 'confirmed',
      reason: '',
      reviewerId: 'u1',
      reviewerName: 'Sofia',
      at: '2026-11-20T10:45:00.000Z',
    });
    routes[report] = {
      body: reportFixture({ detections: [confirmed], flags: [detectionFlag(confirmed)] }),
    };
    await userEvent.click(confirm);
    await expect.element(flags.getByText('Confirmed finding', { exact: true })).toBeVisible();
    expect(calls).toEqual([report, put, report]);
    expect(bodies).toEqual([{ disposition: 'confirmed', reason: '', seen: null }]);
    // The table below shows it too, from the same reload.
    await expect
      .element(page.getByRole('cell', { name: /^Confirmed finding \(Sofia/ }))
      .toBeVisible();
  });
});

describe('inspection report: a toast over the end of the page', () => {
  const decisions = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => detection(n, null));
  const last = decisions.at(-1) as (typeof decisions)[number];
  const overlaps = (a: DOMRect, b: DOMRect) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    it(`keeps the last row, scrolled to, clear of the toast its Confirm shows at ${width} × ${height}`, async () => {
      await page.viewport(width, height);
      onTestFinished(() => page.viewport(414, 896));
      const report = `GET /api/reports/${inspectionId}`;
      const put = `PUT /api/inspections/${inspectionId}/dispositions/${last.predictionId}`;
      const { fetchImpl } = fakeFetch({
        [report]: { body: reportFixture({ detections: decisions }) },
        [put]: { body: {} },
      });
      vi.stubGlobal('fetch', fetchImpl);
      signIn('token', { id: 'u1', name: 'Sofia', email: 's@example.com', roles: ['lc_manager'] });
      await render(
        <>
          <Router hook={memoryLocation({ path: `/inspection-report/${inspectionId}` }).hook}>
            <Route path={paths.inspectionReport}>
              <InspectionReportPage />
            </Route>
          </Router>
          <Toaster />
        </>,
      );
      const confirm = page.getByRole('button', { name: `Confirm ${detectionStamp(last)}` });
      await expect.element(confirm).toBeVisible();
      onTestFinished(() => window.scrollTo(0, 0));
      const scroller = document.documentElement;
      expect(scroller.scrollHeight).toBeGreaterThan(height);
      window.scrollTo(0, scroller.scrollHeight);
      const row = (confirm.element() as HTMLElement).closest('tr') as HTMLTableRowElement;
      expect(row.getBoundingClientRect().bottom).toBeLessThanOrEqual(height);
      await userEvent.click(confirm);
      const toast = page.getByRole('status').filter({ hasText: 'Disposition saved' });
      await expect.element(toast).toBeVisible();
      // The room is made as the toast's size is observed, before the next frame is drawn.
      await new Promise(requestAnimationFrame);
      const toastBox = (document.querySelector('.toast') as HTMLElement).getBoundingClientRect();
      const rowBox = row.getBoundingClientRect();
      expect(overlaps(toastBox, rowBox)).toBe(false);
      expect(rowBox.bottom).toBeLessThanOrEqual(toastBox.top);
      // Still where each screen shows toasts: a phone's bottom edge, a desktop's bottom left.
      expect(toastBox.bottom).toBeGreaterThan(height - 40);
      if (width > 600) expect(toastBox.left).toBeLessThan(40);
      // The toast gone, so is the room kept for it.
      for (const item of [...toasts.items]) dismissToast(item.id);
      await expect
        .poll(
          () => getComputedStyle(document.querySelector('.report-page') as Element).paddingBottom,
        )
        .toBe('48px');
    });
  }
});

describe('inspection report: Next pending inspection', () => {
  const nextId = 'd00000000000000000000002';
  /** The list's keyset cursor of the pending report (its start time in ms, then its id). */
  const here = `${Date.parse('2026-11-20T10:10:00.000Z')}_${inspectionId}`;
  const pendingRow = (id: string, operatorId: string, startTime: string): ReportRow => ({
    ...reportRow,
    inspectionId: id,
    operatorId,
    startTime,
    status: 'pending',
    signerName: null,
    signedAt: null,
  });

  /** The report page on `routes`, the list answering `lists` in turn; returns the list URLs asked. */
  async function open(
    routes: Parameters<typeof fakeFetch>[0],
    lists: ReportRow[][],
    roles: string[] = ['lc_manager'],
    ownPassword = true,
  ) {
    const { fetchImpl } = fakeFetch(routes);
    const urls: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (!url.startsWith('/api/reports?')) return fetchImpl(input, init);
      urls.push(url);
      const rows = lists.shift() ?? [];
      return Promise.resolve(
        Response.json({ rows, next: null, total: { count: rows.length, more: false } }),
      );
    });
    signIn('token', { id: 'u1', name: 'Sofia', email: 's@example.com', roles }, ownPassword);
    const memory = memoryLocation({ path: `/inspection-report/${inspectionId}`, record: true });
    await render(
      <Router hook={memory.hook}>
        <Route path={paths.inspectionReport}>
          <InspectionReportPage />
        </Route>
      </Router>,
    );
    return { urls, memory };
  }

  it('opens the oldest pending report after this one that the caller may sign', async () => {
    const { urls, memory } = await open(
      {
        [`GET /api/reports/${inspectionId}`]: { body: pendingReport(null) },
        [`GET /api/reports/${nextId}`]: {
          body: { ...pendingReport(null), inspectionId: nextId, lineName: 'Sachet Line 3' },
        },
        // Its report says the caller may not sign it (its operator's password is the caller's).
        'GET /api/reports/d00000000000000000000008': {
          body: {
            ...pendingReport(null),
            inspectionId: 'd00000000000000000000008',
            canSign: false,
          },
        },
      },
      // The caller's own inspection comes first: an operator cannot sign it; then one it may not.
      [
        [
          pendingRow('d00000000000000000000009', 'u1', '2026-11-20T11:00:00.000Z'),
          pendingRow(
            'd00000000000000000000008',
            'b00000000000000000000003',
            '2026-11-20T11:30:00.000Z',
          ),
          pendingRow(nextId, 'b00000000000000000000001', '2026-11-20T12:00:00.000Z'),
        ],
      ],
    );
    await userEvent.click(page.getByRole('button', { name: 'Next pending inspection' }));
    await expect.element(page.getByText(`Sachet Line 3 · Omar · ${nextId}`)).toBeVisible();
    expect(memory.history.at(-1)).toBe(`/inspection-report/${nextId}`);
    expect(urls).toEqual([`/api/reports?status=pending&sort=startTime&limit=10&after=${here}`]);
  });

  it('after a signature keeps the focus on the signature, and says when none is left', async () => {
    const routes: Parameters<typeof fakeFetch>[0] = {
      [`GET /api/reports/${inspectionId}`]: { body: pendingReport(null) },
      [`PATCH /api/inspections/${inspectionId}/approve`]: { body: {} },
    };
    // None after this one, and from the start only this one (still listed as pending).
    const { urls } = await open(routes, [
      [],
      [pendingRow(inspectionId, 'b00000000000000000000001', '2026-11-20T10:10:00.000Z')],
    ]);
    await userEvent.click(page.getByRole('button', { name: 'Approve', exact: true }));
    const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
    await dialog.getByLabelText('User ID').fill('s@example.com');
    await dialog.getByLabelText('Password').fill('demo-password');
    routes[`GET /api/reports/${inspectionId}`] = {
      body: {
        ...pendingReport(null),
        status: 'approved',
        canSign: false,
        signature: {
          signerId: 'u1',
          signerName: 'Sofia',
          signerEmail: 's@example.com',
          meaning: 'approved',
          statement: 'Approved: the line is clear for the next batch',
          notes: '',
          signedAt: '2026-11-20T11:00:00.000Z',
          recordHash: 'a'.repeat(64),
        },
      },
    };
    await dialog.getByRole('button', { name: 'Sign and approve' }).click();
    const block = page.getByRole('region', { name: 'Electronic signature' });
    await expect.element(block).toHaveFocus();

    const next = page.getByRole('button', { name: 'Next pending inspection' });
    await userEvent.click(next);
    await expect.element(page.getByText('No more pending inspections')).toBeVisible();
    await expect.element(next).toHaveFocus();
    expect(urls).toEqual([
      `/api/reports?status=pending&sort=startTime&limit=10&after=${here}`,
      '/api/reports?status=pending&sort=startTime&limit=10',
    ]);
  });

  it('is not offered to a factory manager, who does not sign', async () => {
    await open(
      {
        [`GET /api/reports/${inspectionId}`]: { body: { ...pendingReport(null), canSign: false } },
      },
      [],
      ['factory_manager'],
    );
    await expect.element(page.getByText(`Blister Line 1 · Omar · ${inspectionId}`)).toBeVisible();
    expect(page.getByRole('button', { name: 'Next pending inspection' }).query()).toBeNull();
  });

  it('is not offered to a signer whose password a manager chose, who may sign none', async () => {
    const { urls } = await open(
      {
        [`GET /api/reports/${inspectionId}`]: { body: { ...pendingReport(null), canSign: false } },
      },
      [[pendingRow(nextId, 'b00000000000000000000001', '2026-11-20T12:00:00.000Z')]],
      ['lc_manager'],
      false,
    );
    await expect.element(page.getByText(`Blister Line 1 · Omar · ${inspectionId}`)).toBeVisible();
    expect(page.getByRole('button', { name: 'Next pending inspection' }).query()).toBeNull();
    expect(urls).toEqual([]);
  });
});

describe('inspection report: the path player and the checklist', () => {
  it('count a tag scanned by its QR code only alike', async () => {
    // The path passes the plan's first tag; the phone read the second's QR code (4.20 s).
    const [onPath, farAway] = planConfiguration.tags;
    const report: InspectionReport = {
      ...pendingReport(null),
      video: {
        id: VIDEO_ID,
        filename: planVideo.filename,
        duration: 10,
        sha256: 'b'.repeat(64),
        analysisVersion: null,
      },
      checklist: {
        tags: [
          { ...checklistTag(0, onPath!), source: 'path', time: 1 },
          { ...checklistTag(1, farAway!), source: 'qr', time: 4.2 },
        ],
        zones: [],
      },
    };
    await fakeApi(
      await fixtureRoutes({
        [`GET /api/reports/${inspectionId}`]: { json: report },
        [`GET /api/videos/${VIDEO_ID}`]: { json: planVideo },
        [`GET /api/predictions/${VIDEO_ID}`]: { json: [] },
      }),
    );
    // The fixture's video file is not served: the player only logs that (spec §8).
    const logged = console.error;
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      if (!String(args[0]).startsWith('Video element error')) logged(...args);
    });
    onTestFinished(() => vi.mocked(console.error).mockRestore());
    // Signed in with the token the path worker's requests are answered for.
    const user = { id: 'u1', name: 'Sofia', email: 's@example.com', roles: ['lc_manager'] };
    signIn(localStorage.getItem(accessTokenKey) ?? '', user);
    await render(
      <Router hook={memoryLocation({ path: `/inspection-report/${inspectionId}` }).hook}>
        <Route path={paths.inspectionReport}>
          <InspectionReportPage />
        </Route>
      </Router>,
    );

    const tags = page.getByRole('table', { name: 'Tags' });
    await expect
      .element(tags.getByRole('row', { name: /^Tag far away/ }))
      .toHaveTextContent(/Yes4\.20 sQR code/);
    const checklistScanned = tags.getByRole('cell', { name: 'Yes', exact: true }).all().length;
    expect(checklistScanned).toBe(2);
    // Loading the path starts its worker: seconds beside the rest of `npm test`.
    await expect
      .element(page.getByRole('heading', { name: `Tags: ${checklistScanned} of 2 scanned` }), {
        timeout: 20_000,
      })
      .toBeVisible();
    await expect
      .element(page.getByRole('button', { name: 'Tag far away, scanned (QR code): show details' }))
      .toBeVisible();
  });
});

/** A checklist row of a plan tag, scanned (the test sets how). */
function checklistTag(
  index: number,
  tag: { name: string; qrCode?: string },
): InspectionReport['checklist']['tags'][number] {
  return {
    index,
    name: tag.name,
    qrCode: tag.qrCode ?? null,
    scanned: true,
    source: null,
    time: null,
    keyframe: null,
  };
}
