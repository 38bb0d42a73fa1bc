// The floor-plan manager against the real server (spec §2 Floorplan manager, §4 wizard and
// placement rules, §5 validations, §7 calls, §8 alerts): the five steps with a generated PNG,
// placing, editing and removing by mouse and keyboard, export, save and read-back, replacing
// and deleting floor plans, the failure alerts, the read-only view, and axe at every step.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright';
import { describe, expect, test } from 'vitest';
import { encodePng } from '../../scripts/lib/png.ts';
import { Api } from './support/api.ts';
import { axeViolationsLightAndDark } from './support/axe.ts';
import { expectToast, landedOn, newContext } from './support/browser.ts';
import { demoAccount, demoPassword, type Role } from './support/demo.ts';
import { setUpE2e } from './support/fixture.ts';

const e2e = setUpE2e();

interface Line {
  _id: string;
  name: string;
}
interface Floorplan {
  _id: string;
  name: string;
  imagePath: string;
  lineID: string;
  createdAt: string;
}
interface Item {
  x: number;
  y: number;
  name: string;
  [field: string]: unknown;
}
interface Configuration {
  floorplanImage?: string;
  displaySize: { width: number; height: number };
  hotZones: (Item & { width: number; height: number })[];
  tags: Item[];
  cameras: Item[];
  coordinateSystem: Record<string, unknown>;
  slamPoints?: number[][];
  floorplanPoints?: number[][];
  forceAffine?: boolean;
  yAxisFlip?: boolean;
}
interface StoredConfiguration {
  _id: string;
  lineClearanceId: string;
  floorplanId: string | null;
  name: string;
  configuration: Configuration;
}

const flowTimeoutMs = 120_000;

/** A floor plan drawn here: light floor, 50 px grid, walls, two machines. */
function planPng(width: number, height: number): Buffer {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const wall = x < 8 || y < 8 || x >= width - 8 || y >= height - 8;
      const machine =
        (x > 150 && x < 420 && y > 200 && y < 330) || (x > 600 && x < 900 && y > 220 && y < 320);
      const grid = x % 50 === 0 || y % 50 === 0;
      const [r, g, b] = wall
        ? [51, 51, 51]
        : machine
          ? [120, 144, 176]
          : grid
            ? [208, 208, 200]
            : [245, 245, 238];
      data.set([r, g, b], (y * width + x) * 3);
    }
  }
  return Buffer.from(encodePng({ width, height, data }));
}

interface Shown {
  page: Page;
  /** Every browser dialog (alert, confirm), accepted at once, in order. */
  dialogs: { type: string; message: string }[];
  /** How many of them the test has checked. */
  checked: number;
}

async function floorplansAs(role: Role): Promise<Shown> {
  const token = await e2e.tokenFor(role);
  const context = await newContext(e2e.browser, { baseUrl: e2e.server.baseUrl, token });
  const page = await context.newPage();
  const shown: Shown = { page, dialogs: [], checked: 0 };
  page.on('dialog', (dialog) => {
    shown.dialogs.push({ type: dialog.type(), message: dialog.message() });
    void dialog.accept();
  });
  await page.goto('/floorplans');
  await landedOn(page, '/floorplans');
  return shown;
}

/** Waits for the next browser dialog and checks it is this one. */
async function expectDialog(shown: Shown, type: string, message: string): Promise<void> {
  await expect.poll(() => shown.dialogs.length).toBeGreaterThan(shown.checked);
  expect(shown.dialogs[shown.checked]).toEqual({ type, message });
  shown.checked += 1;
}

const confirmDelete =
  'Are you sure you want to delete this floorplan? This action cannot be undone.';

/** After the confirmation, the reason dialog: the trail keeps why the floor plan went. */
async function giveDeletionReason(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Why is this floor plan deleted?' });
  await dialog.getByLabel('Reason (required)').fill('The sachet hall was rebuilt');
  await button(dialog, 'Delete').click();
  await dialog.waitFor({ state: 'hidden' });
}

const step = (page: Page, name: string) =>
  page.getByRole('heading', { level: 2, name: new RegExp(`^Step \\d of 5: ${name}$`) });

const button = (scope: Page | Locator, name: string) =>
  scope.getByRole('button', { name, exact: true });

/** Turns a placing mode on and waits until the keyboard is on the plan, as the mode moves it. */
async function startMode(page: Page, name: string): Promise<void> {
  await button(page, name).click();
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
    .toBe('Floor plan');
}

/** axe (WCAG 2.2 AA) finds nothing, in the light and the dark colour scheme. */
async function expectAccessible(page: Page): Promise<void> {
  expect(await axeViolationsLightAndDark(page)).toEqual([]);
}

async function lcManagerApi(): Promise<Api> {
  return Api.login(e2e.server.baseUrl, demoAccount('lc_manager').email, demoPassword);
}

/** Uploads a floor plan as another client would (multipart, like the web app). */
async function uploadThroughApi(api: Api, lineId: string, png: Buffer): Promise<Floorplan> {
  const form = new FormData();
  form.append('name', 'Floorplan');
  form.append('lineID', lineId);
  form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'plan.png');
  const response = await fetch(`${api.baseUrl}/api/floorplans`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${api.token}` },
    body: form,
  });
  if (response.status !== 201) throw new Error(`upload answered ${response.status}`);
  return (await response.json()) as Floorplan;
}

async function floorplansOf(api: Api, lineId: string): Promise<Floorplan[]> {
  return (await api.get<Floorplan[]>('/api/floorplans')).filter((plan) => plan.lineID === lineId);
}

const near = (actual: number | undefined, expected: number) =>
  expect(Math.abs((actual ?? Number.NaN) - expected)).toBeLessThanOrEqual(1.5);

describe('floor-plan manager', () => {
  test(
    'walks all five steps on a new line: upload, place, edit, remove, export, save, read back',
    async () => {
      const lcManager = await lcManagerApi();
      const line = await lcManager.post<Line>('/api/line-clearances', {
        name: 'E2E Capsule Line 7',
        description: 'Capsule filler and blister feeder',
      });
      const shown = await floorplansAs('lc_manager');
      const { page } = shown;
      await step(page, 'Upload Floorplan').waitFor();
      await expect.poll(() => page.getByRole('list', { name: 'Wizard progress' }).count()).toBe(1);
      await expectAccessible(page);

      // Spec §5: both a file and a line clearance are needed.
      await button(page, 'Upload Floorplan').click();
      await expectDialog(shown, 'alert', 'Please select a file and line clearance');
      await page.getByLabel('Line clearance', { exact: true }).selectOption({ label: line.name });
      await button(page, 'Upload Floorplan').click();
      await expectDialog(shown, 'alert', 'Please select a file and line clearance');
      expect(shown.dialogs).toHaveLength(2);

      await page.getByLabel('Floor plan image (PNG, JPG, JPEG, GIF)').setInputFiles({
        name: 'capsule-line-7.png',
        mimeType: 'image/png',
        buffer: planPng(1200, 750),
      });
      await button(page, 'Upload Floorplan').click();
      await expectDialog(shown, 'alert', 'Floorplan uploaded successfully!');
      const [uploaded] = await floorplansOf(lcManager, line._id);
      expect(uploaded?.name).toBe('Floorplan');

      // Step 2: the new floor plan is chosen already.
      await step(page, 'Configure Floorplan Mapping').waitFor();
      await button(page, `Selected Floorplan of ${line.name}`).waitFor();
      await page.getByText('Created').first().waitFor();
      await expectAccessible(page);
      await button(page, 'Continue to Calibration').click();

      // Step 3: the calibrator.
      await step(page, 'Points of Interest').waitFor();
      const surface = page.getByRole('application', { name: 'Floor plan' });
      await button(page, 'Add Tag').waitFor();
      expect(await surface.boundingBox()).toMatchObject({ width: 800, height: 500 });
      await expect.poll(() => button(page, 'Review & Save Configuration').isEnabled()).toBe(true);
      await expectAccessible(page);

      // A tag by mouse, one by keyboard at the cross (it starts in the middle: 400, 250).
      await button(page, 'Add Tag').click();
      await surface.click({ position: { x: 200, y: 150 } });
      await page.keyboard.press('Enter');
      await button(page, 'Cancel Tag').click();
      // A camera by keyboard 20 px from Tag 2: a warning, and the camera is placed all the same.
      await startMode(page, 'Add Camera');
      await page.keyboard.press('Shift+ArrowRight');
      await page.keyboard.press('Shift+ArrowRight');
      await page.keyboard.press('Enter');
      await expectToast(
        page,
        'warn',
        'Warning',
        'Camera 1 is within 30 px of Tag 2 (20 px apart).',
      );
      await surface.click({ position: { x: 650, y: 420 } });
      await page.keyboard.press('Escape');
      await button(page, 'Add Camera').waitFor();

      // Hot zones by dragging: too small (20 px wide) is refused, 120 × 100 is created.
      await button(page, 'Add Hot Zone').click();
      const box = await surface.boundingBox();
      if (!box) throw new Error('the plan is not drawn');
      const drag = async (from: [number, number], to: [number, number]) => {
        await page.mouse.move(box.x + from[0], box.y + from[1]);
        await page.mouse.down();
        await page.mouse.move(box.x + to[0], box.y + to[1], { steps: 5 });
        await page.mouse.up();
      };
      await drag([500, 100], [515, 180]);
      await page
        .getByText('No hot zone created: drag more than 20 px in both directions.')
        .waitFor();
      await drag([100, 300], [220, 400]);
      await page.getByRole('heading', { name: 'Hot Zones (1)' }).waitFor();
      await button(page, 'Cancel Hot Zone').click();

      // Edit Tag 1 with every tag field; remove Camera 2 from the list.
      await button(page, 'Edit Tag 1').click();
      const dialog = page.getByRole('dialog', { name: 'Edit Tag' });
      await dialog.getByLabel('Name').fill('Entry door');
      await dialog.getByLabel('QR code').fill('E2E-TAG-01');
      await dialog.getByLabel('Description').fill('Left of the door frame');
      await expectAccessible(page);
      await button(dialog, 'Save').click();
      await dialog.waitFor({ state: 'hidden' });
      await button(page, 'Remove Camera 2').click();
      await page.getByRole('heading', { name: 'Static Cameras (1)' }).waitFor();

      // Keyboard: select Tag 2, move it up 10 px; place Tag 3 and delete it with Delete.
      await page.getByRole('button', { name: /^Tag 2, tag at/ }).focus();
      await page.keyboard.press('Shift+ArrowUp');
      await page.getByText('Tag 2 moved to 400, 240').waitFor();
      await startMode(page, 'Add Tag');
      await page.keyboard.press('Shift+ArrowDown');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      await page.getByRole('heading', { name: 'Tags (3)' }).waitFor();
      await page.getByRole('button', { name: /^Tag 3, tag at/ }).focus();
      await page.keyboard.press('Delete');
      await page.getByRole('heading', { name: 'Tags (2)' }).waitFor();

      await page.getByLabel('Pixels per meter').fill('40');
      await page.getByText('30.00 m × 18.75 m').waitFor();
      await button(page, 'Review & Save Configuration').click();

      // Step 4: the summary, export, save.
      await step(page, 'Review & Save').waitFor();
      const summary = page.getByRole('region', { name: 'Summary' });
      const summaryRows: [string, string][] = [
        ['Line clearance', line.name],
        ['Hot zones', '1'],
        ['Tags', '2'],
        ['Static cameras', '1'],
        ['Pixels per meter', '40'],
      ];
      for (const [label, value] of summaryRows) {
        await summary
          .locator('.record-field')
          .filter({ has: page.getByText(label, { exact: true }) })
          .getByText(value, { exact: true })
          .waitFor();
      }
      await expectAccessible(page);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        button(page, 'Export Config').click(),
      ]);
      expect(download.suggestedFilename()).toBe('e2e-capsule-line-7-floorplan-configuration.json');
      const exported = JSON.parse(
        readFileSync(await download.path(), 'utf8'),
      ) as StoredConfiguration;
      expect(exported).toMatchObject({
        lineClearanceId: line._id,
        name: 'E2E Capsule Line 7 Floorplan Configuration',
        floorplanId: uploaded?._id,
      });
      const configuration = exported.configuration;
      expect(configuration).toMatchObject({
        floorplanImage: uploaded?.imagePath,
        displaySize: { width: 800, height: 500 },
        coordinateSystem: {
          useSimpleMapping: true,
          sourceImageWidth: 1200,
          sourceImageHeight: 750,
          pixelsPerMeter: 40,
        },
      });
      expect(configuration.tags.map((tag) => tag.name)).toEqual(['Entry door', 'Tag 2']);
      expect(configuration.tags[0]).toMatchObject({
        qrCode: 'E2E-TAG-01',
        description: 'Left of the door frame',
        color: '#e6194b',
      });
      near(configuration.tags[0]?.x, 200);
      near(configuration.tags[0]?.y, 150);
      expect(configuration.tags[1]).toMatchObject({ x: 400, y: 240, color: '#3cb44b' });
      expect(configuration.cameras).toEqual([
        { x: 420, y: 250, name: 'Camera 1', color: '#e6194b', type: 'standard' },
      ]);
      expect(configuration.hotZones).toHaveLength(1);
      const zone = configuration.hotZones[0];
      expect(zone).toMatchObject({ name: 'Hot Zone 1', importance: 'medium', color: '#e6194b' });
      near(zone?.x, 100);
      near(zone?.y, 300);
      near(zone?.width, 120);
      near(zone?.height, 100);

      await button(page, 'Save Configuration').click();
      await step(page, 'Success').waitFor();
      await expectAccessible(page);
      const stored = await lcManager.get<StoredConfiguration>(
        `/api/floorplan-configs/line-clearance/${line._id}`,
      );
      expect(stored).toMatchObject({
        lineClearanceId: line._id,
        floorplanId: uploaded?._id,
        name: 'E2E Capsule Line 7 Floorplan Configuration',
      });
      expect(stored.configuration).toEqual(configuration);

      // Back to the selection: the saved configuration opens for editing.
      await button(page, 'Back to Floorplan Selection').click();
      await step(page, 'Configure Floorplan Mapping').waitFor();
      await button(page, 'Continue to Calibration').click();
      await page.getByRole('listitem').filter({ hasText: 'Entry door' }).waitFor();
      await page.getByRole('heading', { name: 'Tags (2)' }).waitFor();
      await page.context().close();
    },
    flowTimeoutMs,
  );

  test(
    'opens a saved configuration for editing and keeps its path calibration on save',
    async () => {
      const lcManager = await lcManagerApi();
      const line = (await lcManager.get<Line[]>('/api/line-clearances')).find(
        (candidate) => candidate.name === 'Blister Line 1',
      );
      if (!line) throw new Error('demo line Blister Line 1 is missing');
      const before = await lcManager.get<StoredConfiguration>(
        `/api/floorplan-configs/line-clearance/${line._id}`,
      );
      expect(before.configuration.slamPoints?.length).toBeGreaterThanOrEqual(3);

      const shown = await floorplansAs('lc_manager');
      const { page } = shown;
      await page.getByLabel('Line clearance', { exact: true }).selectOption({ label: line.name });
      await page.getByText(`${line.name} already has a floor plan`, { exact: false }).waitFor();
      await button(page, 'Replace Floorplan').waitFor();
      await button(page, 'Continue to Configuration').click();
      await step(page, 'Configure Floorplan Mapping').waitFor();
      await button(page, 'Continue to Calibration').click();
      const firstTag = before.configuration.tags[0];
      if (!firstTag) throw new Error('the demo configuration has no tags');
      await page
        .getByRole('heading', { name: `Tags (${before.configuration.tags.length})` })
        .waitFor();
      await button(page, `Edit ${firstTag.name}`).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Tag' });
      await dialog.getByLabel('Description').fill('Checked again after the guard was refitted');
      await button(dialog, 'Save').click();
      await dialog.waitFor({ state: 'hidden' });
      await button(page, 'Review & Save Configuration').click();
      // Replacing the saved configuration asks why; the trail keeps it (docs/floorplans.md).
      await button(page, 'Save Configuration').click();
      const reasonField = page.getByLabel('Reason for change');
      await expect.poll(() => reasonField.getAttribute('aria-invalid')).toBe('true');
      await reasonField.fill('Guard refitted after the October audit');
      await button(page, 'Save Configuration').click();
      await step(page, 'Success').waitFor();

      const after = await lcManager.get<StoredConfiguration>(
        `/api/floorplan-configs/line-clearance/${line._id}`,
      );
      const { tags, coordinateSystem, ...rest } = after.configuration;
      const {
        tags: tagsBefore,
        coordinateSystem: systemBefore,
        ...restBefore
      } = before.configuration;
      expect(rest).toEqual(restBefore);
      expect(coordinateSystem).toEqual({
        ...systemBefore,
        sourceImageWidth: 1200,
        sourceImageHeight: 750,
      });
      expect(tags).toEqual([
        { ...firstTag, description: 'Checked again after the guard was refitted' },
        ...tagsBefore.slice(1),
      ]);
      expect(shown.dialogs).toEqual([]);
      const [entry] = await e2e.admin.get<{ action: string; reason: string | null }[]>(
        `/api/audit-log?entity=floorplan-config&entityId=${after._id}`,
      );
      expect(entry).toMatchObject({
        action: 'update',
        reason: 'Guard refitted after the October audit',
      });

      // The video page's path player reads what the wizard saved, for a video on that line.
      const videos = await lcManager.get<{ id: string; lineClearanceId: string }[]>('/api/videos');
      const video = videos.find((candidate) => candidate.lineClearanceId === line._id);
      if (!video) throw new Error('the demo data has no video on Blister Line 1');
      await page.goto(`/video/${encodeURIComponent(video.id)}`);
      const tagButton = (state: string) =>
        page.getByRole('button', { name: `${firstTag.name}, ${state}: show details`, exact: true });
      // The tag list follows the path player's whole load (configuration, worker, keyframes, plan),
      // the longest single wait of this file: its own budget, as the vitest config asks.
      await tagButton('scanned').or(tagButton('not scanned')).click({ timeout: 60_000 });
      await page
        .getByRole('dialog', { name: `Tag details: ${firstTag.name}` })
        .getByText('Checked again after the guard was refitted', { exact: true })
        .waitFor();
      await page.context().close();
    },
    flowTimeoutMs,
  );

  test(
    'replaces and deletes floor plans, with the upload, save, delete and image failures',
    async () => {
      const lcManager = await lcManagerApi();
      const line = await lcManager.post<Line>('/api/line-clearances', {
        name: 'E2E Sachet Line 8',
      });
      const first = await uploadThroughApi(lcManager, line._id, planPng(600, 400));
      const shown = await floorplansAs('lc_manager');
      const { page } = shown;
      await page.getByLabel('Line clearance', { exact: true }).selectOption({ label: line.name });
      await button(page, 'Replace Floorplan').waitFor();

      // Not an image: the server's reason follows the status text.
      const fileField = page.getByLabel('Floor plan image (PNG, JPG, JPEG, GIF)');
      await fileField.setInputFiles({
        name: 'notes.png',
        mimeType: 'image/png',
        buffer: Buffer.from('these are notes, not a picture'),
      });
      await button(page, 'Replace Floorplan').click();
      await expectDialog(
        shown,
        'alert',
        'Upload failed: Bad Request (image must be a PNG, JPEG or GIF file)',
      );
      expect((await floorplansOf(lcManager, line._id)).map((plan) => plan._id)).toEqual([
        first._id,
      ]);

      // Replacing: one floor plan per line, a new one in place of the old.
      await fileField.setInputFiles({
        name: 'sachet-line-8.png',
        mimeType: 'image/png',
        buffer: planPng(1000, 800),
      });
      await button(page, 'Replace Floorplan').click();
      await expectDialog(shown, 'alert', 'Floorplan uploaded successfully!');
      await step(page, 'Configure Floorplan Mapping').waitFor();
      const [replacement] = await floorplansOf(lcManager, line._id);
      expect(replacement?._id).not.toBe(first._id);
      expect(await floorplansOf(lcManager, line._id)).toHaveLength(1);

      // Another manager replaces it while this page is at the review: the save is refused.
      await button(page, 'Continue to Calibration').click();
      const surface = page.getByRole('application', { name: 'Floor plan' });
      await button(page, 'Add Tag').click();
      await surface.click({ position: { x: 300, y: 300 } });
      // 1000 × 800 is shown as 800 × 640.
      expect(await surface.boundingBox()).toMatchObject({ width: 800, height: 640 });
      await button(page, 'Review & Save Configuration').click();
      const elsewhere = await uploadThroughApi(lcManager, line._id, planPng(640, 480));
      await button(page, 'Save Configuration').click();
      await expectDialog(
        shown,
        'alert',
        `Save failed: Bad Request (the floor plan of ${line.name} was replaced since this calibration was opened)`,
      );
      await step(page, 'Review & Save').waitFor();

      // This page still shows the plan that was replaced meanwhile: deleting it fails, and the
      // list is read again, showing the plan that replaced it, not chosen yet.
      await button(page, 'Back to Calibration').click();
      await button(page, 'Back').click();
      await step(page, 'Configure Floorplan Mapping').waitFor();
      await button(page, `Delete Floorplan of ${line.name}`).click();
      await expectDialog(shown, 'confirm', confirmDelete);
      await giveDeletionReason(page);
      await expectDialog(shown, 'alert', 'Delete failed: Not Found (Floor plan not found)');
      await button(page, `Select Floorplan of ${line.name}`).waitFor();
      expect(await button(page, 'Continue to Calibration').isDisabled()).toBe(true);

      // The image store fails once: the calibrator says so, and Retry loads it.
      await button(page, `Select Floorplan of ${line.name}`).click();
      await page.route('**/api/floorplans/*.png', (route) =>
        route.fulfill({ status: 503, body: '{"message":"storage unavailable"}' }),
      );
      await button(page, 'Continue to Calibration').click();
      await page.getByText('Failed to load floorplan image').waitFor();
      expect(await button(page, 'Review & Save Configuration').isDisabled()).toBe(true);
      await expectAccessible(page);
      await page.unrouteAll();
      await button(page, 'Retry').click();
      await button(page, 'Add Tag').waitFor();
      await expect.poll(() => button(page, 'Review & Save Configuration').isEnabled()).toBe(true);

      // A delete that works.
      await button(page, 'Back').click();
      await button(page, `Delete Floorplan of ${line.name}`).click();
      await expectDialog(shown, 'confirm', confirmDelete);
      await giveDeletionReason(page);
      await expectDialog(shown, 'alert', 'Floorplan deleted successfully!');
      await page
        .getByText('This line clearance has no floor plan yet.', { exact: false })
        .waitFor();
      expect(await button(page, 'Continue to Calibration').isDisabled()).toBe(true);
      expect(await floorplansOf(lcManager, line._id)).toEqual([]);
      expect(elsewhere.lineID).toBe(line._id);
      await page.context().close();
    },
    flowTimeoutMs,
  );

  test(
    'shows an auditor the configuration read-only, with export but no changes',
    async () => {
      const shown = await floorplansAs('audit');
      const { page } = shown;
      await page.getByText('Your role can look at this floor plan', { exact: false }).waitFor();
      expect(await page.getByLabel('Floor plan image (PNG, JPG, JPEG, GIF)').count()).toBe(0);
      await button(page, 'Configure Bottling Line 2').click();
      await step(page, 'Configure Floorplan Mapping').waitFor();
      expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(0);
      await button(page, 'Continue to Calibration').click();
      await page
        .getByText('Read only: the points of interest of this floor plan are shown as saved.')
        .waitFor();
      await page.getByRole('heading', { name: /^Tags \(\d+\)$/ }).waitFor();
      expect(await page.getByRole('button', { name: 'Add Tag' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Edit / }).count()).toBe(0);
      await expectAccessible(page);
      await button(page, 'Review & Save Configuration').click();
      await step(page, 'Review & Save').waitFor();
      expect(await page.getByRole('button', { name: 'Save Configuration' }).count()).toBe(0);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        button(page, 'Export Config').click(),
      ]);
      expect(download.suggestedFilename()).toBe('bottling-line-2-floorplan-configuration.json');
      await page.context().close();
    },
    flowTimeoutMs,
  );

  test(
    'shows the empty state when there are no floor plans',
    async () => {
      for (const plan of await e2e.admin.get<Floorplan[]>('/api/floorplans')) {
        await e2e.admin.call('DELETE', `/api/floorplans/${plan._id}`);
      }
      const { page } = await floorplansAs('admin');
      await page.getByText('No floor plans yet').waitFor();
      await expectAccessible(page);
      await page.context().close();
    },
    flowTimeoutMs,
  );
});
