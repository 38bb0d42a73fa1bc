import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { cleanup, fakeFetch, render } from '../../tests/web/render.tsx';
import { toasts } from '../stores/toasts.ts';
import type { Flag, InspectionReport } from '../types/api.ts';
import { SigningDialog } from './signing-dialog.tsx';

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  toasts.items = [];
});

const lastWarning = () => toasts.items.at(-1)?.detail;

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

async function open(
  decision: 'approve' | 'reject',
  report: object | null,
  routes: Parameters<typeof fakeFetch>[0] = {},
  onChanged: () => void = () => {},
) {
  const fake = fakeFetch({
    ...(report ? { [`GET /api/reports/${id}`]: { body: report } } : {}),
    ...routes,
  });
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

  it('asks for a reason to reject: the notes start empty and the spec’s note is not one', async () => {
    const calls = await open('reject', null);
    const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
    const notes = dialog.getByLabelText('Notes (required)');
    await expect.element(notes).toHaveValue('');
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
    expect(calls).toEqual([]);
  });

  it('asks for the password at its field, and forgets the notes’ error once they give a reason', async () => {
    await open('reject', null);
    const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
    const notes = dialog.getByLabelText('Notes (required)');
    const password = dialog.getByLabelText('Password');
    await dialog.getByRole('button', { name: 'Sign and reject' }).click();
    await expect.element(notes).toHaveAttribute('aria-invalid', 'true');
    await notes.fill('Loose tablets under the feeder');
    await dialog.getByRole('button', { name: 'Sign and reject' }).click();
    await expect.element(password).toHaveFocus();
    await expect.element(password).toHaveAttribute('aria-invalid', 'true');
    await expect
      .element(password)
      .toHaveAccessibleDescription('Please enter your password to sign');
    await expect.element(notes).not.toHaveAttribute('aria-invalid');
  });

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
      null,
      { [`PATCH /api/inspections/${id}/reject`]: wrongPassword },
      signed,
    );
    const dialog = page.getByRole('dialog', { name: 'Reject inspection' });
    await dialog.getByLabelText('Notes (required)').fill('Loose tablets under the feeder');
    const password = dialog.getByLabelText('Password');
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
    expect(calls).toEqual([`PATCH /api/inspections/${id}/reject`]);

    // The next try replaces the old message: here it stops at the emptied password.
    await dialog.getByRole('button', { name: 'Sign and reject' }).click();
    await expect.poll(lastWarning).toBe('Please enter your password to sign');
    await expect
      .element(dialog.getByRole('alert'))
      .toHaveTextContent('Please enter your password to sign');
    expect(calls).toHaveLength(1);
  });

  it('says a refusal of the notes at the notes, and keeps the password typed', async () => {
    const calls = await open('reject', null, {
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
    await password.fill('demo-password');
    await dialog.getByRole('button', { name: 'Sign and reject' }).click();
    await expect
      .element(notes)
      .toHaveAccessibleDescription(
        'Notes contains an invisible direction control (U+202E); type the text without it',
      );
    expect(calls).toEqual([]);
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
    expect(calls).toEqual([`PATCH /api/inspections/${id}/reject`]);
  });

  it('on a conflict (signed meanwhile) closes with the server’s reason and has the record reloaded', async () => {
    const changed = vi.fn();
    const closed = vi.fn();
    const message = 'The inspection is already approved by Lee Chan at 2026-03-02 08:40 UTC';
    const fake = fakeFetch({
      [`GET /api/reports/${id}`]: {
        body: { approvalBlocker: null, approvalExceptions: null, flags: [] },
      },
      [`PATCH /api/inspections/${id}/approve`]: { status: 409, body: { message } },
    });
    vi.stubGlobal('fetch', fake.fetchImpl);
    await render(
      <SigningDialog inspectionId={id} decision="approve" onClose={closed} onChanged={changed} />,
    );
    const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
    await dialog.getByLabelText('Password').fill('demo-password');
    await dialog.getByRole('button', { name: 'Sign and approve' }).click();
    await expect.poll(() => closed.mock.calls.length).toBe(1);
    expect(changed).toHaveBeenCalledOnce();
    expect(toasts.items.map((toast) => toast.detail)).toEqual([
      `Failed to approve inspection: ${message}`,
    ]);
  });
});
