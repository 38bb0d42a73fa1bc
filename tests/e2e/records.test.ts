// Creating, editing and deleting records through the dashboards, and reviewing inspections as an
// LC manager, against the real server (spec §2 dashboards, §4 review notes, §5 confirmations, §8
// toasts). Each change is also read back through the API.
import type { Locator, Page } from 'playwright';
import { describe, expect, test } from 'vitest';
import { Api } from './support/api.ts';
import { acceptConfirm, expectToast, landedOn, newContext } from './support/browser.ts';
import { demoPassword, type Role } from './support/demo.ts';
import { setUpE2e } from './support/fixture.ts';
import { demoAnalysisDone } from './support/server.ts';

const e2e = setUpE2e();

interface LineClearance {
  _id: string;
  name: string;
  location?: string;
  status?: string;
}
interface User {
  _id: string;
  name: string;
  email?: string;
  role: string | string[];
}
interface Device {
  _id: string;
  name: string;
  type?: string | null;
  status?: string;
}
interface Video {
  id: string;
  status: string;
  relatedData: { predictions: number };
  signedEvidence: boolean;
}
interface AuditEntry {
  actorEmail: string | null;
  action: string;
  entityId: string | null;
  reason: string | null;
}
interface Inspection {
  _id: string;
  lineClearanceId: string;
  videoId?: string | null;
  status?: string;
  reviewNotes?: string;
  approvalBlocker?: string | null;
}

async function dashboardAs(role: Role, path: string): Promise<Page> {
  const token = await e2e.tokenFor(role);
  const context = await newContext(e2e.browser, { baseUrl: e2e.server.baseUrl, token });
  const page = await context.newPage();
  await page.goto(path);
  await landedOn(page, path);
  return page;
}

/** The card of one record: an article whose heading is exactly `name`. */
const card = (page: Page, name: string) =>
  page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name, exact: true }) })
    .first();

/** Gives an Edit dialog's reason for change and saves (Annex 11: a change keeps its reason). */
async function saveWithReason(dialog: Locator, reason: string): Promise<void> {
  await dialog.getByLabel('Reason for change').fill(reason);
  await dialog.getByRole('button', { name: 'Save' }).click();
}

/**
 * Deletes a record by its card's Delete button, checking the confirmation text, giving the reason
 * the dialog then asks for, and checking the toast.
 */
async function deleteRecord(
  page: Page,
  name: string,
  entity: string,
  reason = 'Created for the end-to-end test only',
): Promise<void> {
  const question = await acceptConfirm(page, () =>
    page.getByRole('button', { name: `Delete ${name}` }).click(),
  );
  expect(question).toBe(`Are you sure you want to delete this ${entity}?`);
  const dialog = page.getByRole('dialog', { name: `Why is this ${entity} deleted?` });
  await dialog.getByRole('textbox', { name: 'Reason (required)' }).fill(reason);
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  const capital = entity.charAt(0).toUpperCase() + entity.slice(1);
  await expectToast(page, 'success', 'Success', `${capital} deleted successfully`);
  await card(page, name).waitFor({ state: 'detached' });
}

describe.concurrent('records', () => {
  test('line clearance: create, edit and delete on the admin dashboard', async () => {
    const page = await dashboardAs('admin', '/admin');
    await page.getByRole('tab', { name: 'Line Clearances' }).click();

    await page.getByRole('button', { name: 'Add New' }).click();
    let dialog = page.getByRole('dialog', { name: 'Create New Line Clearance' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'warn', 'Warning', 'Please enter a name for the line clearance');
    await dialog.getByLabel('Name').fill('E2E Tablet Line 9');
    await dialog.getByLabel('Description').fill('Tablet press and bottle filler');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'success', 'Success', 'Line clearance created successfully');
    await dialog.waitFor({ state: 'hidden' });
    // No location was given: the card says so (spec §2).
    await card(page, 'E2E Tablet Line 9').getByText('No location specified').waitFor();

    await page.getByRole('button', { name: 'Edit E2E Tablet Line 9' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Line Clearance' });
    await dialog.getByLabel('Location').fill('Building D, Hall 9');
    await dialog.getByLabel('Status').selectOption('maintenance');
    const editReason = 'Moved to Hall 9 for the press overhaul';
    await saveWithReason(dialog, editReason);
    await expectToast(page, 'success', 'Success', 'Line clearance updated successfully');
    await card(page, 'E2E Tablet Line 9').getByText('Building D, Hall 9').waitFor();
    const saved = (await e2e.admin.get<LineClearance[]>('/api/line-clearances')).find(
      (line) => line.name === 'E2E Tablet Line 9',
    );
    expect(saved).toMatchObject({ location: 'Building D, Hall 9', status: 'maintenance' });

    const deleteReason = 'The tablet line was never built';
    await deleteRecord(page, 'E2E Tablet Line 9', 'line clearance', deleteReason);
    const lines = await e2e.admin.get<LineClearance[]>('/api/line-clearances');
    expect(lines.map((line) => line.name)).not.toContain('E2E Tablet Line 9');
    // The GMP record: each change's entry keeps the reason given for it.
    const log = await e2e.admin.get<AuditEntry[]>(
      `/api/audit-log?entity=line-clearance&entityId=${saved?._id}`,
    );
    expect(log.filter((entry) => entry.action === 'update')).toMatchObject([
      { actorEmail: 'admin@example.com', reason: editReason },
    ]);
    expect(log.filter((entry) => entry.action === 'delete')).toMatchObject([
      { actorEmail: 'admin@example.com', reason: deleteReason },
    ]);
    await page.context().close();
  });

  test('user: create (operator by default), edit and delete on the admin dashboard', async () => {
    const page = await dashboardAs('admin', '/admin');
    await page.getByRole('tab', { name: 'Users' }).click();

    await page.getByRole('button', { name: 'Add New' }).click();
    let dialog = page.getByRole('dialog', { name: 'Create New User' });
    await dialog.getByLabel('Name').fill('Erik Example');
    await dialog.getByLabel('Email').fill('erik.e2e@example.com');
    // The prefilled placeholder is published, so the form asks for a temporary password instead.
    expect(await dialog.getByLabel('Password').inputValue()).toBe('Set-at-first-sign-in');
    const password = 'Erik-temp-2611';
    await dialog.getByLabel('Password').fill(password);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'success', 'Success', 'User created successfully');
    await dialog.waitFor({ state: 'hidden' });
    await card(page, 'Erik Example').getByText('Operator', { exact: true }).waitFor();
    // The password typed is the one the new user signs in with.
    const erik = await Api.login(e2e.server.baseUrl, 'erik.e2e@example.com', password);
    expect((await erik.get<{ roles: string[] }>('/api/me')).roles).toEqual(['operator']);

    await page.getByRole('button', { name: 'Edit Erik Example' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit User' });
    await dialog.getByLabel('Name').fill('Erik Example-Berg');
    await saveWithReason(dialog, 'Name changed after his marriage');
    await expectToast(page, 'success', 'Success', 'User updated successfully');
    await card(page, 'Erik Example-Berg').waitFor();

    await deleteRecord(page, 'Erik Example-Berg', 'user');
    const users = await e2e.admin.get<User[]>('/api/users');
    expect(users.map((user) => user.email)).not.toContain('erik.e2e@example.com');
    await page.context().close();
  });

  test('device: edit and delete on the factory-manager dashboard', async () => {
    // Devices register themselves by QR scan (no Add New, spec §2): register one through the API.
    const { _id: id } = await e2e.admin.post<Device>('/api/devices', { qrCode: 'CAM-E2E-7' });
    const page = await dashboardAs('factory_manager', '/factory-manager');
    await page.getByRole('tab', { name: 'Devices' }).click();
    await card(page, 'Device CAM-E2E-7').getByText('Unknown', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Edit Device CAM-E2E-7' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Device' });
    await dialog.getByLabel('Name').fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'warn', 'Warning', 'Please enter a name for the device');
    await dialog.getByLabel('Name').fill('Packing Camera PC-07');
    await dialog.getByLabel('Type').selectOption('camera');
    await dialog.getByLabel('Status').selectOption('offline');
    await saveWithReason(dialog, 'Camera named after its packing station');
    await expectToast(page, 'success', 'Success', 'Device updated successfully');
    await card(page, 'Packing Camera PC-07').getByText('camera', { exact: true }).waitFor();
    const saved = (await e2e.admin.get<Device[]>('/api/devices')).find((d) => d._id === id);
    expect(saved).toMatchObject({
      name: 'Packing Camera PC-07',
      type: 'camera',
      status: 'offline',
    });

    await deleteRecord(page, 'Packing Camera PC-07', 'device');
    const devices = await e2e.admin.get<Device[]>('/api/devices');
    expect(devices.map((device) => device._id)).not.toContain(id);
    await page.context().close();
  });

  test('video: delete from the Videos tab on the admin dashboard', async () => {
    const analysed = await demoAnalysisDone(e2e.admin);
    const videos = await e2e.admin.get<Video[]>('/api/admin/videos');
    const inspections = await e2e.admin.get<Inspection[]>('/api/inspections');
    const page = await dashboardAs('admin', '/admin');
    await page.getByRole('tab', { name: 'Videos' }).click();
    // A card is the one whose View link opens its video.
    const cardOf = (id: string) =>
      page.getByRole('article').filter({ has: page.locator(`a[href="/video/${id}"]`) });

    // A signed inspection's video is its evidence: the card says so before anyone clicks, its
    // Delete is unavailable (focusable, described by the note), and the server still refuses.
    const signed = inspections.find((i) => i.status === 'approved' && i.videoId)?.videoId;
    if (!signed) throw new Error('the demo data has no approved inspection with a video');
    expect(videos.find((candidate) => candidate.id === signed)?.signedEvidence).toBe(true);
    const note = cardOf(signed).getByText(
      'Signed evidence: kept (the video of an approved or rejected inspection)',
    );
    await note.waitFor();
    const keptDelete = cardOf(signed).getByRole('button', { name: /^Delete / });
    expect(await keptDelete.getAttribute('aria-disabled')).toBe('true');
    expect(await keptDelete.getAttribute('aria-describedby')).toBe(await note.getAttribute('id'));
    const refused = await fetch(`${e2e.server.baseUrl}/api/admin/videos/${signed}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${e2e.admin.token}` },
    });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^The video is evidence of a signed inspection \(approved .*\); it cannot be deleted$/,
    );
    await cardOf(signed).waitFor();

    // The video the demo analysed (its inspection pending, so not signed) can go.
    const video = videos.find((candidate) => candidate.id === analysed);
    if (!video) throw new Error('the demo data has no video queued for analysis');
    expect(video.signedEvidence).toBe(false);
    const videoCard = cardOf(video.id);
    const question = await acceptConfirm(page, () =>
      videoCard.getByRole('button', { name: /^Delete / }).click(),
    );
    expect(question).toBe(
      'Are you sure you want to delete this video? Its predictions, reports, floorplans, keyframes and results will also be deleted.',
    );
    // It is an inspection's evidence: the trail keeps why it went.
    const reason = 'Recorded on the wrong line by mistake';
    const dialog = page.getByRole('dialog', { name: 'Delete video' });
    await dialog.getByRole('textbox', { name: 'Reason (required)' }).fill(reason);
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    const toast = page
      .locator('.toast.toast-success')
      .filter({ hasText: 'Video deleted successfully.' });
    const summary = (await toast.locator('.toast-detail').innerText()).split('\n');
    const predictions = video.relatedData.predictions;
    expect(summary).toEqual([
      'Video deleted successfully.',
      expect.stringMatching(
        new RegExp(
          `^Deleted: 1 video record, ${predictions} predictions?, 0 floorplan configs, 0 floorplans, video file removed, keyframes text removed, \\d+ keyframe images?, results (removed|not found)\\.$`,
        ),
      ),
      // The inspection is a GMP record: unlinked from the video, never deleted with it.
      expect.stringMatching(
        /^(1 report unlinked \(the inspection is kept\)|\d+ reports unlinked \(the inspections are kept\))\.$/,
      ),
    ]);
    await videoCard.waitFor({ state: 'detached' });
    const remaining = await e2e.admin.get<Video[]>('/api/admin/videos');
    expect(remaining.map((left) => left.id)).not.toContain(video.id);
    // The GMP record: who deleted which video (its analysis has entries of its own before).
    const log = await e2e.admin.get<AuditEntry[]>(
      `/api/audit-log?entity=video&entityId=${video.id}`,
    );
    expect(log.map((entry) => entry.action)).toContain('analysis.complete');
    expect(log.filter((entry) => entry.action === 'delete')).toMatchObject([
      { actorEmail: 'admin@example.com', reason },
    ]);
    await page.context().close();
  });

  test.each([
    {
      decision: 'Approve',
      // Blister Line 1's pending inspection lost its video above: only a rejection is possible.
      email: 'lcmanager2@example.com',
      status: 'approved',
      toast: 'Inspection approved successfully',
      notes: 'Flags checked on the line; the carton was removed before the batch',
    },
    {
      decision: 'Reject',
      email: 'lcmanager@example.com',
      status: 'rejected',
      toast: 'Inspection rejected successfully',
      notes: 'Labels left under the sealer',
    },
  ])('$decision a pending inspection as an LC manager', async (review) => {
    // Each demo LC manager has pending inspections on its own lines.
    const manager = await Api.login(e2e.server.baseUrl, review.email, demoPassword);
    const me = await manager.get<{ id: string }>('/api/me');
    const mine = new Set(
      (await manager.get<(LineClearance & { managerId?: string })[]>('/api/line-clearances'))
        .filter((line) => line.managerId === me.id)
        .map((line) => line._id),
    );
    const candidates = (await manager.get<Inspection[]>('/api/inspections')).filter(
      (inspection) => inspection.status === 'pending' && mine.has(inspection.lineClearanceId),
    );
    let pending: Inspection | undefined;
    let blocked: Inspection | undefined;
    for (const candidate of candidates) {
      const { approvalBlocker } = await manager.get<{ approvalBlocker: string | null }>(
        `/api/reports/${candidate._id}`,
      );
      // The list tells the card what the report tells the signing dialog.
      expect(candidate.approvalBlocker).toBe(approvalBlocker);
      if (approvalBlocker) blocked ??= candidate;
      if (!pending && (review.decision === 'Reject' || !approvalBlocker)) pending = candidate;
    }
    if (!pending) throw new Error(`${review.email} has no pending inspection in the demo data`);

    const context = await newContext(e2e.browser, {
      baseUrl: e2e.server.baseUrl,
      token: manager.token,
    });
    const page = await context.newPage();
    await page.goto('/lc-manager');
    await landedOn(page, '/lc-manager');
    await page.getByRole('tab', { name: 'Inspections' }).click();
    if (blocked) {
      // An approval the server would refuse is unavailable on the card, which says why.
      const blockedCard = page
        .getByRole('article')
        .filter({ has: page.locator(`a[href="/inspection-report/${blocked._id}"]`) });
      const note = blockedCard.getByText(`${blocked.approvalBlocker}: it can only be rejected.`);
      await note.waitFor();
      const approve = blockedCard.getByRole('button', { name: /^Approve / });
      expect(await approve.getAttribute('aria-disabled')).toBe('true');
      expect(await approve.getAttribute('aria-describedby')).toBe(await note.getAttribute('id'));
    }
    const button = page.getByRole('button', {
      name: new RegExp(`^${review.decision} .* ${pending._id}$`),
    });
    await button.click();
    // An electronic signature: the dialog names its meaning and takes both of the signer's
    // components, its user ID and its password.
    const dialog = page.getByRole('dialog', { name: `${review.decision} inspection` });
    // The demo's pending inspections have open flags: either decision needs a reason.
    await dialog.getByLabel('Notes (required)').fill(review.notes);
    await dialog.getByLabel('User ID').fill(review.email);
    await dialog.getByLabel('Password').fill(demoPassword);
    await dialog.getByRole('button', { name: `Sign and ${review.decision.toLowerCase()}` }).click();
    await expectToast(page, 'success', 'Success', review.toast);
    // Reviewed: approve and reject are shown only for pending inspections (spec §4).
    await button.waitFor({ state: 'detached' });
    const answer = (await manager.get<Inspection[]>('/api/inspections')).find(
      (inspection) => inspection._id === pending._id,
    );
    expect(answer).toMatchObject({
      status: review.status,
      reviewNotes: review.notes,
      signature: { notes: review.notes, signerName: expect.any(String) },
    });
    await context.close();
  });
});
