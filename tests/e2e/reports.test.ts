// The inspection as a signed GMP record, end to end on the demo data (issue 18): an LC manager
// steps through a pending report's flags, dismisses a detection, signs with the password (a wrong
// one signs nothing and is in the trail); the card and the report show the signature; the PDF
// downloads with it (its first page rendered to PNG); the operator cannot sign; /reports and /audit
// show the record to an auditor; the trail verifies; axe (WCAG 2.2 AA) light and dark; a 390 px
// phone lays the report and the video analysis page out without sideways scrolling.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { canonicalJson } from '../../server/reports/canonical-json.ts';
import type { TrailVerification } from '../../server/schemas/audit-log.ts';
import type { InspectionReport } from '../../server/schemas/reports.ts';
import { pdfPages } from '../support/pdf-text.ts';
import { Api } from './support/api.ts';
import { axeViolationsLightAndDark } from './support/axe.ts';
import { expectToast, newContext } from './support/browser.ts';
import { demoPassword } from './support/demo.ts';
import { setUpE2e } from './support/fixture.ts';
import { screenshotAs } from './support/screenshots.ts';

const e2e = setUpE2e();
const slow = 120_000;

/** Why the approval is given over the report's open flags (a reason is due). */
const APPROVAL_REASON =
  'Flags checked on the line: the detections were packaging, removed before the batch';
/** The demo's pending inspection on Bottling Line 2: performed by operator, managed by lcmanager2. */
let inspectionId = '';
let manager: Api;
let operator: Api;
let auditor: Api;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-e2e-reports-'));

beforeAll(async () => {
  const { baseUrl } = e2e.server;
  [manager, operator, auditor] = await Promise.all([
    Api.login(baseUrl, 'lcmanager2@example.com', demoPassword),
    Api.login(baseUrl, 'operator@example.com', demoPassword),
    Api.login(baseUrl, 'audit@example.com', demoPassword),
  ]);
  const pending = (
    await manager.get<{ rows: { inspectionId: string; operatorName: string }[] }>(
      '/api/reports?status=pending',
    )
  ).rows.find((row) => row.operatorName === 'Tomás Rivera');
  if (!pending) throw new Error('the demo data has no pending Bottling Line 2 inspection');
  inspectionId = pending.inspectionId;
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const contexts: BrowserContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function open(api: Api, url: string): Promise<Page> {
  const context = await newContext(e2e.browser, {
    baseUrl: e2e.server.baseUrl,
    token: api.token,
    timezoneId: 'UTC',
  });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

const reportUrl = () => `/inspection-report/${inspectionId}`;
const report = () => manager.get<InspectionReport>(`/api/reports/${inspectionId}`);

describe('the inspection report as a signed record', () => {
  test(
    'an LC manager steps through the flags, dismisses a detection and signs',
    async () => {
      const before = await report();
      expect(before.status).toBe('pending');
      expect(before.flags.length).toBeGreaterThan(1);
      const page = await open(manager, reportUrl());
      await page.getByRole('heading', { level: 1, name: 'Inspection Report' }).waitFor();
      await page.getByText(/^Keyframe image: \d+ of \d+/).waitFor();

      // 'Next flag' by key and by button: the clock moves to each flag's time.
      await page.locator('body').click({ position: { x: 1, y: 1 } });
      await page.keyboard.press('f');
      const [first, second] = before.flags;
      await page.getByText(`Flag 1 of ${before.flags.length}: ${first?.text}`).waitFor();
      await page.getByRole('button', { name: 'Next flag (F)' }).click();
      await page.getByText(`Flag 2 of ${before.flags.length}: ${second?.text}`).waitFor();
      if (second?.time !== null && second?.time !== undefined) {
        await expect
          .poll(async () => Number(await page.getByRole('slider', { name: 'Time' }).inputValue()))
          .toBeCloseTo(second.time, 1);
      }

      // A dismissal needs a reason.
      const detection = before.detections.find((d) => d.flagged);
      if (!detection) throw new Error('the demo report has no flagged detection');
      const stamp = `${detection.filename.replace(/\.png$/, '')} s`;
      await page.getByRole('button', { name: `Dismiss ${stamp}`, exact: true }).click();
      const dismiss = page.getByRole('dialog', { name: 'Dismiss as a false positive' });
      await dismiss.getByRole('button', { name: 'Dismiss' }).click();
      await expectToast(
        page,
        'warn',
        'Warning',
        'Please give the reason for dismissing this detection, in at least 3 different words',
      );
      await dismiss.getByLabel('Reason (required)').fill('Reflection on the capper guard');
      await dismiss.getByRole('button', { name: 'Dismiss' }).click();
      await expectToast(page, 'success', 'Success', 'Disposition saved');
      await page
        .getByText('Dismissed as a false positive: Reflection on the capper guard')
        .waitFor();
      // Its flag is closed: still listed, marked dismissed.
      await page
        .getByRole('region', { name: /^Flags/ })
        .getByText('Dismissed', { exact: true })
        .waitFor();

      // A wrong password signs nothing.
      await page.getByRole('button', { name: 'Approve', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Approve inspection' });
      await dialog.getByText('Approved: the line is clear for the next batch').waitFor();
      // What the signature would be given over: the open exceptions, by name.
      await dialog
        .getByRole('alert')
        .getByText(/^\d+ critical or high flags? (is|are) open:$/)
        .waitFor();
      await dialog.getByLabel('Notes (required)').fill(APPROVAL_REASON);
      // Another user's ID is refused at its field before any password is tried.
      await dialog.getByLabel('User ID').fill('lcmanager@example.com');
      await dialog.getByLabel('Password').fill(demoPassword);
      await dialog.getByRole('button', { name: 'Sign and approve' }).click();
      await expectToast(
        page,
        'error',
        'Error',
        'Failed to approve inspection: The user ID is not yours: sign with your own user ID and password; nothing was signed',
      );
      expect((await report()).status).toBe('pending');
      await dialog.getByLabel('User ID').fill('lcmanager2@example.com');
      await dialog.getByLabel('Password').fill('not-the-password');
      await dialog.getByRole('button', { name: 'Sign and approve' }).click();
      await expectToast(
        page,
        'error',
        'Error',
        'Failed to approve inspection: The password is incorrect; nothing was signed',
      );
      expect((await report()).status).toBe('pending');

      await dialog.getByLabel('Password').fill(demoPassword);
      await dialog.getByRole('button', { name: 'Sign and approve' }).click();
      await expectToast(page, 'success', 'Success', 'Inspection approved successfully');
      const signature = page.getByRole('region', { name: 'Electronic signature' });
      await signature.getByText('Daniel Okafor (lcmanager2@example.com)').waitFor();
      await signature.getByText('Approved: the line is clear for the next batch').waitFor();
      const signed = await report();
      expect(signed.signature).toMatchObject({ signerName: 'Daniel Okafor', meaning: 'approved' });
      await signature.getByText(signed.recordHash).waitFor();
      await expect(
        page.getByRole('button', { name: 'Approve', exact: true }).count(),
      ).resolves.toBe(0);

      // The PDF downloads with the signature, its meaning and the hash; page 1 renders to PNG.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download PDF' }).click(),
      ]);
      const pdf = path.join(scratch, 'report.pdf');
      await download.saveAs(pdf);
      const text = (await pdfPages(fs.readFileSync(pdf))).join('\n');
      for (const expected of [
        'Daniel Okafor',
        'Approved: the line is clear for the next batch',
        signed.recordHash,
        'Reflection on the capper guard',
        'Page 1 of',
      ]) {
        expect(text).toContain(expected);
      }
      execFileSync('pdftoppm', [
        '-png',
        '-r',
        '50',
        '-f',
        '1',
        '-l',
        '1',
        pdf,
        path.join(scratch, 'page'),
      ]);
      const png = fs
        .readdirSync(scratch)
        .find((name) => name.startsWith('page') && name.endsWith('.png'));
      expect(png && fs.statSync(path.join(scratch, png)).size).toBeGreaterThan(1000);

      // The electronic copy downloads too, and hashes to the signed record hash without the server.
      const [copyDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download record (JSON)' }).click(),
      ]);
      const copyFile = path.join(scratch, 'record.json');
      await copyDownload.saveAs(copyFile);
      const copy = JSON.parse(fs.readFileSync(copyFile, 'utf8'));
      expect(copy.report.signature.signerName).toBe('Daniel Okafor');
      expect(createHash('sha256').update(canonicalJson(copy.hashed)).digest('hex')).toBe(
        signed.recordHash,
      );

      // The dashboard card shows the signature.
      await page.goto('/lc-manager');
      await page.getByRole('tab', { name: 'Inspections' }).click();
      // The tab opens on the pending work; the signed card is under Approved.
      await page.getByRole('combobox', { name: 'Filter by status' }).selectOption('Approved');
      await page
        .getByText(/^Approved: the line is clear for the next batch\. Signed by Daniel Okafor on /)
        .first()
        .waitFor();
    },
    slow,
  );

  test('the operator of the inspection cannot sign it; the refusals are in the trail', async () => {
    const page = await open(operator, reportUrl());
    await page.getByRole('heading', { level: 1, name: 'Inspection Report' }).waitFor();
    await page.getByRole('region', { name: 'Electronic signature' }).waitFor();
    expect(await page.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
    const refused = await fetch(`${e2e.server.baseUrl}/api/inspections/${inspectionId}/reject`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${operator.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ notes: 'x', userId: 'operator@example.com', password: demoPassword }),
    });
    expect(refused.status).toBe(403);
    const failed = await auditor.get<{ actorEmail: string }[]>(
      `/api/audit-log?action=signature.failed&entityId=${inspectionId}`,
    );
    // The manager's two failures above (another's user ID, a wrong password); not the operator's.
    expect(failed.map((entry) => entry.actorEmail)).toEqual([
      'lcmanager2@example.com',
      'lcmanager2@example.com',
    ]);
  });
});

describe('an auditor finds the record', () => {
  test(
    'on /reports (with the PDF and CSV) and on /audit, and the trail verifies',
    async () => {
      const page = await open(auditor, '/reports');
      await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
      await page.getByLabel('Status').selectOption('approved');
      const row = page.getByRole('row').filter({ hasText: 'Daniel Okafor' }).first();
      await row.waitFor();
      // The route table keeps auditors off /inspection-report: their rows give the PDF.
      expect(await row.getByRole('link', { name: /^Open report/ }).count()).toBe(0);
      await row.getByRole('link', { name: /^PDF of report/ }).waitFor();
      const [csv] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Export CSV' }).click(),
      ]);
      const csvFile = path.join(scratch, 'reports.csv');
      await csv.saveAs(csvFile);
      const lines = fs.readFileSync(csvFile, 'utf8').split('\r\n');
      // A byte order mark first, for Excel; then the header.
      expect(lines[0]).toMatch(
        /^\ufeffInspection,Start \(UTC\),End \(UTC\),Received \(UTC\),Line,Operator,/,
      );
      expect(
        lines
          .slice(1)
          .filter(Boolean)
          .every((line) => line.includes(',approved,')),
      ).toBe(true);

      // The media cookie gone, as on a page left idle past its 15 minutes: the PDF link sends the
      // session's token itself (the cookie alone answered 401 and the download failed silently).
      await page.context().clearCookies();
      const [pdf] = await Promise.all([
        page.waitForEvent('download'),
        row.getByRole('link', { name: /^PDF of report/ }).click(),
      ]);
      const pdfFile = path.join(scratch, 'auditor.pdf');
      await pdf.saveAs(pdfFile);
      expect(fs.readFileSync(pdfFile).subarray(0, 5).toString()).toBe('%PDF-');

      await page.goto('/audit');
      await page.getByRole('heading', { level: 1, name: 'Audit Dashboard' }).waitFor();
      // The actions the trail holds are the filter's choices.
      await page.getByLabel('Action').selectOption('approve');
      await page.getByLabel('Object id').fill(inspectionId);
      // The approval of this inspection by lcmanager2, whether or not the filters have applied yet
      // (before they do, the table still lists the manager's other entries).
      const entry = page
        .getByRole('row')
        .filter({ hasText: 'lcmanager2@example.com' })
        .filter({ hasText: inspectionId })
        .filter({ hasText: 'status: pending → approved' });
      await entry.waitFor();
      await entry.getByRole('cell', { name: APPROVAL_REASON, exact: true }).waitFor();
      await page.getByRole('button', { name: 'Verify trail' }).click();
      await page.getByText(/^The trail verifies: \d+ entries/).waitFor();
      const verification = await auditor.get<TrailVerification>('/api/audit-log/verify');
      expect(verification).toMatchObject({ ok: true, firstBroken: null });
    },
    slow,
  );
});

describe('accessibility and small screens', () => {
  test(
    'axe finds no WCAG 2.2 AA violation on the report, /reports and /audit, light and dark',
    async () => {
      const pages: [Api, string, string, string][] = [
        [manager, reportUrl(), 'Inspection Report', 'inspection-report'],
        [manager, '/reports', 'Reports', 'reports'],
        [auditor, '/audit', 'Audit Dashboard', 'audit'],
      ];
      for (const [api, url, heading, view] of pages) {
        const page = await open(api, url);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.getByRole('table').first().waitFor();
        expect(await axeViolationsLightAndDark(page, screenshotAs(page, view)), url).toEqual([]);
      }
    },
    slow,
  );

  test(
    'the report and the video analysis page fit a 390 px phone',
    async () => {
      const videoId = (await report()).video?.id ?? '';
      for (const [url, heading] of [
        [reportUrl(), 'Inspection Report'],
        [`/video/${videoId}`, 'Video Analysis'],
      ] as const) {
        const page = await open(operator, url);
        await page.setViewportSize({ width: 390, height: 844 });
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        // Laid out with the video, the floor plan and the path drawn.
        await page.getByText(/^Keyframe image: \d+ of \d+/).waitFor();
        await page.locator('.path-player__stage').waitFor();
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, url).toBeLessThanOrEqual(390);
      }
    },
    slow,
  );
});

test('the audit trail verifies after the whole run', async () => {
  const verification = await auditor.get<TrailVerification>('/api/audit-log/verify');
  const entries = await auditor.get<{ hash: string }[]>('/api/audit-log?limit=1000');
  expect(verification).toMatchObject({ ok: true, firstBroken: null });
  // Every entry, the newest being the head.
  expect(verification.checked).toBe(entries.length);
  expect(verification.headHash).toBe(entries[0]?.hash);
});
