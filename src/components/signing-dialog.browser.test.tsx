import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, fakeFetch, render } from '../../tests/web/render.tsx';
import { NO_LONGER_REVIEWABLE } from '../api/sign-inspection.ts';
import { toasts } from '../stores/toasts.ts';
import type { Flag, InspectionReport } from '../types/api.ts';
import { RECORD_CHANGED, SigningDialog } from './signing-dialog.tsx';

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  toasts.items = [];
});

const lastWarning = () => toasts.items.at(-1)?.detail;
/** The signer's user ID, typed with the password at every signing. */
const SIGNER = 'lcmanager@example.com';

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

/** A pending report with nothing open, as the dialog fetches it from a card. */
const nothingOpen = { approvalBlocker: null, approvalExceptions: null, flags: [] };
const readReport = `GET /api/reports/${id}`;

async function open(
  decision: 'approve' | 'reject',
  loaded: object,
  routes: Parameters<typeof fakeFetch>[0] = {},
  onChanged: () => void = () => {},
) {
  const fake = fakeFetch({ [readReport]: { body: loaded }, ...routes });
  vi.stubGlobal('fetch', fake.fetchImpl);
  await render(
    <SigningDialog
      inspectionId={id}
      decision={decision}
      onClose={() => {}}
      onChanged={onChanged}
    />,
  );
  return fake.calls;
}

describe('SigningDialog', () => {
  it('cannot approve without a verified video, and says why', async () => {
    await open('approve', {
      approvalBlocker:
        'No video: none is linked to this inspection (none was submitted, or it was deleted)',
      flags: [],
    });
    const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
    await expect
      .element(dialog.getByRole('alert'))
      .toHaveTextContent(
        'No video: none is linked to this inspection (none was submitted, or it was deleted). It cannot be approved as clear, only rejected.',
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
        onChanged={() => {}}
      />,
    );
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('No video: nothing was recorded');
    expect(fake.calls).toEqual([]);
  });

  it('shows no warning when nothing is open, nor on a rejection, which reads the report too', async () => {
    await open('approve', {
      approvalBlocker: null,
      flags: [flag({ decision: null, severity: 'low' })],
    });
    await expect.element(page.getByRole('button', { name: 'Sign and approve' })).toBeVisible();
    expect(page.getByRole('alert').query()).toBeNull();
    await cleanup();
    // A rejection signs over the record as it was when the dialog opened: it reads it too.
    const calls = await open('reject', { ...nothingOpen, flags: [flag({})] });
    await expect.element(page.getByRole('dialog', { name: 'Reject inspection' })).toBeVisible();
    await expect.poll(() => calls).toEqual([readReport]);
    expect(page.getByRole('alert').query()).toBeNull();
  });

  it('asks for a reason to reject: the notes start empty and the spec’s note is not one', async () => {
    const calls = await open('reject', nothingOpen);
    const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
    const notes = dialog.getByLabelText('Notes (required)');
    await expect.element(notes).toHaveValue('');
    await dialog.getByLabelText('User ID').fill(SIGNER);
    await dialog.getByLabelText('Password').fill('demo-password');
    const why = 'Please give the reason for the rejection, in a few words';
    for (const typed of [
      '',
      'ok',
      'not ok!',
      'Rejected by LC Manager',
      'approved by lc manager.',
    ]) {
      await notes.fill(typed);
      await dialog.getByRole('button', { name: 'Sign and reject' }).click();
      await expect.poll(lastWarning).toBe(why);
      toasts.items = [];
      // Said at the notes too (the toast outside the modal is hidden from screen readers), which
      // take the focus.
      await expect.element(notes).toHaveAttribute('aria-invalid', 'true');
      await expect.element(notes).toHaveAccessibleDescription(why);
      await expect.element(notes).toHaveFocus();
      await expect.element(dialog.getByRole('alert')).toHaveTextContent(why);
    }
    expect(calls).toEqual([readReport]);
  });

  it('asks for the password at its field, and forgets the notes’ error once they give a reason', async () => {
    await open('reject', nothingOpen);
    const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
    const notes = dialog.getByLabelText('Notes (required)');
    const password = dialog.getByLabelText('Password');
    await dialog.getByRole('button', { name: 'Sign and reject' }).click();
    await expect.element(notes).toHaveAttribute('aria-invalid', 'true');
    await notes.fill('Loose tablets under the feeder');
    await dialog.getByLabelText('User ID').fill(SIGNER);
    await dialog.getByRole('button', { name: 'Sign and reject' }).click();
    await expect.element(password).toHaveFocus();
    await expect.element(password).toHaveAttribute('aria-invalid', 'true');
    await expect
      .element(password)
      .toHaveAccessibleDescription('Please enter your password to sign');
    await expect.element(notes).not.toHaveAttribute('aria-invalid');
  });

  it('asks for the user ID at its field, first of the two components', async () => {
    const calls = await open('reject', nothingOpen);
    const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
    const userId = dialog.getByLabelText('User ID');
    // An email field the browser fills as the sign-in's user name, marked required.
    await expect.element(userId).toHaveAttribute('type', 'email');
    await expect.element(userId).toHaveAttribute('autocomplete', 'username');
    await expect.element(userId).toBeRequired();
    await dialog.getByLabelText('Notes (required)').fill('Loose tablets under the feeder');
    await dialog.getByLabelText('Password').fill('demo-password');
    for (const typed of ['', '   ']) {
      await userId.fill(typed);
      await dialog.getByRole('button', { name: 'Sign and reject' }).click();
      await expect.poll(lastWarning).toBe('Please enter your user ID to sign');
      toasts.items = [];
      await expect.element(userId).toHaveFocus();
      await expect.element(userId).toHaveAttribute('aria-invalid', 'true');
      await expect.element(userId).toHaveAccessibleDescription('Please enter your user ID to sign');
    }
    expect(calls).toEqual([readReport]);
  });

  it('marks the password required as the user ID, and says it is signing while the signature is on its way', async () => {
    let answer = (_: Response) => {};
    const answered = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    const fake = fakeFetch({ [readReport]: { body: nothingOpen } });
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'PATCH' ? answered : fake.fetchImpl(input, init),
    );
    await render(
      <SigningDialog inspectionId={id} decision="reject" onClose={() => {}} onChanged={() => {}} />,
    );
    const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
    const password = dialog.getByLabelText('Password');
    // Both components of the signature, each marked for the eye and for assistive technology.
    await expect.element(password).toBeRequired();
    for (const label of ['User ID', 'Password']) {
      const field = (dialog.getByLabelText(label).element() as HTMLElement).closest('.field');
      expect(field?.querySelector('.field-required')).not.toBeNull();
    }
    await dialog.getByLabelText('Notes (required)').fill('Loose tablets under the feeder');
    await dialog.getByLabelText('User ID').fill(SIGNER);
    await password.fill('demo-password');
    await dialog.getByRole('button', { name: 'Sign and reject' }).click();
    const signing = dialog.getByRole('button', { name: 'Signing…' });
    await expect.element(signing).toHaveAttribute('aria-disabled', 'true');
    answer(
      Response.json({ message: 'The password is incorrect; nothing was signed' }, { status: 403 }),
    );
    await expect.element(dialog.getByRole('button', { name: 'Sign and reject' })).toBeEnabled();
    expect(signing.query()).toBeNull();
  });

  it.each([
    [403, 'The user ID is not yours: sign with your own user ID and password; nothing was signed'],
    [400, 'body.userId must NOT have more than 320 characters'],
  ])(
    'says the server’s refusal of the user ID (%i) at its field, the password kept',
    async (status, message) => {
      const calls = await open('reject', nothingOpen, {
        [`PATCH /api/inspections/${id}/reject`]: { status, body: { message } },
      });
      const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
      const userId = dialog.getByLabelText('User ID');
      const password = dialog.getByLabelText('Password');
      await dialog.getByLabelText('Notes (required)').fill('Loose tablets under the feeder');
      await userId.fill('lcmanager2@example.com');
      await password.fill('demo-password');
      await dialog.getByRole('button', { name: 'Sign and reject' }).click();
      const said = `Failed to reject inspection: ${message}`;
      await expect.element(userId).toHaveAccessibleDescription(said);
      await expect.element(userId).toHaveAttribute('aria-invalid', 'true');
      await expect.element(userId).toHaveFocus();
      // The spec's toast is still shown; no password was tried, so it stays, and so does Sign.
      expect(toasts.items.map((toast) => toast.detail)).toEqual([said]);
      await expect.element(userId).toHaveValue('lcmanager2@example.com');
      await expect.element(password).toHaveValue('demo-password');
      await expect.element(password).not.toHaveAttribute('aria-invalid');
      await expect.element(dialog.getByRole('button', { name: 'Sign and reject' })).toBeEnabled();
      expect(calls).toEqual([readReport, `PATCH /api/inspections/${id}/reject`]);
    },
  );

  it('asks why the line is clear before approving over open flags and confirmed findings', async () => {
    const calls = await open('approve', {
      approvalBlocker: null,
      approvalExceptions: '2 critical or high flags are open (1 detection confirmed as a finding)',
      flags: [
        flag({ text: 'Hot zone not visited: Sealer (critical)' }),
        flag({
          kind: 'detection',
          severity: 'high',
          text: 'Detection: tool 91%',
          ref: 'p1',
          decision: 'confirmed',
        }),
      ],
    });
    const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
    await expect
      .element(dialog.getByRole('alert'))
      .toHaveTextContent('1 detection is confirmed as a finding.');
    // Named first, and marked.
    await expect
      .element(dialog.getByRole('listitem').first())
      .toHaveTextContent('Detection: tool 91% (confirmed finding)');
    await expect
      .element(dialog.getByRole('alert'))
      .toHaveTextContent('say why in the notes (required).');
    // The spec's note, shown while the report loads, gives way to an empty field.
    await expect.element(dialog.getByLabelText('Notes (required)')).toHaveValue('');
    await dialog.getByLabelText('User ID').fill(SIGNER);
    await dialog.getByLabelText('Password').fill('demo-password');
    await dialog.getByLabelText('Notes (required)').fill('ok');
    await dialog.getByRole('button', { name: 'Sign and approve' }).click();
    await expect
      .poll(lastWarning)
      .toBe(
        'Please say in the notes, in a few words, why the line is clear despite the open flags',
      );
    expect(calls).toEqual([`GET /api/reports/${id}`]);
  });

  it('offers the spec’s note for an approval with nothing open', async () => {
    await open('approve', { approvalBlocker: null, approvalExceptions: null, flags: [] });
    await expect
      .element(page.getByRole('dialog').getByLabelText('Notes', { exact: true }))
      .toHaveValue('Approved by LC Manager');
  });

  it('after a refused signature says why in the dialog, clears the password and focuses it', async () => {
    const signed = vi.fn();
    const wrongPassword = {
      status: 403,
      body: { message: 'The password is incorrect; nothing was signed' },
    };
    const calls = await open(
      'reject',
      nothingOpen,
      { [`PATCH /api/inspections/${id}/reject`]: wrongPassword },
      signed,
    );
    const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
    await dialog.getByLabelText('Notes (required)').fill('Loose tablets under the feeder');
    const password = dialog.getByLabelText('Password');
    await dialog.getByLabelText('User ID').fill(SIGNER);
    await password.fill('wrong-password');
    // With the mouse, as QA did: the disabled submit button used to drop focus to <body>.
    await dialog.getByRole('button', { name: 'Sign and reject' }).click();

    const said = 'Failed to reject inspection: The password is incorrect; nothing was signed';
    await expect.element(dialog.getByRole('alert')).toHaveTextContent(said);
    // The spec's toast is still shown.
    expect(toasts.items.map((toast) => toast.detail)).toEqual([said]);
    await expect.element(password).toHaveValue('');
    await expect.element(password).toHaveFocus();
    // The message is the password field's: marked invalid and described by it.
    await expect.element(password).toHaveAttribute('aria-invalid', 'true');
    await expect.element(password).toHaveAccessibleDescription(said);
    // The notes stay, and the dialog stays open for another try.
    await expect
      .element(dialog.getByLabelText('Notes (required)'))
      .toHaveValue('Loose tablets under the feeder');
    expect(signed).not.toHaveBeenCalled();
    expect(calls).toEqual([readReport, `PATCH /api/inspections/${id}/reject`]);
    // A wrong password is retyped: Sign stays available.
    await expect.element(dialog.getByRole('button', { name: 'Sign and reject' })).toBeEnabled();

    // The next try replaces the old message: here it stops at the emptied password.
    await dialog.getByRole('button', { name: 'Sign and reject' }).click();
    await expect.poll(lastWarning).toBe('Please enter your password to sign');
    await expect
      .element(dialog.getByRole('alert'))
      .toHaveTextContent('Please enter your password to sign');
    expect(calls).toHaveLength(2);
  });

  it('says a refusal of the notes at the notes, and keeps the password typed', async () => {
    const calls = await open('reject', nothingOpen, {
      [`PATCH /api/inspections/${id}/reject`]: {
        status: 400,
        body: {
          message: 'body.notes must give the reason for a rejection (at least 3 different words)',
        },
      },
    });
    const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
    const notes = dialog.getByLabelText('Notes (required)');
    const password = dialog.getByLabelText('Password');
    // A pasted direction control is named before anything is sent.
    await notes.fill('Batch label shows \u202eAP-2041 wrong');
    await dialog.getByLabelText('User ID').fill(SIGNER);
    await password.fill('demo-password');
    await dialog.getByRole('button', { name: 'Sign and reject' }).click();
    await expect
      .element(notes)
      .toHaveAccessibleDescription(
        'Notes contains an invisible direction control (U+202E); type the text without it',
      );
    expect(calls).toEqual([readReport]);
    // The server's refusal of the notes is said there too; the password stays.
    await notes.fill('Loose tablets under the feeder, carton chute not emptied');
    await dialog.getByRole('button', { name: 'Sign and reject' }).click();
    await expect
      .element(notes)
      .toHaveAccessibleDescription(
        'Failed to reject inspection: body.notes must give the reason for a rejection (at least 3 different words)',
      );
    await expect.element(notes).toHaveAttribute('aria-invalid', 'true');
    await expect.element(password).toHaveValue('demo-password');
    expect(calls).toEqual([readReport, `PATCH /api/inspections/${id}/reject`]);
  });

  // Each refusal the server gives a signature: a 409 closed the dialog, its reason only in a 3 s
  // toast that screen readers do not hear while the modal is open.
  it.each([
    [409, 'The inspection is already approved: signed by Lee Chan on 2026-03-02 08:40 UTC'],
    [
      409,
      'The video file does not match its recorded SHA-256 (9f2c…); it cannot be approved as clear, only rejected',
    ],
    [403, 'The operator of an inspection cannot sign it'],
    [403, 'The password is incorrect; nothing was signed'],
  ])('after a %i (%s) stays open and says why, with the notes kept', async (status, message) => {
    const calls: string[] = [];
    const fake = fakeFetch({
      [`GET /api/reports/${id}`]: {
        body: { approvalBlocker: null, approvalExceptions: null, flags: [] },
      },
      [`PATCH /api/inspections/${id}/approve`]: { status, body: { message } },
    });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await render(
      <SigningDialog
        inspectionId={id}
        decision="approve"
        onClose={() => calls.push('closed')}
        onChanged={() => calls.push('changed')}
      />,
    );
    const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
    const notes = dialog.getByLabelText('Notes', { exact: true });
    await expect.element(notes).toHaveValue('Approved by LC Manager');
    await notes.fill('Line walked twice, nothing left');
    const password = dialog.getByLabelText('Password');
    await dialog.getByLabelText('User ID').fill(SIGNER);
    await password.fill('demo-password');
    await dialog.getByRole('button', { name: 'Sign and approve' }).click();

    const said = `Failed to approve inspection: ${message}`;
    await expect.element(dialog.getByRole('alert')).toHaveTextContent(said);
    expect(toasts.items.map((toast) => toast.detail)).toEqual([said]);
    await expect.element(password).toHaveValue('');
    const sign = dialog.getByRole('button', { name: 'Sign and approve' });
    if (status === 409) {
      // Signed or changed meanwhile: a retry would be refused (and audited) again. Sign waits for
      // the record to be reloaded, the reason its description; the focus is on the reason.
      await expect.element(sign).toBeDisabled();
      await expect.element(sign).toHaveAccessibleDescription(said);
      await expect.element(dialog.getByRole('alert')).toHaveFocus();
      await expect.element(password).not.toHaveAttribute('aria-invalid');
      await dialog.getByLabelText('User ID').fill(SIGNER);
      await password.fill('demo-password');
      await userEvent.keyboard('{Enter}');
      await expect.element(sign).toBeDisabled();
    } else {
      // The password is retyped (or another signer signs): Sign stays.
      await expect.element(password).toHaveFocus();
      await expect.element(sign).toBeEnabled();
      await expect.element(sign).not.toHaveAccessibleDescription();
    }
    expect(fake.calls.filter((call) => call.startsWith('PATCH'))).toHaveLength(1);
    await expect.element(notes).toHaveValue('Line walked twice, nothing left');
    // A changed record (409) is reloaded once its reason has been read, as the dialog closes: the
    // report page's reload would take the dialog away.
    expect(calls).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(calls).toEqual(status === 409 ? ['changed', 'closed'] : ['closed']);
  });

  it('has the record reloaded once as it closes after signing', async () => {
    const calls: string[] = [];
    const fake = fakeFetch({
      [readReport]: { body: nothingOpen },
      [`PATCH /api/inspections/${id}/reject`]: { body: {} },
    });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await render(
      <SigningDialog
        inspectionId={id}
        decision="reject"
        onClose={() => calls.push('closed')}
        onChanged={() => calls.push('changed')}
      />,
    );
    const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
    await dialog.getByLabelText('Notes (required)').fill('Loose tablets under the feeder');
    await dialog.getByLabelText('User ID').fill(SIGNER);
    await dialog.getByLabelText('Password').fill('demo-password');
    await dialog.getByRole('button', { name: 'Sign and reject' }).click();
    await expect.poll(() => calls).toEqual(['changed', 'closed']);
    expect(toasts.items.map((toast) => toast.detail)).toEqual(['Inspection rejected successfully']);
  });

  it('after a 404 (the inspection out of the signer’s reach) says so in words, and reloads as it closes', async () => {
    const calls: string[] = [];
    const fake = fakeFetch({
      [readReport]: { body: nothingOpen },
      [`PATCH /api/inspections/${id}/reject`]: {
        status: 404,
        body: { message: 'Inspection not found' },
      },
    });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await render(
      <SigningDialog
        inspectionId={id}
        decision="reject"
        onClose={() => calls.push('closed')}
        onChanged={() => calls.push('changed')}
      />,
    );
    const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
    await dialog.getByLabelText('Notes (required)').fill('Loose tablets under the feeder');
    await dialog.getByLabelText('User ID').fill(SIGNER);
    await dialog.getByLabelText('Password').fill('demo-password');
    await dialog.getByRole('button', { name: 'Sign and reject' }).click();
    const said = `Failed to reject inspection: ${NO_LONGER_REVIEWABLE}`;
    await expect.element(dialog.getByRole('alert')).toHaveTextContent(said);
    expect(toasts.items.map((toast) => toast.detail)).toEqual([said]);
    await expect.element(dialog.getByRole('button', { name: 'Sign and reject' })).toBeDisabled();
    // As after a 409: the reason stays on the screen until the dialog closes, then the caller
    // reloads and shows where things stand.
    expect(calls).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(calls).toEqual(['changed', 'closed']);
  });

  // The request reached the server, which may have signed; the answer was lost (QA: the report
  // page still offered Approve and Reject, and the dialog pointed to a list it does not have).
  it.each([
    [
      'a card',
      undefined,
      "Close this dialog: the inspection's card then shows whether it was signed.",
    ],
    [
      'the report page',
      nothingOpen,
      'Close this dialog: the report then shows whether it was signed.',
    ],
  ])(
    'without an answer, on %s, says where to look and has the record reloaded as it closes',
    async (_, held, check) => {
      const calls: string[] = [];
      const fake = fakeFetch({
        [readReport]: { body: nothingOpen },
        [`PATCH /api/inspections/${id}/reject`]: { lost: true },
      });
      vi.stubGlobal('fetch', fake.fetchImpl);
      await render(
        <SigningDialog
          inspectionId={id}
          decision="reject"
          report={held as InspectionReport | undefined}
          onClose={() => calls.push('closed')}
          onChanged={() => calls.push('changed')}
        />,
      );
      const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
      await dialog.getByLabelText('Notes (required)').fill('Loose tablets under the feeder');
      await dialog.getByLabelText('User ID').fill(SIGNER);
      await dialog.getByLabelText('Password').fill('demo-password');
      await dialog.getByRole('button', { name: 'Sign and reject' }).click();
      const said = `Failed to reject inspection: no answer from the server, so it is not known whether this was saved. ${check}`;
      await expect.element(dialog.getByLabelText('Password')).toHaveAccessibleDescription(said);
      expect(toasts.items.map((toast) => toast.detail)).toEqual([said]);
      expect(calls).toEqual([]);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect(calls).toEqual(['changed', 'closed']);
    },
  );

  describe('what the signer reviewed', () => {
    const held = (recordHash: string) =>
      ({
        approvalBlocker: null,
        approvalExceptions: null,
        flags: [],
        recordHash,
      }) as unknown as InspectionReport;
    /** The report page: it holds a report and may reload it (`reload`) while the dialog is open. */
    let reload: (report: InspectionReport) => void = () => {};
    function ReportPage({ calls }: { calls: string[] }) {
      const [report, setReport] = useState(held('a'.repeat(64)));
      reload = setReport;
      return (
        <SigningDialog
          inspectionId={id}
          decision="approve"
          report={report}
          onClose={() => calls.push('closed')}
          onChanged={() => calls.push('changed')}
        />
      );
    }
    /** The bodies of the calls made, by route. */
    function answering(routes: Parameters<typeof fakeFetch>[0]) {
      const bodies: Record<string, unknown> = {};
      const fake = fakeFetch(routes);
      vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(String(input), window.location.origin);
        if (init?.body) bodies[`${init.method} ${url.pathname}`] = JSON.parse(String(init.body));
        return fake.fetchImpl(input, init);
      });
      return bodies;
    }

    it('signs with the record hash of the report shown as it opened', async () => {
      const bodies = answering({ [`PATCH /api/inspections/${id}/approve`]: { body: {} } });
      const calls: string[] = [];
      await render(<ReportPage calls={calls} />);
      // The caller's reload finds the record as it was: nothing to say.
      reload(held('a'.repeat(64)));
      const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
      await dialog.getByLabelText('User ID').fill(SIGNER);
      await dialog.getByLabelText('Password').fill('demo-password');
      await dialog.getByRole('button', { name: 'Sign and approve' }).click();
      await expect.poll(() => calls).toEqual(['changed', 'closed']);
      expect(bodies[`PATCH /api/inspections/${id}/approve`]).toEqual({
        notes: 'Approved by LC Manager',
        userId: SIGNER,
        password: 'demo-password',
        recordHash: 'a'.repeat(64),
      });
    });

    it('says so when the caller’s reload shows another record, and signs nothing', async () => {
      const bodies = answering({});
      const calls: string[] = [];
      await render(<ReportPage calls={calls} />);
      const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
      await dialog.getByLabelText('User ID').fill(SIGNER);
      await dialog.getByLabelText('Password').fill('demo-password');
      reload(held('b'.repeat(64)));
      await expect.element(dialog.getByRole('alert')).toHaveTextContent(RECORD_CHANGED);
      await expect.element(dialog.getByRole('button', { name: 'Sign and approve' })).toBeDisabled();
      await expect
        .element(dialog.getByRole('button', { name: 'Sign and approve' }))
        .toHaveAccessibleDescription(RECORD_CHANGED);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      // The page reloads again as the dialog closes, so the signer reviews it as it is.
      expect(calls).toEqual(['changed', 'closed']);
      expect(bodies).toEqual({});
    });

    it('signs with the hash of the report it loaded itself (the LC manager’s cards)', async () => {
      const loaded = {
        ...held('c'.repeat(64)),
        approvalExceptions: '1 critical or high flag is open',
        flags: [flag({ text: 'Hot zone not visited: Sealer (critical)' })],
      };
      const bodies = answering({
        [`GET /api/reports/${id}`]: { body: loaded },
        [`PATCH /api/inspections/${id}/approve`]: { body: {} },
      });
      await render(
        <SigningDialog
          inspectionId={id}
          decision="approve"
          onClose={() => {}}
          onChanged={() => {}}
        />,
      );
      const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
      // Its warnings show once it has loaded: what the signer sees is what is signed.
      await expect.element(dialog.getByRole('alert')).toHaveTextContent('Sealer');
      await dialog.getByLabelText('Notes (required)').fill('Sealer checked by hand, nothing left');
      await dialog.getByLabelText('User ID').fill(SIGNER);
      await dialog.getByLabelText('Password').fill('demo-password');
      await dialog.getByRole('button', { name: 'Sign and approve' }).click();
      await expect
        .poll(() => bodies[`PATCH /api/inspections/${id}/approve`])
        .toMatchObject({ recordHash: 'c'.repeat(64) });
    });

    it('signs a rejection with the hash of the report it loaded as it opened (the cards)', async () => {
      const bodies = answering({
        [readReport]: { body: held('d'.repeat(64)) },
        [`PATCH /api/inspections/${id}/reject`]: { body: {} },
      });
      await render(
        <SigningDialog
          inspectionId={id}
          decision="reject"
          onClose={() => {}}
          onChanged={() => {}}
        />,
      );
      const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
      await dialog.getByLabelText('Notes (required)').fill('Loose tablets under the feeder');
      await dialog.getByLabelText('User ID').fill(SIGNER);
      await dialog.getByLabelText('Password').fill('demo-password');
      await dialog.getByRole('button', { name: 'Sign and reject' }).click();
      await expect
        .poll(() => bodies[`PATCH /api/inspections/${id}/reject`])
        .toEqual({
          notes: 'Loose tablets under the feeder',
          userId: SIGNER,
          password: 'demo-password',
          recordHash: 'd'.repeat(64),
        });
    });

    it('signs over the report read as it opened even when Sign is pressed before it arrives', async () => {
      let answer: (body: unknown) => void = () => {};
      const bodies = answering({ [`PATCH /api/inspections/${id}/reject`]: { body: {} } });
      const answered = globalThis.fetch;
      // The report answers when the test says.
      vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
        init?.method === 'GET'
          ? new Promise<Response>((resolve) => {
              answer = (body) => resolve(Response.json(body));
            })
          : answered(input, init),
      );
      await render(
        <SigningDialog
          inspectionId={id}
          decision="reject"
          onClose={() => {}}
          onChanged={() => {}}
        />,
      );
      const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
      await dialog.getByLabelText('Notes (required)').fill('Loose tablets under the feeder');
      await dialog.getByLabelText('User ID').fill(SIGNER);
      await dialog.getByLabelText('Password').fill('demo-password');
      await dialog.getByRole('button', { name: 'Sign and reject' }).click();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(bodies).toEqual({});
      answer(held('e'.repeat(64)));
      await expect
        .poll(() => bodies[`PATCH /api/inspections/${id}/reject`])
        .toMatchObject({ recordHash: 'e'.repeat(64) });
    });
  });
});
