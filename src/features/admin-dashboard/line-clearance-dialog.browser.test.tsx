import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { activeLine } from '../../../tests/web/line-fixture.ts';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { Toaster } from '../../components/toaster.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import type { LineClearance } from '../../types/api.ts';
import { LineClearanceDialog } from './line-clearance-dialog.tsx';

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  signOut();
  vi.unstubAllGlobals();
});

/** Bottling Line 2 as the factory manager's page loaded it: active, at version 1. */
const opened: LineClearance = activeLine('c00000000000000000000002', {
  name: 'Bottling Line 2',
  description: 'Filler and capper',
});
const PUT = `PUT /api/line-clearances/${opened._id}`;
const REASON = 'Capper replaced during the planned shutdown';
const changed =
  'Bottling Line 2 was changed by Adriana Novak on 2026-11-26 at 02:41 UTC since you opened it. Close this form and open it again to see the changes.';

async function open(routes: Parameters<typeof fakeFetch>[0]) {
  signIn('token', {
    id: 'u1',
    name: 'Pat Doe',
    email: 'pat@example.com',
    roles: ['factory_manager'],
  });
  const fake = fakeFetch(routes);
  const bodies: unknown[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.body) bodies.push(JSON.parse(String(init.body)));
    return fake.fetchImpl(input, init);
  });
  const onSaved = vi.fn();
  const onClose = vi.fn();
  await render(
    <>
      <LineClearanceDialog item={opened} users={[]} onClose={onClose} onSaved={onSaved} />
      <Toaster />
    </>,
  );
  return { bodies, onSaved, onClose };
}

describe('Create New Line Clearance: a blank name', () => {
  it('is said at the field, which takes the focus, and in the spec’s toast', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    const fake = fakeFetch({});
    vi.stubGlobal('fetch', fake.fetchImpl);
    await render(
      <>
        <LineClearanceDialog item={null} users={[]} onClose={() => {}} onSaved={() => {}} />
        <Toaster />
      </>,
    );
    const dialog = page.getByRole('dialog', { name: 'Create New Line Clearance' });
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    const message = 'Please enter a name for the line clearance';
    const name = dialog.getByLabelText('Name');
    await expect.element(name).toHaveFocus();
    await expect.element(name).toHaveAttribute('aria-invalid', 'true');
    await expect.element(name).toHaveAccessibleDescription(expect.stringContaining(message));
    await expect.element(dialog.getByRole('alert')).toHaveTextContent(message);
    expect(toasts.items.map((toast) => toast.detail)).toContain(message);
    expect(fake.calls).toEqual([]);
  });

  it('goes from the field as soon as a name is typed, before the next Save', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    vi.stubGlobal('fetch', fakeFetch({}).fetchImpl);
    await render(
      <LineClearanceDialog item={null} users={[]} onClose={() => {}} onSaved={() => {}} />,
    );
    const dialog = page.getByRole('dialog', { name: 'Create New Line Clearance' });
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    const name = dialog.getByLabelText('Name');
    await expect.element(name).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(name, 'Tablet Line 4');
    await expect.element(name).toHaveValue('Tablet Line 4');
    await expect.element(name).not.toHaveAttribute('aria-invalid');
    await expect
      .element(dialog.getByText('Please enter a name for the line clearance'))
      .not.toBeInTheDocument();
  });
});

describe('Edit Line Clearance: a record changed since the dialog opened', () => {
  it('says who changed it inside the dialog, keeps the typed values and reloads the list', async () => {
    const { bodies, onSaved, onClose } = await open({
      [PUT]: { status: 409, body: { message: changed } },
    });
    const dialog = page.getByRole('dialog', { name: 'Edit Line Clearance' });
    const description = dialog.getByLabelText('Description');
    await userEvent.fill(description, 'Filler, capper and labeller');
    await userEvent.fill(dialog.getByLabelText('Reason for change'), REASON);
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));

    // The copy as opened goes back with its version, which the server found older than its own.
    expect(bodies).toEqual([
      {
        ...opened,
        description: 'Filler, capper and labeller',
        managerId: null,
        version: 1,
        reason: REASON,
      },
    ]);
    await expect
      .element(dialog.getByRole('alert'))
      .toHaveTextContent(`Failed to update line clearance: ${changed}`);
    await expect.element(description).toHaveValue('Filler, capper and labeller');
    expect(onClose).not.toHaveBeenCalled();
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect(page.getByText('Line clearance updated successfully').query()).toBeNull();
    // The refusal takes the focus (Save was disabled under it), so a screen reader says it.
    await expect.element(dialog.getByRole('alert')).toHaveFocus();
  });

  it('saves the version it opened and closes when nobody changed it meanwhile', async () => {
    const { bodies, onSaved, onClose } = await open({
      [PUT]: { body: { ...opened, status: 'maintenance', version: 2 } },
    });
    const dialog = page.getByRole('dialog', { name: 'Edit Line Clearance' });
    await userEvent.selectOptions(dialog.getByLabelText('Status'), 'maintenance');
    await userEvent.fill(dialog.getByLabelText('Reason for change'), REASON);
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(page.getByText('Line clearance updated successfully')).toBeVisible();
    expect(bodies).toMatchObject([{ status: 'maintenance', version: 1, reason: REASON }]);
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('Edit Line Clearance: the reason for a change', () => {
  const missing =
    'Please give the reason for changing this line clearance, in at least 3 different words';

  it('is required by the server’s rule when the save changes something, and sent trimmed', async () => {
    const { bodies, onClose } = await open({
      [PUT]: { body: { ...opened, location: 'Hall 4', version: 2 } },
    });
    const dialog = page.getByRole('dialog', { name: 'Edit Line Clearance' });
    const reason = dialog.getByLabelText('Reason for change');
    await expect
      .element(reason)
      .toHaveAccessibleDescription(
        'Required when you change something: at least 3 different words. It is kept with the change in the audit trail.',
      );
    await userEvent.fill(dialog.getByLabelText('Location'), 'Hall 4');
    const save = dialog.getByRole('button', { name: 'Save' });
    await userEvent.click(save);
    // Said at the field, which takes the focus, and as the warning toast; nothing is sent.
    await expect.element(reason).toHaveAccessibleDescription(expect.stringContaining(missing));
    await expect.element(reason).toHaveFocus();
    await expect.element(page.getByText(missing, { exact: true }).first()).toBeVisible();
    expect(bodies).toEqual([]);

    // Two words say nothing an auditor can check; nor does the spec's note.
    for (const weak of ['moved it', 'Approved by LC Manager.']) {
      // The warning toast lies over Save in the test's small frame.
      toasts.items = [];
      await userEvent.fill(reason, weak);
      await userEvent.click(save);
      await expect.element(reason).toHaveAccessibleDescription(expect.stringContaining(missing));
    }
    expect(bodies).toEqual([]);
    toasts.items = [];

    await userEvent.fill(reason, `  ${REASON}\n`);
    await userEvent.click(save);
    await expect.element(page.getByText('Line clearance updated successfully')).toBeVisible();
    expect(bodies).toMatchObject([{ location: 'Hall 4', reason: REASON }]);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('is not asked when nothing changed: the save sends none', async () => {
    const { bodies, onClose } = await open({ [PUT]: { body: opened } });
    const dialog = page.getByRole('dialog', { name: 'Edit Line Clearance' });
    // Spaces typed and taken back change nothing.
    await userEvent.fill(dialog.getByLabelText('Name'), 'Bottling Line 2 ');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(page.getByText('Line clearance updated successfully')).toBeVisible();
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).not.toHaveProperty('reason');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('says the server’s refusal of the reason at the field and keeps the dialog open', async () => {
    const refusal =
      'body.reason must say why the line clearance is changed (at least 3 different words)';
    const { onClose } = await open({ [PUT]: { status: 400, body: { message: refusal } } });
    const dialog = page.getByRole('dialog', { name: 'Edit Line Clearance' });
    await userEvent.selectOptions(dialog.getByLabelText('Status'), 'inactive');
    const reason = dialog.getByLabelText('Reason for change');
    await userEvent.fill(reason, REASON);
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect
      .element(reason)
      .toHaveAccessibleDescription(
        expect.stringContaining(`Failed to update line clearance: ${refusal}`),
      );
    await expect.element(reason).toHaveFocus();
    await expect.element(reason).toHaveValue(REASON);
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('Edit Line Clearance: the server’s lengths', () => {
  it('counts as it is typed, says a field too long at the field and sends nothing', async () => {
    const { bodies } = await open({});
    const dialog = page.getByRole('dialog', { name: 'Edit Line Clearance' });
    const name = dialog.getByLabelText('Name');
    // Near the limit, a counter; in code points, as the server counts ('💊' is one).
    await userEvent.fill(name, '💊'.repeat(170));
    await expect.element(dialog.getByText('170 of 200 characters')).toBeVisible();
    await userEvent.fill(name, '💊'.repeat(201));
    await expect.element(name).toHaveAttribute('aria-invalid', 'true');
    await expect
      .element(dialog.getByText('Name must be at most 200 characters (it has 201)'))
      .toBeVisible();
    const reasonField = dialog.getByLabelText('Reason for change');
    // The reason's rule and, near its limit, its counter.
    await userEvent.fill(reasonField, `${REASON} ${'x'.repeat(1700)}`);
    await expect
      .element(reasonField)
      .toHaveAccessibleDescription(/at least 3 different words.* 1744 of 2000 characters$/);
    await userEvent.fill(reasonField, REASON);
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(dialog).toBeVisible();
    expect(bodies).toEqual([]);
  });
});
