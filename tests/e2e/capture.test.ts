// The operator's inspection loop in Chromium with a fake camera showing the demo line's tag QR
// codes: sign in, start an inspection on Blister Line 1, record while the checkpoints tick,
// submit, lose the network in the middle of the upload and get it back; the stored file hashes to
// the recorded SHA-256 and the line's LC manager sees the new pending inspection. axe (WCAG 2.2
// AA) on each screen at a phone and a desktop size, light and dark.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumArgs, chromiumPath } from '../support/chromium.ts';
import { Api } from './support/api.ts';
import { axeViolationsLightAndDark } from './support/axe.ts';
import { acceptConfirm, newContext, pageSettled } from './support/browser.ts';
import { demoAccount, demoPassword } from './support/demo.ts';
import { writeQrY4m } from './support/fake-camera.ts';
import { setUpE2e } from './support/fixture.ts';

const e2e = setUpE2e();
const LINE = 'Blister Line 1';
const TAGS = Array.from({ length: 8 }, (_, i) => `LC1-TAG-0${i + 1}`);
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

let folder: string;
let camera: Browser;

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'lc-e2e-camera-'));
  const y4m = path.join(folder, 'tags.y4m');
  writeQrY4m(y4m, TAGS);
  camera = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      ...chromiumArgs,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${y4m}`,
    ],
  });
}, 60_000);
afterAll(async () => {
  await camera?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function operatorPage(size: {
  width: number;
  height: number;
}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(camera, {
    baseUrl: e2e.server.baseUrl,
    token: await e2e.tokenFor('operator'),
  });
  await context.grantPermissions(['camera']);
  const page = await context.newPage();
  await page.setViewportSize(size);
  return { context, page };
}

async function expectAxeClean(page: Page, view: string) {
  expect((await axeViolationsLightAndDark(page)).map((problem) => `${view} ${problem}`)).toEqual(
    [],
  );
}

async function fillBefore(page: Page) {
  await page.getByLabel('Product leaving the line').fill('Aspirin 500 mg');
  await page.getByLabel('Batch leaving the line').fill('B-1001');
  await page.getByLabel('Product coming next').fill('Ibuprofen 200 mg');
  await page.getByLabel('Batch coming next').fill('B-2002');
}

/**
 * Records a short inspection and submits it with the uploads cut off, then goes back to the
 * dashboard: the recording waits on the device, and the failure shows once the inspection
 * exists on the server.
 */
async function submitWhileOffline(page: Page) {
  await page.goto('/operator');
  await pageSettled(page);
  await page.getByRole('link', { name: `Start Inspection: ${LINE}` }).click();
  await fillBefore(page);
  await page.getByRole('button', { name: 'Start Recording' }).click();
  await page.getByRole('button', { name: 'Record' }).click({ timeout: 30_000 });
  // The recorder hands over a chunk a second: a recording stopped at once has nothing to submit.
  await page.waitForTimeout(3000);
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByRole('button', { name: 'Submit' }).waitFor({ timeout: 30_000 });
  await page.route('**/api/uploads', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('link', { name: 'Back to Operator Dashboard' }).click();
  await pageSettled(page);
  await page.getByText('No connection to the server').waitFor({ timeout: 60_000 });
}

describe('operator capture', () => {
  test('records with the tags scanned, uploads through a network cut, and the file verifies', async () => {
    const { context, page } = await operatorPage(PHONE);
    try {
      await page.goto('/operator');
      await pageSettled(page);
      await page.getByRole('link', { name: `Start Inspection: ${LINE}` }).click();
      await page.getByLabel('Product leaving the line').waitFor();
      await page.getByRole('button', { name: 'Start Recording' }).click();
      // A blank required field is named under it, takes the focus, and the step stays.
      await page.getByText('Product leaving the line is required').waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-invalid'))).toBe(
        'true',
      );
      await page.getByText('Step 1 of 3').waitFor();
      await fillBefore(page);
      await page.getByRole('button', { name: 'Start Recording' }).click();
      await page.getByRole('button', { name: 'Record' }).click({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Stop' }).waitFor();
      // The fake camera loops through the eight codes; each ticks its checkpoint.
      await page
        .getByRole('heading', { name: '8 of 8 checkpoints scanned' })
        .waitFor({ timeout: 120_000 });
      await page.getByRole('button', { name: 'Stop' }).click();
      await page.getByText('Every checkpoint was scanned.').waitFor({ timeout: 30_000 });
      await page.getByLabel('Operator notes').fill('Line clear, all checkpoints scanned');

      // Cut the network at the second chunk: the upload must resume where it stopped.
      let patches = 0;
      let cut = false;
      await page.route('**/api/uploads/**', async (route) => {
        if (route.request().method() === 'PATCH' && ++patches === 2) {
          cut = true;
          await route.abort('internetdisconnected');
          await context.setOffline(true);
          setTimeout(() => void context.setOffline(false), 3000);
          return;
        }
        await route.continue();
      });
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('Upload complete and verified.').waitFor({ timeout: 120_000 });
      expect(cut).toBe(true);
      expect(patches).toBeGreaterThanOrEqual(3);

      const operator = await Api.login(
        e2e.server.baseUrl,
        demoAccount('operator').email,
        demoPassword,
      );
      const [mine] =
        await operator.get<
          {
            inspection: { _id: string; status: string; productLeaving: string };
            video: {
              _id: string;
              filename: string;
              sha256: string;
              verified: boolean;
              status: string;
            };
            hasCapture: boolean;
          }[]
        >('/api/my/inspections');
      expect(mine?.inspection).toMatchObject({
        status: 'pending',
        productLeaving: 'Aspirin 500 mg',
      });
      expect(mine?.video).toMatchObject({ verified: true });
      // The verified upload went straight to the analysis (docs/analysis.md): the recording's QR
      // scans anchor its path, so the job completes.
      await expect
        .poll(
          async () =>
            (
              await operator.get<{ video: { filename: string; status: string } | null }[]>(
                '/api/my/inspections',
              )
            ).find((row) => row.video?.filename === mine?.video.filename)?.video?.status,
          { timeout: 120_000, interval: 1000 },
        )
        .toBe('completed');
      const keyframes = await fetch(`${e2e.server.baseUrl}/api/keyframes/${mine?.video._id}.txt`, {
        headers: { Authorization: `Bearer ${operator.token}` },
      });
      expect(keyframes.status).toBe(200);
      expect((await keyframes.text()).trim().split('\n').length).toBeGreaterThan(1);
      expect(mine?.hasCapture).toBe(true);
      const stored = await fetch(`${e2e.server.baseUrl}/api/videos/${mine?.video.filename}`, {
        headers: { Authorization: `Bearer ${operator.token}` },
      });
      const bytes = Buffer.from(await stored.arrayBuffer());
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(mine?.video.sha256);
      expect(bytes.readUInt32BE(0)).toBe(0x1a45dfa3);

      // The line's LC manager now has it to review.
      const manager = await Api.login(
        e2e.server.baseUrl,
        demoAccount('lc_manager').email,
        demoPassword,
      );
      const pending = await manager.get<{ _id: string; status: string }[]>('/api/inspections');
      expect(pending.find((i) => i._id === mine?.inspection._id)?.status).toBe('pending');

      // Back on the dashboard nothing waits on the device and the inspection shows as verified.
      await page.getByRole('link', { name: 'Back to Operator Dashboard' }).click();
      await pageSettled(page);
      await page.getByText('Nothing waiting on this device.').waitFor();
      await page.getByText('Verified').first().waitFor();
    } finally {
      await context.close();
    }
  }, 300_000);

  test('discarding a submitted recording is confirmed and recorded by the server', async () => {
    const { context, page } = await operatorPage(PHONE);
    try {
      await submitWhileOffline(page);
      const discard = page.getByRole('button', { name: new RegExp(`^Discard ${LINE}`) });
      const question = await acceptConfirm(page, () => discard.click());
      expect(question).toContain('discard this recording');
      await page.getByText('Nothing waiting on this device.').waitFor();
      const log = await e2e.admin.get<{ action: string; entity: string }[]>('/api/audit-log');
      expect(log.some((row) => row.action === 'discard' && row.entity === 'video')).toBe(true);
    } finally {
      await context.close();
    }
  }, 180_000);

  test('a waiting upload resumes after a reload on any page, not only the operator screens', async () => {
    const { context, page } = await operatorPage(PHONE);
    const operator = await Api.login(
      e2e.server.baseUrl,
      demoAccount('operator').email,
      demoPassword,
    );
    type Mine = { inspection: { _id: string }; video: { verified: boolean } | null }[];
    const before = new Set(
      (await operator.get<Mine>('/api/my/inspections')).map((row) => row.inspection._id),
    );
    try {
      await submitWhileOffline(page);
      const created = (await operator.get<Mine>('/api/my/inspections')).find(
        (row) => !before.has(row.inspection._id),
      );
      expect(created?.video?.verified).toBe(false);
      // The network is back, and the operator reopens the app on the account page.
      await page.unrouteAll();
      await page.goto('/user');
      await pageSettled(page);
      await expect
        .poll(
          async () =>
            (await operator.get<Mine>('/api/my/inspections')).find(
              (row) => row.inspection._id === created?.inspection._id,
            )?.video?.verified,
          { timeout: 60_000, interval: 1000 },
        )
        .toBe(true);
    } finally {
      await context.close();
    }
  }, 180_000);

  test('axe: the dashboard and every inspection step, phone and desktop, light and dark', async () => {
    for (const [sizeName, size] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      const { context, page } = await operatorPage(size);
      try {
        await page.goto('/operator');
        await pageSettled(page);
        await page.getByRole('heading', { name: 'Recent Inspections' }).waitFor();
        await expectAxeClean(page, `operator ${sizeName}`);
        await page.getByRole('button', { name: 'Register Device' }).click();
        await page.getByRole('dialog', { name: 'Register Device' }).waitFor();
        await expectAxeClean(page, `register device ${sizeName}`);
        await page.keyboard.press('Escape');
        await page.getByRole('link', { name: `Start Inspection: ${LINE}` }).click();
        await page.getByLabel('Product leaving the line').waitFor();
        await expectAxeClean(page, `inspection before ${sizeName}`);
        await fillBefore(page);
        await page.getByRole('button', { name: 'Start Recording' }).click();
        await page.getByRole('button', { name: 'Record' }).click({ timeout: 30_000 });
        await page.getByRole('button', { name: 'Pause' }).waitFor();
        await expectAxeClean(page, `inspection recording ${sizeName}`);
        await page.getByRole('button', { name: 'Stop' }).click();
        await page.getByRole('button', { name: 'Submit' }).waitFor({ timeout: 30_000 });
        await expectAxeClean(page, `inspection review ${sizeName}`);
        await acceptConfirm(page, () =>
          page.getByRole('button', { name: 'Discard recording' }).click(),
        );
      } finally {
        await context.close();
      }
    }
  }, 300_000);
});
