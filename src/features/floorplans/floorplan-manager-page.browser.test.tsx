import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { activeLine } from '../../../tests/web/line-fixture.ts';
import { cleanup, render, unexpectedRequest } from '../../../tests/web/render.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import type { Floorplan, FloorplanConfigSave, FloorplanConfiguration } from '../../types/api.ts';
import FloorplanManagerPage from './floorplan-manager-page.tsx';

const lineId = 'c00000000000000000000001';
const line = activeLine(lineId);
const plan = (id: string): Floorplan => ({
  _id: id,
  name: 'Floorplan',
  imagePath: `floorplans/${id}.png`,
  lineID: lineId,
  createdAt: '2026-11-03T09:15:00.000Z',
});
const oldPlan = plan('f00000000000000000000001');
const newPlan = plan('f00000000000000000000002');

/** The saved configuration: one tag in the middle of the old plan's 800 × 500 frame. */
const savedConfiguration: FloorplanConfiguration = {
  floorplanImage: oldPlan.imagePath,
  displaySize: { width: 800, height: 500 },
  hotZones: [],
  tags: [{ x: 400, y: 250, name: 'Tag 1', color: '#e6194b' }],
  cameras: [],
  coordinateSystem: { useSimpleMapping: true, pixelsPerMeter: 50 },
};

async function png(width: number, height: number): Promise<Blob> {
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D context');
  context.fillStyle = '#f8fafc';
  context.fillRect(0, 0, width, height);
  return canvas.convertToBlob({ type: 'image/png' });
}

const json = (body: unknown, status = 200, statusText = '') =>
  new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });

/** Another manager's save since the wizard read the configuration, as the server refuses it. */
const savedMeanwhile =
  'Blister Line 1 Floorplan Configuration was changed by Adriana Novak on 2026-11-26 at 02:41 UTC since you opened it. Save again to replace those changes with yours, or go back to the calibration and use Reset Configuration to start from them.';

/**
 * The API as another manager leaves it: `server.plans` is the floor-plan list and `server.version`
 * the saved configuration's version; a save for a floor plan that is no longer the line's, or of
 * another version, is refused as the server refuses it.
 */
async function serve() {
  const images: Record<string, Blob> = {
    [`/api/floorplans/${oldPlan._id}.png`]: await png(1200, 750),
    // The replacement is square: its frame is 800 × 800.
    [`/api/floorplans/${newPlan._id}.png`]: await png(1000, 1000),
  };
  const server = { plans: [oldPlan], saves: [] as FloorplanConfigSave[], version: 1 };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const { pathname } = new URL(String(input), window.location.origin);
    const key = `${init?.method ?? 'GET'} ${pathname}`;
    if (key === 'GET /api/line-clearances') return json([line]);
    if (key === 'GET /api/floorplans') return json(server.plans);
    if (key === `GET /api/floorplan-configs/line-clearance/${lineId}`) {
      return json({
        lineClearanceId: lineId,
        configuration: savedConfiguration,
        version: server.version,
      });
    }
    const image = images[pathname];
    if (image && key === `GET ${pathname}`) return new Response(image, { status: 200 });
    if (key === 'POST /api/floorplan-configs') {
      const body = JSON.parse(String(init?.body)) as FloorplanConfigSave;
      server.saves.push(body);
      const current = server.plans.find((candidate) => candidate.lineID === lineId);
      if (body.floorplanId !== current?._id) {
        return json(
          { message: 'body.floorplanId is not the floor plan of this line clearance' },
          400,
          'Bad Request',
        );
      }
      if (body.version !== server.version) {
        return json({ message: savedMeanwhile }, 409, 'Conflict');
      }
      server.version += 1;
      return json({
        lineClearanceId: lineId,
        configuration: body.configuration,
        version: server.version,
      });
    }
    return unexpectedRequest(key);
  });
  return server;
}

async function show() {
  signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
  await render(
    <Router hook={memoryLocation({ path: '/floorplans' }).hook}>
      <FloorplanManagerPage />
    </Router>,
  );
}

const button = (name: string) => page.getByRole('button', { name, exact: true });

/** Step 1 to step 4 for the line, its floor plan calibrated as saved. */
async function reachReview() {
  await userEvent.selectOptions(page.getByLabelText('Line clearance'), 'Blister Line 1');
  await userEvent.click(button('Continue to Configuration'));
  await userEvent.click(button('Continue to Calibration'));
  await expect.element(button('Review & Save Configuration')).toBeEnabled();
  await userEvent.click(button('Review & Save Configuration'));
  await expect.element(button('Save Configuration')).toBeVisible();
}

beforeEach(async () => {
  await page.viewport(1280, 900);
});

afterEach(async () => {
  await cleanup();
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/floorplans', () => {
  it('on a new system says to create a line clearance first, not that the role cannot edit', async () => {
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      const { pathname } = new URL(String(input), window.location.origin);
      if (pathname === '/api/line-clearances' || pathname === '/api/floorplans') return json([]);
      return unexpectedRequest(`GET ${pathname}`);
    });
    await show();
    await expect
      .element(page.getByText(/^There is no line clearance yet\. Create one first/))
      .toBeVisible();
    expect(page.getByText(/^Your role can look at this floor plan/).query()).toBeNull();
  });

  it('has the breadcrumb bar: back to the dashboard, and Floorplan Manager (spec §2)', async () => {
    await serve();
    await show();
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect
      .element(breadcrumb.getByRole('button', { name: 'Back to Admin Dashboard' }))
      .toBeVisible();
    await expect.element(breadcrumb.getByText('Floorplan Manager')).toBeVisible();
  });

  it('says in words that the floor plan was replaced meanwhile, and opens the new one with the placed items', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const server = await serve();
    await show();
    await reachReview();

    // Another manager replaces the line's floor plan while this calibration is open.
    server.plans = [newPlan];
    await userEvent.click(button('Save Configuration'));
    const notice = page.getByRole('alert');
    await expect.element(notice).toHaveTextContent(/The floor plan was replaced/);
    await expect
      .element(notice)
      .toHaveTextContent(/new floor plan for Blister Line 1 since this calibration was opened/);
    expect(alert).toHaveBeenCalledWith(
      'Save failed: Bad Request (the floor plan of Blister Line 1 was replaced since this calibration was opened)',
    );
    expect(server.saves.map((save) => save.floorplanId)).toEqual([oldPlan._id]);
    // No second try of what cannot be saved; the export stays.
    expect(button('Save Configuration').query()).toBeNull();
    await expect.element(button('Export Config')).toBeVisible();

    await userEvent.click(notice.getByRole('button', { name: 'Open the current floor plan' }));
    await expect.element(page.getByText('1000 × 1000 px')).toBeVisible();
    await expect.element(button('Review & Save Configuration')).toBeEnabled();
    await userEvent.click(button('Review & Save Configuration'));
    await userEvent.click(button('Save Configuration'));
    await expect.element(button('Configure Another Floorplan')).toBeVisible();
    const last = server.saves.at(-1);
    expect(last?.floorplanId).toBe(newPlan._id);
    // The tag placed on the old plan, carried over to the new plan's frame.
    expect(last?.configuration.displaySize).toEqual({ width: 800, height: 800 });
    expect(last?.configuration.tags).toMatchObject([{ name: 'Tag 1', x: 400, y: 400 }]);
  });

  it('says who saved the configuration since it was opened, keeps the work, and saves over theirs on a second Save', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const server = await serve();
    await show();
    await reachReview();

    // Another manager saves the line's configuration while this calibration is open.
    server.version = 2;
    await userEvent.click(button('Save Configuration'));
    await vi.waitFor(() =>
      expect(alert).toHaveBeenCalledWith(`Save failed: Conflict (${savedMeanwhile})`),
    );
    // Still on the review with the work on screen; the configuration is read again, so a second
    // Save, made knowing, replaces the newer one.
    await expect.element(button('Save Configuration')).toBeEnabled();
    await userEvent.click(button('Save Configuration'));
    await expect.element(button('Configure Another Floorplan')).toBeVisible();
    expect(server.saves.map((save) => save.version)).toEqual([1, 2]);
    expect(server.saves[1]?.configuration.tags).toMatchObject([{ name: 'Tag 1' }]);
  });

  it('says when the floor plan was deleted meanwhile, and leads back to the upload', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const server = await serve();
    await show();
    await reachReview();
    server.plans = [];
    await userEvent.click(button('Save Configuration'));
    const notice = page.getByRole('alert');
    await expect.element(notice).toHaveTextContent(/The floor plan was deleted/);
    expect(alert).toHaveBeenCalledWith(
      'Save failed: Bad Request (the floor plan of Blister Line 1 was deleted since this calibration was opened)',
    );
    await expect.element(button('Export Config')).toBeVisible();
    await userEvent.click(notice.getByRole('button', { name: 'Back to Upload' }));
    await expect.element(page.getByText('No floor plans yet')).toBeVisible();
  });

  it('warns by name about a tag without a QR code, and gives it one on request', async () => {
    const server = await serve();
    await show();
    await reachReview();
    const notice = page.getByRole('region', { name: 'QR codes' });
    await expect
      .element(notice)
      .toHaveTextContent(
        'Tag 1 has no QR code: the operator’s phone cannot scan it, so every inspection will flag it as not scanned unless the analysed path passes right by it.',
      );
    await userEvent.click(notice.getByRole('button', { name: 'Give codes to tags without one' }));
    await expect.element(notice).not.toBeInTheDocument();
    const given = page.getByText('QR codes given to Tag 1. Save the configuration to keep them.');
    await expect.element(given).toHaveFocus();

    // Not saved yet: its label says so.
    await userEvent.click(button('Print QR labels'));
    const sheet = page.getByRole('dialog', { name: 'QR labels: Blister Line 1' });
    await expect.element(sheet).toHaveTextContent(/One code on these labels is not saved yet/);
    await userEvent.click(sheet.getByRole('button', { name: 'Close' }));

    await userEvent.click(button('Save Configuration'));
    await expect.element(button('Configure Another Floorplan')).toBeVisible();
    const code = server.saves.at(-1)?.configuration.tags[0]?.qrCode;
    expect(code).toMatch(/^BLISTER-LINE-1-T1-[2-9A-HJKMNP-TV-Z]{5}$/);

    // The configured floor plan's card prints the saved tags' labels.
    await userEvent.click(button('Back to Floorplan Selection'));
    await userEvent.click(button('Print QR labels'));
    await expect
      .element(sheet.getByRole('listitem'))
      .toHaveTextContent(`Tag 1Blister Line 1${code}`);
    expect(sheet.getByText(/not saved yet/).query()).toBeNull();
  });

  it('keeps the server’s words for a refusal with another reason', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const server = await serve();
    await show();
    await reachReview();
    // The line's floor plan is unchanged: the refusal has another reason.
    expect(server.plans).toEqual([oldPlan]);
    const original = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'POST'
        ? Promise.resolve(
            json({ message: 'body.configuration.tags/0/name is too long' }, 400, 'Bad Request'),
          )
        : original(input, init),
    );
    await userEvent.click(button('Save Configuration'));
    await vi.waitFor(() =>
      expect(alert).toHaveBeenCalledWith(
        'Save failed: Bad Request (body.configuration.tags/0/name is too long)',
      ),
    );
    expect(page.getByRole('alert').query()).toBeNull();
    await expect.element(button('Save Configuration')).toBeVisible();
  });
});
